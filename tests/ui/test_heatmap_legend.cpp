// The heatmap's legend (issue 30): the coverage colours, the H / ln S column and the gold marks are explained exactly
// while they are drawn, in the window (a strip under the heatmap, clear of the plot and its labels) and in every
// exported figure (a band inside the picture, with the marks' own colours), in the reader's language.
#include "eval/attention_diagnostics.h"
#include "heatmap/alignment_marks.h"
#include "heatmap/heatmap_diagnostics.h"
#include "heatmap/heatmap_export.h"
#include "heatmap/heatmap_legend.h"
#include "heatmap/heatmap_renderer.h"
#include "heatmap/heatmap_view.h"
#include "test_registry.h"
#include "window/language.h"

#include <qcustomplot.h>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>

#include <algorithm>
#include <cstdlib>

using namespace attnviz;
using namespace attnviz::ui;

namespace {

// 4 rows over <sos> w1 w2 w3 <eos>: w1 read by three rows (over-attended), w3 by none (neglected).
HeatmapData sample() {
    HeatmapData d;
    d.source_tokens = {"<sos>", "w1", "w2", "w3", "<eos>"};
    d.target_tokens = {"t0", "t1", "t2", "<eos>"};
    d.weights = {{0, 1, 0, 0, 0}, {0, 0.9f, 0.1f, 0, 0}, {0, 0.8f, 0.2f, 0, 0}, {0.2f, 0.2f, 0.2f, 0.2f, 0.2f}};
    return d;
}

std::vector<AlignmentMark> goldMarks() {
    return {{0, 1, AlignmentCellKind::Correct}, {1, 1, AlignmentCellKind::False}, {1, 2, AlignmentCellKind::Missed}};
}

QStringList texts(const std::vector<LegendEntry>& entries) {
    QStringList t;
    for (const LegendEntry& e : entries) t << e.text;
    return t;
}

// How many pixels of `image` inside `area` are within a few levels of `color`.
int pixelsOf(const QImage& image, const QRect& area, const QColor& color) {
    int n = 0;
    for (int y = area.top(); y <= area.bottom(); ++y)
        for (int x = area.left(); x <= area.right(); ++x) {
            const QColor c = image.pixelColor(x, y);
            if (std::abs(c.red() - color.red()) + std::abs(c.green() - color.green()) +
                    std::abs(c.blue() - color.blue()) <=
                12)
                ++n;
        }
    return n;
}

}  // namespace

class TestHeatmapLegend : public QObject {
    Q_OBJECT

private slots:
    void entriesFollowWhatIsDrawn();
    void windowStripLiesUnderThePlot();
    void exportDrawsTheLegendInsideThePicture();
    void vectorExportWritesTheLegendAsText();
    void legendSpeaksChinese();
};

// No legend for a plain heatmap; the coverage and entropy groups with diagnostics, the gold group with marks, with
// the engine's thresholds in the texts.
void TestHeatmapLegend::entriesFollowWhatIsDrawn() {
    HeatmapStyle style;
    QVERIFY(heatmapLegendEntries(style).empty());
    style.diagnostics = true;
    QStringList t = texts(heatmapLegendEntries(style));
    QCOMPARE(t.size(), 7);
    QCOMPARE(t[0], QStringLiteral("coverage:"));
    QCOMPARE(t[1], QStringLiteral("below %1, neglected").arg(kNeglectedBelow));
    QCOMPARE(t[2], QStringLiteral("above %1, over-attended").arg(1 + kOverBy));
    QCOMPARE(t[4], QStringLiteral("H / ln S (row entropy):"));
    QCOMPARE(t[6], QStringLiteral("from %1, diffuse (dashed line)").arg(kDiffuseShare));
    QVERIFY(!t.contains(QStringLiteral("gold links:")));
    style.alignment_marks = goldMarks();
    t = texts(heatmapLegendEntries(style));
    QCOMPARE(t.mid(7), (QStringList{"gold links:", "correct", "false", "missed"}));
    style.diagnostics = false;
    const std::vector<LegendEntry> gold = heatmapLegendEntries(style);
    QCOMPARE(texts(gold), (QStringList{"gold links:", "correct", "false", "missed"}));
    QVERIFY(gold[1].swatch == LegendSwatch::GoldCorrect);
    QVERIFY(gold[3].swatch == LegendSwatch::GoldMissed);
}

// The window's strip: shown while coverage or gold marks are drawn, at any height, under the plot (none of its room,
// clear of every label), each entry inside the strip, wrapping onto more lines in a narrow view, or one line with
// every entry in its tooltip (a short window).
void TestHeatmapLegend::windowStripLiesUnderThePlot() {
    HeatmapView view;
    view.resize(900, 500);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setData(sample());
    QVERIFY(view.legend()->isHidden());
    HeatmapStyle style;
    style.diagnostics = true;
    style.alignment_marks = goldMarks();
    view.setStyle(style);
    QCoreApplication::processEvents();
    QVERIFY(view.legend()->isVisible());
    QCOMPARE(view.legend()->entries(), heatmapLegendEntries(style));
    const QRect strip = view.legend()->geometry();
    const QRect plot = view.plot()->geometry();
    QVERIFY2(strip.top() >= plot.bottom(),
             qPrintable(QStringLiteral("strip at %1, plot to %2").arg(strip.top()).arg(plot.bottom())));
    QVERIFY(view.rect().contains(strip));
    const int oneLine = strip.height();
    for (const QRectF& r : view.legend()->entryRects())
        QVERIFY2(QRectF(view.legend()->rect()).contains(r), qPrintable(QStringLiteral("%1,%2").arg(r.x()).arg(r.y())));
    view.resize(300, 500);
    QCoreApplication::processEvents();
    QVERIFY2(view.legend()->height() > oneLine,
             qPrintable(QStringLiteral("%1 -> %2").arg(oneLine).arg(view.legend()->height())));
    for (const QRectF& r : view.legend()->entryRects())
        QVERIFY2(QRectF(view.legend()->rect()).contains(r), qPrintable(QStringLiteral("%1,%2").arg(r.x()).arg(r.y())));
    // A short view keeps the legend (it used to vanish there, issue 44): the rows the window keeps are counted with
    // it (heightForRows), and a short window has it take one line, every entry in its tooltip.
    view.resize(900, 500);
    QTest::qWait(50);                                                   // the strip's lines and the plot at this width
    view.resize(900, view.heightForRows(4) - view.legend()->height());  // 4 rows, no room for the legend
    QCoreApplication::processEvents();
    QVERIFY(view.legend()->isVisible());
    view.resize(300, 500);
    view.legend()->setOneLine(true);
    QCoreApplication::processEvents();
    QVERIFY2(view.legend()->height() <= oneLine, qPrintable(QString::number(view.legend()->height())));
    for (const QRectF& r : view.legend()->entryRects()) QCOMPARE(r.top(), view.legend()->entryRects().front().top());
    for (const LegendEntry& e : view.legend()->entries()) QVERIFY(view.legend()->toolTip().contains(e.text));
    view.legend()->setOneLine(false);
    style.diagnostics = false;
    style.alignment_marks.clear();
    view.setStyle(style);
    QVERIFY(view.legend()->isHidden());
}

// A PNG of a heatmap with coverage and gold marks: the legend inside the picture, under the plot's labels, drawn
// with the coverage colours and the three marks' colours; without them, no legend and the plot has the whole height.
void TestHeatmapLegend::exportDrawsTheLegendInsideThePicture() {
    HeatmapStyle style;
    style.diagnostics = true;
    style.alignment_marks = goldMarks();
    const QSize pixels(1000, 700);
    HeatmapRenderer renderer(sample(), style);
    const QImage image = renderer.toImage(pixels, 96);
    const QRectF legend = renderer.legendRect();
    QVERIFY(!legend.isEmpty());
    QVERIFY2(
        QRectF(image.rect()).contains(legend),
        qPrintable(
            QStringLiteral("%1,%2 %3x%4").arg(legend.x()).arg(legend.y()).arg(legend.width()).arg(legend.height())));
    QVERIFY(legend.top() >= renderer.plot()->height() - 0.5);  // under the plot: its labels and coverage row
    const QRect band = legend.toAlignedRect().intersected(image.rect());
    for (AlignmentCellKind kind : {AlignmentCellKind::Correct, AlignmentCellKind::False, AlignmentCellKind::Missed})
        QVERIFY2(pixelsOf(image, band, alignmentMarkColor(kind)) > 4, qPrintable(alignmentMarkColor(kind).name()));
    for (CoverageMark mark : {CoverageMark::Neglected, CoverageMark::OverAttended})
        QVERIFY(pixelsOf(image, band, coverageMarkColor(mark, Qt::gray)) > 4);
    QVERIFY(pixelsOf(image, band, diffuseRowColor()) > 4);

    HeatmapRenderer plain(sample(), HeatmapStyle{});
    plain.toImage(pixels, 96);
    QVERIFY(plain.legendRect().isEmpty());
    QCOMPARE(plain.plot()->height(), pixels.height());
}

// SVG keeps text as text: the legend's words are in the file.
void TestHeatmapLegend::vectorExportWritesTheLegendAsText() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("legend.svg"));
    ExportOptions options;
    options.width = 1200;
    options.height = 800;
    options.style.diagnostics = true;
    options.style.alignment_marks = goldMarks();
    QString error;
    QVERIFY2(exportHeatmap(sample(), DecodeResult{}, ModelConfig{}, path, options, &error), qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString svg = QString::fromUtf8(file.readAll());
    for (const char* word : {"over-attended", "neglected", "diffuse", "correct", "missed"})
        QVERIFY2(svg.contains(QLatin1String(word)), word);
}

// In Chinese: every entry translated (the gold group says 正确 / 错误 / 遗漏 as the gold links' line does).
void TestHeatmapLegend::legendSpeaksChinese() {
    Q_INIT_RESOURCE(attnviz);
    QVERIFY(setLanguage(QStringLiteral("zh_CN")));
    HeatmapStyle style;
    style.diagnostics = true;
    style.alignment_marks = goldMarks();
    const QStringList zh = texts(heatmapLegendEntries(style));
    setLanguage(QStringLiteral("en"));
    const QStringList en = texts(heatmapLegendEntries(style));
    QCOMPARE(zh.size(), en.size());
    for (int i = 0; i < zh.size(); ++i) {
        QVERIFY2(zh[i] != en[i], qPrintable(en[i]));
        const bool han = std::any_of(zh[i].begin(), zh[i].end(), [](QChar c) { return c.unicode() >= 0x4e00; });
        QVERIFY2(han, qPrintable(zh[i]));
    }
}

ATTNVIZ_TEST_MAIN(TestHeatmapLegend)
#include "test_heatmap_legend.moc"
