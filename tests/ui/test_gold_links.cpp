// The window's gold links (views/gold_links_panel): typed and loaded Pharaoh links with sure and possible links, the
// heatmap's correct / false / missed marks (also in the exported image) and the AER, precision and recall label, each
// against core's eval/alignment.h on the decode shown; bad and out-of-range links refused with the reason shown.
#include "eval/alignment.h"
#include "heatmap/alignment_marks.h"
#include "heatmap/heatmap_export.h"
#include "main_window_fixture.h"
#include "state/decode_state.h"
#include "test_files.h"
#include "test_registry.h"
#include "views/gold_links_panel.h"

#include <QComboBox>
#include <QLineEdit>
#include <QtTest>

using namespace attnviz;
using namespace attnviz::testing;
using namespace attnviz::ui;

namespace {

int pixelsOf(const QImage& image, const QColor& color) {
    int n = 0;
    const QRgb want = color.rgb();
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) n += (image.pixel(x, y) | 0xff000000) == want ? 1 : 0;
    return n;
}

}  // namespace

class TestGoldLinks : public QObject, MainWindowFixture {
    Q_OBJECT
private slots:
    void initTestCase() { setUpWindowTests(QStringLiteral("attnviz-test-gold-links")); }
    void init();
    void cleanup() { closeWindow(); }

    void typedLinksMarkTheCellsAndGiveTheEnginesNumbers();
    void modesChangeTheMarks();
    void badLinksAreRefused();
    void linksLoadFromAFile();

private:
    GoldLinksPanel* panel() const { return w_->goldLinks(); }
    // The engine's view of the decode shown under the panel's options.
    std::vector<AlignmentLink> enginePredicted() const {
        return extractAlignment(w_->state()->decode()->result, panel()->alignOptions());
    }
    void checkAgainstEngine();
    QTemporaryDir dir_;
};

void TestGoldLinks::init() {
    openWindow();
    w_->setReferenceText(kAppleReference);
    QVERIFY(typeAndWait(kAppleSource));
    const DecodeResult& r = w_->state()->decode()->result;
    QCOMPARE(int(r.target_tokens.size()), 7);  // the six reference words and <eos>: forced on the reference
}

// The panel's counts, label and the heatmap's marks are the engine's for the decode shown.
void TestGoldLinks::checkAgainstEngine() {
    const GoldAlignment gold = parseAlignment(panel()->links().toStdString());
    const std::vector<AlignmentLink> predicted = enginePredicted();
    const AerCounts want = aerCounts(predicted, gold);
    QVERIFY(panel()->counts().has_value());
    const AerCounts& got = *panel()->counts();
    QCOMPARE(got.predicted, want.predicted);
    QCOMPARE(got.overlap, want.overlap);
    QCOMPARE(got.overlap_possible, want.overlap_possible);
    QCOMPARE(got.gold, int64_t(gold.sure.size()));
    const QString label = panel()->resultText();
    for (double v : {want.aer(), want.precision(), want.recall()})
        QVERIFY2(label.contains(QString::number(v, 'f', 3)), qPrintable(label));

    std::vector<AlignmentMark> marks;
    for (const AlignmentCell& c : classifyAlignment(predicted, gold))
        marks.push_back({c.link.second, c.link.first + 1, c.kind});
    QVERIFY(!marks.empty());
    QVERIFY(w_->heatmapView()->style().alignment_marks == marks);
    QVERIFY(w_->exportOptions().style.alignment_marks == marks);
}

void TestGoldLinks::typedLinksMarkTheCellsAndGiveTheEnginesNumbers() {
    QVERIFY(w_->heatmapView()->style().alignment_marks.empty());
    panel()->linksEdit()->setFocus();
    QTest::keyClicks(panel()->linksEdit(), kAppleLinks);
    QVERIFY2(panel()->problem().isEmpty(), qPrintable(panel()->problem()));
    checkAgainstEngine();

    // Every kind present is drawn by the renderer the exports use, in its own colour; without marks none is.
    ExportOptions options = w_->exportOptions();
    options.width = 900;
    options.height = 700;
    const QImage with = renderHeatmapImage(w_->heatmapView()->data(), options);
    options.style.alignment_marks.clear();
    const QImage without = renderHeatmapImage(w_->heatmapView()->data(), options);
    for (const AlignmentMark& m : w_->heatmapView()->style().alignment_marks) {
        const QColor color = alignmentMarkColor(m.kind);
        QVERIFY2(pixelsOf(with, color) > 20, qPrintable(color.name()));
        QCOMPARE(pixelsOf(without, color), 0);
    }

    // A "what if" token leaves the reference: no marks, and the label says why.
    w_->setCursorStep(1);
    int other = -1;  // a candidate other than the reference's first word
    for (const Candidate& c : w_->state()->decode()->steps[0].top_k)
        if (other < 0 && c.id != w_->state()->decode()->result.target_ids[0]) other = c.id;
    QVERIFY(other >= 0);
    QSignalSpy spy(w_.get(), &MainWindow::decodeFinished);
    w_->forceCandidate(other);
    QVERIFY(waitDecode(spy));
    QVERIFY(w_->heatmapView()->style().alignment_marks.empty());
    QVERIFY(!panel()->counts());
    QVERIFY2(panel()->resultText().contains(QStringLiteral("forced")), qPrintable(panel()->resultText()));
}

void TestGoldLinks::modesChangeTheMarks() {
    panel()->setLinks(kAppleLinks);
    checkAgainstEngine();
    panel()->modeBox()->setCurrentIndex(panel()->modeBox()->findData(int(AlignMode::Shift)));
    QCOMPARE(int(panel()->alignOptions().mode), int(AlignMode::Shift));
    checkAgainstEngine();
    AlignOptions threshold;
    threshold.mode = AlignMode::Threshold;
    threshold.threshold = 0.1;
    threshold.include_specials = true;
    panel()->setAlignOptions(threshold);
    QVERIFY(panel()->alignOptions() == threshold);
    checkAgainstEngine();
}

void TestGoldLinks::badLinksAreRefused() {
    panel()->linksEdit()->setFocus();
    QTest::keyClicks(panel()->linksEdit(), QStringLiteral("0-0 1-x"));
    QVERIFY2(panel()->problem().contains(QStringLiteral("\"1-x\"")), qPrintable(panel()->problem()));
    QCOMPARE(panel()->resultText(), panel()->problem());
    QVERIFY(!panel()->counts());
    QVERIFY(w_->heatmapView()->style().alignment_marks.empty());

    // Past the sentence: the source has 5 words, the reference 6.
    QVERIFY(panel()->setLinks(QStringLiteral("0-0 5?1")).contains(QStringLiteral("5?1: source word 5 does not exist")));
    QVERIFY(panel()->setLinks(QStringLiteral("0-6")).contains(QStringLiteral("target word 6 does not exist")));
    QVERIFY(w_->heatmapView()->style().alignment_marks.empty());
    // Fixed: the marks come back.
    QVERIFY(panel()->setLinks(QStringLiteral("0-0 4-5")).isEmpty());
    checkAgainstEngine();
}

void TestGoldLinks::linksLoadFromAFile() {
    QVERIFY(dir_.isValid());
    const QString path = dir_.filePath(QStringLiteral("links.txt"));
    writeFile(path, "\n  \n" + kAppleLinks.toUtf8() + "\nignored 9-9\n");
    QVERIFY(panel()->loadLinks(path));
    QCOMPARE(panel()->links(), kAppleLinks);
    checkAgainstEngine();
    QVERIFY(!panel()->loadLinks(dir_.filePath(QStringLiteral("missing.txt"))));
    QVERIFY2(panel()->resultText().contains(QStringLiteral("missing.txt")), qPrintable(panel()->resultText()));
}

ATTNVIZ_TEST_MAIN(TestGoldLinks)
#include "test_gold_links.moc"
