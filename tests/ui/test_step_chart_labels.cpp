// The step panel's bar chart labels its bars by the heatmap's rules: for a long sentence (77 words) every label
// written lies inside the chart and clear of its neighbours, the <eos> after "." keeps its label, a very long token
// is elided instead of squashing the bars (its tooltip gives it whole), single characters stand upright.
#include "heatmap/token_labels.h"
#include "test_models.h"
#include "test_registry.h"
#include "window/step_panel.h"

#include <qcustomplot.h>
#include <QFontMetricsF>
#include <QTest>
#include <QToolTip>

#include <cmath>

using namespace attnviz;
using namespace attnviz::ui;

namespace {

// A step over `tokens` with attention rising along the sentence (sums to 1).
StepRecord stepOver(const QStringList& tokens) {
    StepRecord step;
    double sum = 0;
    for (int j = 0; j < tokens.size(); ++j) sum += j + 1;
    for (int j = 0; j < tokens.size(); ++j) step.attention.push_back(float((j + 1) / sum));
    step.token = 4;
    step.log_prob = -0.5f;
    return step;
}

QStringList sentence(int words) {
    QStringList t{QStringLiteral("<sos>")};
    for (int i = 0; i + 1 < words; ++i) t << QStringLiteral("word%1").arg(i);
    t << QStringLiteral(".") << QStringLiteral("<eos>");
    return t;
}

// Where a tick label is drawn, from the axis' own geometry: centred on its tick, below the axis rect after the
// outward tick and the label padding; turned -90°: one line wide and as high as the text is long.
QRectF labelRect(QCPAxis* axis, double key, const QString& text) {
    const QFontMetricsF fm(axis->tickLabelFont());
    const double x = axis->coordToPixel(key);
    const double top = axis->axisRect()->bottom() + axis->tickLengthOut() + axis->tickLabelPadding();
    const double w = fm.horizontalAdvance(text), h = fm.height();
    if (axis->tickLabelRotation() == 0) return QRectF(x - w / 2, top, w, h);
    return QRectF(x - h / 2, top, h, w);
}

class Panel {
public:
    explicit Panel(const QStringList& tokens, QSize size = QSize(340, 520)) : tokens_(tokens) {
        panel_.resize(size);
        panel_.show();
        exposed_ = QTest::qWaitForWindowExposed(&panel_);
        panel_.setStep(stepOver(tokens), 0, 1, tokens, testing::smallTargetVocab(), QStringLiteral("x"));
    }
    QCustomPlot* chart() { return panel_.barChart(); }
    QMap<double, QString> ticks() { return chart()->xAxis->ticker().dynamicCast<QCPAxisTickerText>()->ticks(); }
    StepPanel& panel() { return panel_; }
    bool exposed() const { return exposed_; }

private:
    QStringList tokens_;
    bool exposed_ = false;
    StepPanel panel_;
};

}  // namespace

class TestStepChartLabels : public QObject {
    Q_OBJECT

private slots:
    void longSentenceLabelsLieInsideAndApart_data();
    void longSentenceLabelsLieInsideAndApart();
    void longTokenIsElidedNotSquashingTheBars();
    void singleCharactersStandUpright();
    void aLabelIsLeftOutOnlyWhereItWouldOverlap_data();
    void aLabelIsLeftOutOnlyWhereItWouldOverlap();
};

void TestStepChartLabels::longSentenceLabelsLieInsideAndApart_data() {
    QTest::addColumn<int>("words");
    QTest::addColumn<int>("width");
    QTest::newRow("8 words, a wide panel: every bar labelled") << 8 << 600;
    QTest::newRow("8 words, the default panel") << 8 << 340;
    QTest::newRow("77 words, the default panel") << 77 << 340;
    QTest::newRow("77 words, a wide panel") << 77 << 1200;
}

void TestStepChartLabels::longSentenceLabelsLieInsideAndApart() {
    QFETCH(int, words);
    QFETCH(int, width);
    const QStringList tokens = sentence(words);
    Panel p(tokens, QSize(width, 520));
    QVERIFY(p.exposed());
    QCustomPlot* chart = p.chart();
    QTRY_VERIFY(!p.ticks().isEmpty());
    chart->replot();
    const auto ticks = p.ticks();
    QCOMPARE(ticks.lastKey(), double(tokens.size() - 1));
    QCOMPARE(ticks.last(), QStringLiteral("<eos>"));  // the <eos> after "." keeps its label
    if (words == 8 && width == 600) QCOMPARE(ticks.size(), tokens.size());
    QRectF previous;
    const QRectF inside = QRectF(chart->rect()).adjusted(-0.5, -0.5, 0.5, 0.5);
    for (auto it = ticks.cbegin(); it != ticks.cend(); ++it) {
        const int k = int(it.key());
        QCOMPARE(it.value(), tokenLabel(tokens[k], chart->xAxis->tickLabelFont()));  // the token's own label
        const QRectF r = labelRect(chart->xAxis, it.key(), it.value());
        QVERIFY2(inside.contains(r), qPrintable(QStringLiteral("%1 at %2,%3 %4x%5 outside %6x%7")
                                                    .arg(it.value())
                                                    .arg(r.x())
                                                    .arg(r.y())
                                                    .arg(r.width())
                                                    .arg(r.height())
                                                    .arg(chart->width())
                                                    .arg(chart->height())));
        QVERIFY2(previous.isNull() || r.left() >= previous.right(), qPrintable(it.value()));
        previous = r;
    }
}

void TestStepChartLabels::longTokenIsElidedNotSquashingTheBars() {
    QStringList tokens = sentence(6);
    const QString long_token = QStringLiteral("Donaudampfschifffahrtselektrizitätenhauptbetriebswerkbauunterbeamten");
    tokens[3] = long_token;
    Panel p(tokens);
    QCustomPlot* chart = p.chart();
    QTRY_VERIFY(!p.ticks().isEmpty());
    chart->replot();
    const QString label = p.ticks().value(3);
    QVERIFY2(label.endsWith(QChar(0x2026)) && label.size() < long_token.size(), qPrintable(label));
    QVERIFY2(chart->axisRect()->height() >= chart->height() / 2,
             qPrintable(QStringLiteral("%1 of %2").arg(chart->axisRect()->height()).arg(chart->height())));
    // The tooltip of the bar (or its label) gives the whole token.
    const QPoint bar(int(std::lround(chart->xAxis->coordToPixel(3))), chart->axisRect()->bottom() - 3);
    QTest::mouseMove(chart, bar);
    QTRY_VERIFY(QToolTip::isVisible());
    QVERIFY2(QToolTip::text().contains(long_token), qPrintable(QToolTip::text()));
}

void TestStepChartLabels::singleCharactersStandUpright() {
    QStringList tokens{QStringLiteral("<sos>")};
    for (QChar c : QStringLiteral("17 june 2020, march 3 2019 and later on")) tokens << QString(c);
    tokens << QStringLiteral("<eos>");
    Panel p(tokens, QSize(300, 520));
    QTRY_VERIFY(!p.ticks().isEmpty());
    QCOMPARE(p.chart()->xAxis->tickLabelRotation(), 0.0);
    QCOMPARE(p.ticks().last(), QStringLiteral("<eos>"));
}

// Where QCustomPlot draws a tick label along the axis: its text's bounding box (QCPAxisPainterPrivate measures it
// so), centred on the tick; turned -90°, the box's height lies along the axis.
QPair<double, double> extentAlongAxis(QCPAxis* axis, double key, const QString& text) {
    const QRect box =
        QFontMetrics(axis->tickLabelFont()).boundingRect(0, 0, 0, 0, Qt::TextDontClip | Qt::AlignHCenter, text);
    const double half = (axis->tickLabelRotation() == 0 ? box.width() : box.height()) / 2.0;
    const double x = axis->coordToPixel(key);
    return {x - half, x + half};
}

void TestStepChartLabels::aLabelIsLeftOutOnlyWhereItWouldOverlap_data() {
    QTest::addColumn<QStringList>("words");
    QTest::addColumn<int>("width");
    const QStringList han{"我们", "昨天", "晚上", "看见", "一个", "老朋友", "火车站", "附近", "的", "咖啡馆", "里面"};
    const QStringList latin{"yesterday", "evening", "friends", "station", "together", "summer", "garden", "teacher"};
    for (int width : {260, 300, 340, 420, 520}) {
        QTest::addRow("Chinese words, %d px", width) << han << width;
        QTest::addRow("English words, %d px", width) << latin << width;
    }
}

// Turned labels (Chinese words among them) are written wherever they fit: a label is left out only when, at its
// bar, its box would overlap the box of a label written beside it; the written ones overlap none.
void TestStepChartLabels::aLabelIsLeftOutOnlyWhereItWouldOverlap() {
    QFETCH(QStringList, words);
    QFETCH(int, width);
    QStringList tokens{QStringLiteral("<sos>")};
    for (int i = 0; i < 3; ++i) tokens << words;
    tokens << QStringLiteral("<eos>");
    Panel p(tokens, QSize(width, 520));
    QVERIFY(p.exposed());
    QTRY_VERIFY(!p.ticks().isEmpty());
    p.chart()->replot();
    QCPAxis* axis = p.chart()->xAxis;
    QCOMPARE(axis->tickLabelRotation(), -90.0);
    const auto ticks = p.ticks();
    QList<QPair<double, double>> written;
    for (auto it = ticks.cbegin(); it != ticks.cend(); ++it) written << extentAlongAxis(axis, it.key(), it.value());
    for (int i = 1; i < written.size(); ++i)
        QVERIFY2(written[i].first >= written[i - 1].second - 0.01,
                 qPrintable(QStringLiteral("labels %1 and %2 overlap").arg(ticks.keys()[i - 1]).arg(ticks.keys()[i])));
    for (int k = 0; k < tokens.size(); ++k) {
        if (ticks.contains(k)) continue;
        const auto box = extentAlongAxis(axis, k, tokenLabel(tokens[k], axis->tickLabelFont()));
        bool overlaps = false;
        for (const auto& w : written)
            overlaps = overlaps || (box.first < w.second - 0.01 && box.second > w.first + 0.01);
        QVERIFY2(overlaps, qPrintable(QStringLiteral("\"%1\" (bar %2) left out but has room").arg(tokens[k]).arg(k)));
    }
}

ATTNVIZ_TEST_MAIN(TestStepChartLabels)
#include "test_step_chart_labels.moc"
