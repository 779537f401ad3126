// HeatmapView: the colour map holds exactly the engine's weights, cells are crisp and where the tokens say,
// hidden specials only hide, hover/click report the cell under the mouse, long sentences stay usable.
#include "decode/decoding.h"
#include "heatmap/colormaps.h"
#include "heatmap/heatmap_view.h"
#include "test_models.h"
#include "test_registry.h"

#include <qcustomplot.h>
#include <QSignalSpy>
#include <QTest>
#include <cmath>

using namespace attnviz;
using namespace attnviz::ui;

namespace {

const Model& viewModel() {
    // Never destroyed: core is built with -march=native and frees Eigen buffers with its own allocator; a Model
    // destroyed in this (non-native) translation unit at exit aborts with "double free" (see the report).
    static const Model* m =
        new Model(testing::smallModel(testing::smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 7, 3.0f));
    return *m;
}

DecodeResult decode(const QString& source, const QString& reference) {
    if (reference.isEmpty()) return greedyDecode(viewModel(), source.toStdString());
    return forcedDecode(viewModel(), source.toStdString(), reference.toStdString());
}

// A synthetic heatmap of `rows` x `cols` with distinct weights (rows sum to 1).
HeatmapData synthetic(int rows, int cols) {
    HeatmapData d;
    d.source_tokens << "<sos>";
    for (int c = 1; c + 1 < cols; ++c) d.source_tokens << QStringLiteral("w%1").arg(c);
    d.source_tokens << "<eos>";
    for (int r = 0; r < rows; ++r)
        d.target_tokens << (r + 1 == rows ? QStringLiteral("<eos>") : QStringLiteral("t%1").arg(r));
    for (int r = 0; r < rows; ++r) {
        std::vector<float> w(cols);
        double sum = 0;
        for (int c = 0; c < cols; ++c) sum += (w[c] = float(1 + ((r * 7 + c * 13) % 17)));
        for (float& x : w) x = float(x / sum);
        d.weights.push_back(w);
    }
    return d;
}

QColor gradientColor(const QString& map, double v) {
    QCPColorGradient g = colormapGradient(map);
    QRgb rgb = 0;
    g.colorize(&v, QCPRange(0, 1), &rgb, 1);
    return QColor(rgb);
}

}  // namespace

class TestHeatmapView : public QObject {
    Q_OBJECT
private slots:
    void colormaps_data();
    void colormaps();
    void unknownColormapIsViridis();
    void textContrast();
    void matrixHoldsEngineWeights_data();
    void matrixHoldsEngineWeights();
    void interpolationOffAndFixedRange();
    void fitRangeUsesMaxWeight();
    void tokenLabelsOnAxes();
    void aLongTargetWordLeavesTheMatrixItsWidth();
    void firstTargetRowAtTheTop();
    void cellPixelsHaveTheWeightColour_data();
    void cellPixelsHaveTheWeightColour();
    void hoverAndClickReportTheCell_data();
    void hoverAndClickReportTheCell();
    void leavingTheMatrixReportsMinusOne();
    void visibleRowsBlankTheRest();
    void longSentenceKeepsCellsReadable();
    void singleCellMatrix();
    void eachDecodeIsDrawnOnceWithItsCurrentRowInView();
};

void TestHeatmapView::colormaps_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QColor>("low");
    QTest::addColumn<QColor>("mid");
    QTest::addColumn<QColor>("high");
    // Published end points (matplotlib tables: viridis #440154 .. #fde725, cividis #00224e .. #fee838, magma).
    QTest::newRow("viridis ends and middle")
        << "viridis" << QColor(68, 1, 84) << QColor(33, 145, 140) << QColor(253, 231, 37);
    QTest::newRow("magma ends") << "magma" << QColor(0, 0, 4) << QColor(183, 55, 121) << QColor(252, 253, 191);
    QTest::newRow("cividis ends (colour-blind safe)")
        << "cividis" << QColor(0, 34, 78) << QColor(125, 124, 120) << QColor(254, 232, 56);
    QTest::newRow("gray: white is high (Bahdanau fig. 3)")
        << "gray" << QColor(0, 0, 0) << QColor(128, 128, 128) << QColor(255, 255, 255);
    QTest::newRow("greys: black is high (print)")
        << "greys" << QColor(255, 255, 255) << QColor(128, 128, 128) << QColor(0, 0, 0);
    QTest::newRow("blues ends") << "blues" << QColor(247, 251, 255) << QColor(107, 174, 214) << QColor(8, 48, 107);
}

void TestHeatmapView::colormaps() {
    QFETCH(QString, name);
    QFETCH(QColor, low);
    QFETCH(QColor, mid);
    QFETCH(QColor, high);
    QVERIFY(colormapNames().contains(name));
    QVERIFY(isColormap(name));
    auto close = [](QColor a, QColor b) {
        return std::abs(a.red() - b.red()) <= 2 && std::abs(a.green() - b.green()) <= 2 &&
               std::abs(a.blue() - b.blue()) <= 2;
    };
    QVERIFY2(close(gradientColor(name, 0.0), low), qPrintable(gradientColor(name, 0.0).name()));
    QVERIFY2(close(gradientColor(name, 0.5), mid), qPrintable(gradientColor(name, 0.5).name()));
    QVERIFY2(close(gradientColor(name, 1.0), high), qPrintable(gradientColor(name, 1.0).name()));
    QVERIFY(!colormapDisplayName(name).isEmpty());
}

void TestHeatmapView::unknownColormapIsViridis() {
    QCOMPARE(gradientColor("no-such-map", 0.0), gradientColor("viridis", 0.0));
    QCOMPARE(gradientColor("no-such-map", 1.0), gradientColor("viridis", 1.0));
    QVERIFY(!isColormap("no-such-map"));
    QCOMPARE(colormapDisplayName("no-such-map"), colormapDisplayName("viridis"));
    QCOMPARE(colormapNames().first(), defaultColormap());
}

void TestHeatmapView::textContrast() {
    QCOMPARE(contrastingTextColor(QColor(68, 1, 84)), QColor(Qt::white));     // viridis low
    QCOMPARE(contrastingTextColor(QColor(253, 231, 37)), QColor(Qt::black));  // viridis high
    QCOMPARE(contrastingTextColor(QColor(0, 0, 0)), QColor(Qt::white));
    QCOMPARE(contrastingTextColor(QColor(255, 255, 255)), QColor(Qt::black));
}

void TestHeatmapView::matrixHoldsEngineWeights_data() {
    QTest::addColumn<QString>("source");
    QTest::addColumn<QString>("reference");
    QTest::addColumn<bool>("hide");
    QTest::newRow("greedy, specials shown") << "i love you"
                                            << "" << false;
    QTest::newRow("forced chinese, specials shown") << "the cat sat on the mat ."
                                                    << "猫 坐 在 垫子 上 。" << false;
    QTest::newRow("forced, specials hidden: values unchanged") << "the cat sat on the mat ."
                                                               << "猫 坐 在 垫子 上 。" << true;
    QTest::newRow("unknown words keep their columns") << "i love zebras"
                                                      << "我 爱 斑马" << true;
    QTest::newRow("one word, specials hidden") << "cat"
                                               << "猫" << true;
}

void TestHeatmapView::matrixHoldsEngineWeights() {
    QFETCH(QString, source);
    QFETCH(QString, reference);
    QFETCH(bool, hide);
    const DecodeResult r = decode(source, reference);
    HeatmapView view;
    HeatmapStyle style;
    style.hide_specials = hide;
    view.setStyle(style);
    view.setData(HeatmapData::fromDecode(r));
    const int S = int(r.source_tokens.size()), T = int(r.target_tokens.size());
    int hiddenCols = 0, hiddenRows = 0;
    for (const auto& t : r.source_tokens) hiddenCols += hide && (t == "<sos>" || t == "<eos>");
    for (const auto& t : r.target_tokens) hiddenRows += hide && t == "<eos>";
    QCOMPARE(view.matrixSize(), QSize(S - hiddenCols, T - hiddenRows));
    for (int row = 0; row < view.matrixSize().height(); ++row)
        for (int col = 0; col < view.matrixSize().width(); ++col) {
            const int dr = view.dataRow(row), dc = view.dataColumn(col);
            QVERIFY(dr >= 0 && dc >= 0);
            if (hide)
                QVERIFY(r.source_tokens[dc] != "<sos>" && r.source_tokens[dc] != "<eos>" &&
                        r.target_tokens[dr] != "<eos>");
            // Exactly the engine's float, not a recomputation or a rounded copy.
            QCOMPARE(view.cellValue(row, col), double(r.attention[dr][dc]));
        }
    QVERIFY(std::isnan(view.cellValue(-1, 0)));
    QVERIFY(std::isnan(view.cellValue(0, view.matrixSize().width())));
}

void TestHeatmapView::interpolationOffAndFixedRange() {
    HeatmapView view;
    view.setData(synthetic(4, 6));
    auto* map = qobject_cast<QCPColorMap*>(view.plot()->plottable(0));
    QVERIFY(map);
    QVERIFY(!map->interpolate());
    QCOMPARE(map->dataRange(), QCPRange(0, 1));  // fixed: colours compare across models
    // Cells centred on integers: the data range spans the first to the last cell centre.
    QCOMPARE(map->data()->keyRange(), QCPRange(0, 5));
    QCOMPARE(map->data()->valueRange(), QCPRange(0, 3));
    QVERIFY(map->colorScale() != nullptr);
}

void TestHeatmapView::fitRangeUsesMaxWeight() {
    HeatmapView view;
    const HeatmapData d = synthetic(3, 5);
    HeatmapStyle s;
    s.fit_range = true;
    view.setStyle(s);
    view.setData(d);
    double mx = 0;
    for (const auto& row : d.weights)
        for (float w : row) mx = std::max(mx, double(w));
    auto* map = qobject_cast<QCPColorMap*>(view.plot()->plottable(0));
    QCOMPARE(map->dataRange(), QCPRange(0, mx));
}

void TestHeatmapView::tokenLabelsOnAxes() {
    HeatmapView view;
    view.resize(900, 600);
    view.show();  // laid out at that size: every label has its room
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const DecodeResult r = decode("the cat sat on the mat .", "猫 坐 在 垫子 上 。");
    view.setData(HeatmapData::fromDecode(r));
    auto keyTicker = view.plot()->xAxis2->ticker().dynamicCast<QCPAxisTickerText>();
    auto valueTicker = view.plot()->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
    QVERIFY(keyTicker && valueTicker);
    QCOMPARE(keyTicker->ticks().size(), int(r.source_tokens.size()));
    for (int c = 0; c < int(r.source_tokens.size()); ++c)
        QCOMPARE(keyTicker->ticks().value(c), QString::fromStdString(r.source_tokens[c]));
    for (int t = 0; t < int(r.target_tokens.size()); ++t)
        QCOMPARE(valueTicker->ticks().value(t), QString::fromStdString(r.target_tokens[t]));
}

// A target "word" as long as a clause (a SentencePiece model's pieces merged into words in Chinese, which has no
// spaces) is elided to a quarter of the plot's width, so that an 800-pixel-wide heatmap still shows its columns.
void TestHeatmapView::aLongTargetWordLeavesTheMatrixItsWidth() {
    HeatmapView view;
    view.resize(440, 300);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    HeatmapData d = synthetic(2, 12);
    d.target_tokens[0] = QStringLiteral("当我祖母在山的时我很小时这个村庄待了几栋小孩和山的每年");
    view.setData(d);
    auto valueTicker = view.plot()->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
    QVERIFY(valueTicker);
    const QString shown = valueTicker->ticks().value(0);
    QVERIFY2(shown.endsWith(QChar(0x2026)) && shown.size() < d.target_tokens[0].size(), qPrintable(shown));
    const double plot_width = view.plot()->viewport().width();
    QVERIFY2(QFontMetricsF(view.plot()->yAxis->tickLabelFont()).horizontalAdvance(shown) <= 0.25 * plot_width,
             qPrintable(shown));
    QVERIFY2(view.plot()->axisRect()->width() >= 0.5 * plot_width,
             qPrintable(QStringLiteral("matrix %1 of %2 px").arg(view.plot()->axisRect()->width()).arg(plot_width)));
}

void TestHeatmapView::firstTargetRowAtTheTop() {
    HeatmapView view;
    view.resize(700, 500);
    view.setData(synthetic(5, 6));
    QVERIFY(view.plot()->yAxis->rangeReversed());
    QVERIFY(view.cellCenter(0, 2).y() < view.cellCenter(1, 2).y());
    QVERIFY(view.cellCenter(2, 0).x() < view.cellCenter(2, 1).x());
}

void TestHeatmapView::cellPixelsHaveTheWeightColour_data() {
    QTest::addColumn<QString>("map");
    for (const QString& m : colormapNames()) QTest::newRow(qPrintable(m)) << m;
}

void TestHeatmapView::cellPixelsHaveTheWeightColour() {
    // Interpolation would blend neighbours: with crisp cells the centre pixel is the weight's own colour.
    QFETCH(QString, map);
    HeatmapView view;
    view.resize(800, 600);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    HeatmapStyle s;
    s.colormap = map;
    view.setStyle(s);
    const HeatmapData d = synthetic(6, 8);
    view.setData(d);
    const QImage img = view.plot()->toPixmap().toImage();
    for (int r = 0; r < d.rows(); ++r)
        for (int c = 0; c < d.cols(); ++c) {
            const QPoint p = view.cellCenter(r, c);
            const QColor want = gradientColor(map, d.weights[r][c]);
            const QColor got = img.pixelColor(p);
            QVERIFY2(std::abs(got.red() - want.red()) <= 1 && std::abs(got.green() - want.green()) <= 1 &&
                         std::abs(got.blue() - want.blue()) <= 1,
                     qPrintable(QStringLiteral("cell %1,%2: %3 vs %4").arg(r).arg(c).arg(got.name(), want.name())));
        }
}

void TestHeatmapView::hoverAndClickReportTheCell_data() {
    QTest::addColumn<int>("row");
    QTest::addColumn<int>("col");
    QTest::addColumn<bool>("hide");
    QTest::newRow("first cell") << 0 << 0 << false;
    QTest::newRow("middle cell") << 2 << 3 << false;
    QTest::newRow("last cell") << 4 << 6 << false;
    QTest::newRow("specials hidden: data indices reported") << 1 << 1 << true;
    QTest::newRow("specials hidden: last shown column") << 3 << 5 << true;
}

void TestHeatmapView::hoverAndClickReportTheCell() {
    QFETCH(int, row);
    QFETCH(int, col);
    QFETCH(bool, hide);
    HeatmapView view;
    view.resize(800, 600);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    HeatmapStyle s;
    s.hide_specials = hide;
    view.setStyle(s);
    view.setData(synthetic(5, 7));
    QSignalSpy hovered(&view, &HeatmapView::cellHovered);
    QSignalSpy clicked(&view, &HeatmapView::cellClicked);
    // The pixel centre of the cell from the axes themselves.
    QCustomPlot* plot = view.plot();
    const int displayRow = row, displayCol = hide ? col - 1 : col;  // only the <sos> column is hidden before it
    const QPoint p(int(std::lround(plot->xAxis2->coordToPixel(displayCol))),
                   int(std::lround(plot->yAxis->coordToPixel(displayRow))));
    QCOMPARE(p, view.cellCenter(row, col));
    QTest::mouseMove(plot, p);
    QTRY_VERIFY(!hovered.isEmpty());
    QCOMPARE(hovered.last().at(0).toInt(), row);
    QCOMPARE(hovered.last().at(1).toInt(), col);
    QTest::mouseClick(plot, Qt::LeftButton, {}, p);
    QCOMPARE(clicked.size(), 1);
    QCOMPARE(clicked.last().at(0).toInt(), row);
    QCOMPARE(clicked.last().at(1).toInt(), col);
    QCOMPARE(view.style().selected_row, row);
    QCOMPARE(view.style().selected_col, col);
}

void TestHeatmapView::leavingTheMatrixReportsMinusOne() {
    HeatmapView view;
    view.resize(800, 600);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setData(synthetic(4, 5));
    QSignalSpy hovered(&view, &HeatmapView::cellHovered);
    QTest::mouseMove(view.plot(), view.cellCenter(1, 1));
    QTRY_COMPARE(hovered.size(), 1);
    QTest::mouseMove(view.plot(), QPoint(2, view.plot()->height() - 2));  // corner: outside the axis rect
    QTRY_COMPARE(hovered.size(), 2);
    QCOMPARE(hovered.last().at(0).toInt(), -1);
    QCOMPARE(hovered.last().at(1).toInt(), -1);
}

void TestHeatmapView::visibleRowsBlankTheRest() {
    HeatmapView view;
    view.resize(800, 600);
    const HeatmapData d = synthetic(5, 6);
    view.setData(d);
    view.setVisibleRows(2);
    QCOMPARE(view.matrixSize(), QSize(6, 5));  // the picture keeps its size while stepping
    for (int c = 0; c < 6; ++c) {
        QCOMPARE(view.cellValue(1, c), double(d.weights[1][c]));
        QVERIFY(std::isnan(view.cellValue(2, c)));
        QVERIFY(std::isnan(view.cellValue(4, c)));
    }
    auto valueTicker = view.plot()->yAxis->ticker().dynamicCast<QCPAxisTickerText>();
    QCOMPARE(valueTicker->ticks().value(1), QStringLiteral("t1"));
    QCOMPARE(valueTicker->ticks().value(3), QString());  // not decoded yet: no label
    view.setVisibleRows(-1);
    QCOMPARE(view.cellValue(4, 5), double(d.weights[4][5]));
}

void TestHeatmapView::longSentenceKeepsCellsReadable() {
    HeatmapView view;
    view.resize(900, 600);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setData(synthetic(30, 200));
    QTRY_VERIFY(view.plot()->xAxis2->range().size() < 200);
    QCustomPlot* plot = view.plot();
    const double cellPx = plot->axisRect()->width() / plot->xAxis2->range().size();
    QVERIFY2(cellPx >= view.minimumCellSize() - 0.5, qPrintable(QString::number(cellPx)));
    QCOMPARE(plot->xAxis2->range().lower, -0.5);  // starts at the first source token
    view.fitAll();
    QCOMPARE(plot->xAxis2->range(), QCPRange(-0.5, 199.5));
    QCOMPARE(view.matrixSize(), QSize(200, 30));
    // Zoomed out, labels are thinned so that they do not overlap, but stay on their tokens.
    auto keyTicker = plot->xAxis2->ticker().dynamicCast<QCPAxisTickerText>();
    QVERIFY(keyTicker->ticks().size() < 200);
    for (auto it = keyTicker->ticks().cbegin(); it != keyTicker->ticks().cend(); ++it)
        QCOMPARE(it.value(), view.data().source_tokens[int(it.key())]);
}

void TestHeatmapView::singleCellMatrix() {
    // Only <eos> produced for a one-token source with specials hidden is a 1 x 1 matrix; it must still be a cell.
    HeatmapData d;
    d.source_tokens << "cat";
    d.target_tokens << "猫";
    d.weights = {{1.0f}};
    HeatmapView view;
    view.resize(400, 300);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setData(d);
    QCOMPARE(view.matrixSize(), QSize(1, 1));
    const QImage img = view.plot()->toPixmap().toImage();
    QCOMPARE(img.pixelColor(view.cellCenter(0, 0)), gradientColor("viridis", 1.0));
}

// The window hands the view each decode with its current row (the output's last row); the view draws it with one
// replot, scrolled so that the row is in view: a new sentence, the next step of the same one, and after the user zoomed.
void TestHeatmapView::eachDecodeIsDrawnOnceWithItsCurrentRowInView() {
    HeatmapView view;
    view.resize(900, 500);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setData(synthetic(60, 12), -1, 0);
    QSignalSpy replots(view.plot(), &QCustomPlot::afterReplot);
    const HeatmapData sentence = synthetic(60, 13);

    view.setData(sentence, -1, 59);  // a new sentence: 60 rows do not fit, so the last one is scrolled to
    QCOMPARE(replots.count(), 1);
    QVERIFY(view.plot()->yAxis->range().size() < 59);
    QVERIFY(!view.currentRowOutline().isEmpty());

    replots.clear();
    view.setData(sentence, -1, 3);  // the same sentence, another row
    QCOMPARE(replots.count(), 1);
    QVERIFY(!view.currentRowOutline().isEmpty());

    view.zoomIn();
    replots.clear();
    view.setData(sentence, -1, 45);  // zoomed in by the user: the zoom stays, the view scrolls to the row
    QCOMPARE(replots.count(), 1);
    QVERIFY(!view.currentRowOutline().isEmpty());
}

ATTNVIZ_TEST_MAIN(TestHeatmapView)
#include "test_heatmap_view.moc"
