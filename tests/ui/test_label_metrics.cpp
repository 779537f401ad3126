// The heatmap's layout passes measure each tick label once (heatmap/token_labels.h's LabelMetrics): a kept size is
// the size QFontMetrics gives for that font, those flags and that text, whichever were measured before it, also past
// the cache's bound; and a label plan made with kept sizes is the plan made by measuring anew.
#include "heatmap/token_labels.h"
#include "test_registry.h"

#include <QFontMetrics>
#include <QFontMetricsF>
#include <QTest>

using namespace attnviz::ui;

class TestLabelMetrics : public QObject {
    Q_OBJECT
private slots:
    void aKeptSizeIsTheFontsOwnForThatFontFlagsAndText();
    void aPlanWithKeptSizesIsThePlanMeasuredAnew();
    void sizesStayRightPastTheCachesBound();
};

namespace {

const QStringList kLabels{QStringLiteral("<sos>"),  QStringLiteral("love"),
                          QStringLiteral("我爱你"), QStringLiteral("Überraschungsparty…"),
                          QStringLiteral("."),      QString()};
constexpr int kFlags[] = {int(Qt::TextDontClip), int(Qt::TextDontClip | Qt::AlignHCenter)};

QFont fontOf(int px, bool bold) {
    QFont f;
    f.setPixelSize(px);
    f.setBold(bold);
    return f;
}

QRect directBox(const QFont& font, const QString& text, int flags) {
    return QFontMetrics(font).boundingRect(0, 0, 0, 0, flags, text);
}

}  // namespace

void TestLabelMetrics::aKeptSizeIsTheFontsOwnForThatFontFlagsAndText() {
    LabelMetrics m;
    const QFont small = fontOf(10, false), large = fontOf(21, true);
    QVERIFY(QFontMetricsF(small).horizontalAdvance(QStringLiteral("love")) !=
            QFontMetricsF(large).horizontalAdvance(QStringLiteral("love")));  // the fonts differ where it matters
    for (int round = 0; round < 2; ++round)                                   // measured, then kept
        for (const QFont& font : {small, large})
            for (const QString& text : kLabels) {
                QCOMPARE(m.advance(font, text), QFontMetricsF(font).horizontalAdvance(text));
                for (const int flags : kFlags) QCOMPARE(m.box(font, text, flags), directBox(font, text, flags));
            }
}

void TestLabelMetrics::aPlanWithKeptSizesIsThePlanMeasuredAnew() {
    LabelMetrics m;
    QStringList labels{QStringLiteral("<sos>")};
    for (int i = 0; i < 40; ++i) labels << QStringLiteral("word%1").arg(i);
    labels << QStringLiteral(".") << QStringLiteral("<eos>");
    for (const double slot : {4.0, 9.5, 18.0, 60.0, 9.5, 4.0})  // narrow (turned, some left out) to wide, and back
        for (const QFont& font : {fontOf(12, false), fontOf(16, false)}) {
            const AxisLabelPlan fresh = planHorizontalLabels(labels, font, slot);
            const AxisLabelPlan kept = planHorizontalLabels(labels, font, slot, &m);
            QCOMPARE(kept.rotation, fresh.rotation);
            QCOMPARE(kept.written, fresh.written);
        }
}

void TestLabelMetrics::sizesStayRightPastTheCachesBound() {
    LabelMetrics m;
    const QFont font = fontOf(13, false);
    for (int i = 0; i < 10000; ++i) m.advance(font, QString::number(i * 7919));
    for (int i = 0; i < 10000; i += 997) {
        const QString text = QString::number(i * 7919);
        QCOMPARE(m.advance(font, text), QFontMetricsF(font).horizontalAdvance(text));
        QCOMPARE(m.box(font, text, Qt::TextDontClip), directBox(font, text, Qt::TextDontClip));
    }
}

ATTNVIZ_TEST_MAIN(TestLabelMetrics)
#include "test_label_metrics.moc"
