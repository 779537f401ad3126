// core/eval/alignment and the gold links of core/io/corpus: sure and possible Pharaoh links, the extraction modes on a
// hand-made attention matrix, AER / precision / recall with possible links and the window's cell classes, each
// against values worked out by hand in the comments.
#include "base/errors.h"
#include "eval/alignment.h"
#include "eval/metrics.h"
#include "model/vocab.h"
#include "test_registry.h"

#include <QtTest>

#include <cmath>

using namespace attnviz;

namespace {

using Links = std::vector<AlignmentLink>;

// Source <sos> a b c <eos> (S = 5); targets x y z <eos> (4 rows). Rows, with what each mode reads from them:
//   x: argmax a; words renormalised a .667 b .278 c .056
//   y: <sos> is the row's max; among the words c (.20); renormalised a .222 b .333 c .444; raw words all < 0.3
//   z: b and c tie at .40 (the lower, b, wins); renormalised b .4545 c .4545
//   <eos>: the <eos> column is the max; among the words c
DecodeResult handMadeDecode() {
    DecodeResult r;
    r.source_tokens = {"<sos>", "a", "b", "c", "<eos>"};
    r.source_ids = {kSos, 4, 5, 6, kEos};
    r.target_tokens = {"x", "y", "z", "<eos>"};
    r.target_ids = {7, 8, 9, kEos};
    r.attention = {{0.05f, 0.60f, 0.25f, 0.05f, 0.05f},
                   {0.50f, 0.10f, 0.15f, 0.20f, 0.05f},
                   {0.02f, 0.08f, 0.40f, 0.40f, 0.10f},
                   {0.05f, 0.05f, 0.05f, 0.15f, 0.70f}};
    r.log_probs.assign(4, -1.0f);
    return r;
}

AlignOptions mode(AlignMode m, bool include_specials, double threshold = 0.3) {
    AlignOptions o;
    o.mode = m;
    o.include_specials = include_specials;
    o.threshold = threshold;
    return o;
}

QString errorOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const InputError& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

}  // namespace

class TestAlignment : public QObject {
    Q_OBJECT
private slots:
    void parsesSureAndPossibleLinks();
    void badLinksAreNamed_data();
    void badLinksAreNamed();
    void rangeCheckNamesTheLink();
    void modesOnAHandMadeMatrix_data();
    void modesOnAHandMadeMatrix();
    void shiftWithoutEosLeavesTheLastWordUnlinked();
    void aerWithPossibleLinks();
    void sureOnlyIsTheOldFormula();
    void cellsAreClassified();
    void modeNames();
};

void TestAlignment::parsesSureAndPossibleLinks() {
    // 1?2 is also written sure (1-2): sure wins (S ⊆ P); duplicates go; order does not matter.
    const GoldAlignment g = parseAlignment("  2?2 0-0 1?2\t1-2 2?2 ");
    QCOMPARE(g.sure, (Links{{0, 0}, {1, 2}}));
    QCOMPARE(g.possible, (Links{{2, 2}}));
    QVERIFY(g.isSure({1, 2}) && g.isPossible({1, 2}));
    QVERIFY(!g.isSure({2, 2}) && g.isPossible({2, 2}));
    QVERIFY(!g.isPossible({2, 1}));
    QCOMPARE(g.all(), (Links{{0, 0}, {1, 2}, {2, 2}}));
    QCOMPARE(QString::fromStdString(pharaohText(g)), QStringLiteral("0-0 1-2 2?2"));
    QCOMPARE(parseAlignment(pharaohText(g)), g);
    QVERIFY(parseAlignment("   ").empty());
}

void TestAlignment::badLinksAreNamed_data() {
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("token");
    QTest::newRow("letters") << "0-0 1?x"
                             << "\"1?x\"";
    QTest::newRow("no second index") << "1?"
                                     << "\"1?\"";
    QTest::newRow("no first index") << "?1"
                                    << "\"?1\"";
    QTest::newRow("both separators") << "0-0 1-?2"
                                     << "\"1-?2\"";
    QTest::newRow("double dash") << "1--2"
                                 << "\"1--2\"";
    QTest::newRow("comma") << "0-1,1-2"
                           << "\"0-1,1-2\"";
    QTest::newRow("ten digits") << "1234567890-1"
                                << "\"1234567890-1\"";
}

void TestAlignment::badLinksAreNamed() {
    QFETCH(QString, field);
    QFETCH(QString, token);
    const QString e = errorOf([&] { parseAlignment(field.toStdString()); });
    QVERIFY2(e.startsWith("bad alignment link " + token), qPrintable(e));
    QVERIFY2(e.contains("i?j"), qPrintable(e));
}

void TestAlignment::rangeCheckNamesTheLink() {
    const GoldAlignment g = parseAlignment("0-0 1?3");
    checkAlignmentRange(g, 2, 4);  // fits: no throw
    QVERIFY2(errorOf([&] {
                 checkAlignmentRange(g, 2, 3);
             }).startsWith("alignment link 1?3: target word 3 does not exist (the target has 3 words"),
             qPrintable(errorOf([&] { checkAlignmentRange(g, 2, 3); })));
    QVERIFY(errorOf([&] { checkAlignmentRange(g, 1, 4); }).startsWith("alignment link 1?3: source word 1"));
}

void TestAlignment::modesOnAHandMadeMatrix_data() {
    QTest::addColumn<int>("mode");
    QTest::addColumn<bool>("include");
    QTest::addColumn<double>("threshold");
    QTest::addColumn<Links>("want");
    const int argmax = int(AlignMode::Argmax), threshold = int(AlignMode::Threshold), shift = int(AlignMode::Shift);
    // Argmax over the words: x→a, y→c, z→b (tie). With specials: y's max is <sos>, so y has no link.
    QTest::newRow("argmax, specials excluded") << argmax << false << 0.3 << Links{{0, 0}, {1, 2}, {2, 1}};
    QTest::newRow("argmax, specials included") << argmax << true << 0.3 << Links{{0, 0}, {1, 2}};
    // Renormalised words ≥ 0.3: x {a}, y {b .333, c .444}, z {b, c}. Raw ≥ 0.3: x {a}, y {}, z {b, c}.
    QTest::newRow("threshold 0.3, excluded")
        << threshold << false << 0.3 << Links{{0, 0}, {1, 1}, {1, 2}, {2, 1}, {2, 2}};
    QTest::newRow("threshold 0.3, included") << threshold << true << 0.3 << Links{{0, 0}, {1, 2}, {2, 2}};
    QTest::newRow("threshold 0.5, excluded") << threshold << false << 0.5 << Links{{0, 0}};
    // Shift: x reads y's row (c; with specials <sos>: none), y reads z's row (b), z reads the <eos> row (c; with
    // specials <eos>: none).
    QTest::newRow("shift, excluded") << shift << false << 0.3 << Links{{1, 1}, {2, 0}, {2, 2}};
    QTest::newRow("shift, included") << shift << true << 0.3 << Links{{1, 1}};
}

void TestAlignment::modesOnAHandMadeMatrix() {
    QFETCH(int, mode);
    QFETCH(bool, include);
    QFETCH(double, threshold);
    QFETCH(Links, want);
    QCOMPARE(extractAlignment(handMadeDecode(), ::mode(AlignMode(mode), include, threshold)), want);
}

void TestAlignment::shiftWithoutEosLeavesTheLastWordUnlinked() {
    // An output cut at the length limit: no <eos> row, so every row is a word and the last one has no next row.
    DecodeResult r = handMadeDecode();
    r.target_ids.back() = 10;
    r.target_tokens.back() = "w";
    QCOMPARE(extractAlignment(r, mode(AlignMode::Shift, false)), (Links{{1, 1}, {2, 0}, {2, 2}}));
    QCOMPARE(extractAlignment(r, mode(AlignMode::Argmax, false)), (Links{{0, 0}, {1, 2}, {2, 1}, {2, 3}}));
    QCOMPARE(attentionAlignment(handMadeDecode()), extractAlignment(handMadeDecode(), AlignOptions{}));
}

void TestAlignment::aerWithPossibleLinks() {
    // S = {0-0, 1-2}, P = S ∪ {2-1, 2-2}.
    const GoldAlignment g = parseAlignment("0-0 1-2 2?1 2?2");
    struct Case {
        Links a;
        int64_t a_s, a_p;
        double aer, precision, recall;
    };
    const Case cases[] = {
        // A = {0-0, 1-2, 2-1}: |A∩S| 2, |A∩P| 3: AER 1 - 5/5 = 0, P 3/3, R 2/2.
        {{{0, 0}, {1, 2}, {2, 1}}, 2, 3, 0.0, 1.0, 1.0},
        // A = {0-0, 1-1, 1-2, 2-1, 2-2}: 2 and 4: AER 1 - 6/7, P 4/5, R 1.
        {{{0, 0}, {1, 1}, {1, 2}, {2, 1}, {2, 2}}, 2, 4, 1.0 / 7.0, 0.8, 1.0},
        // A = {1-1, 2-0, 2-2}: 0 and 1: AER 1 - 1/5, P 1/3, R 0.
        {{{1, 1}, {2, 0}, {2, 2}}, 0, 1, 0.8, 1.0 / 3.0, 0.0},
    };
    for (const Case& c : cases) {
        const AerCounts n = aerCounts(c.a, g);
        QCOMPARE(n.predicted, int64_t(c.a.size()));
        QCOMPARE(n.gold, int64_t(2));
        QCOMPARE(n.possible, int64_t(4));
        QCOMPARE(n.overlap, c.a_s);
        QCOMPARE(n.overlap_possible, c.a_p);
        QVERIFY(std::abs(n.aer() - c.aer) < 1e-12);
        QVERIFY(std::abs(n.precision() - c.precision) < 1e-12);
        QVERIFY(std::abs(n.recall() - c.recall) < 1e-12);
    }
    // Summed over sentences, then the ratio: 1 - (2+0 + 3+1) / (3+3 + 2+2) = 0.4.
    AerCounts total = aerCounts(cases[0].a, g);
    total += aerCounts(cases[2].a, g);
    QVERIFY(std::abs(total.aer() - 0.4) < 1e-12);
    // Nothing predicted, nothing sure: no division by zero.
    QCOMPARE(aerCounts({}, GoldAlignment{}).aer(), 0.0);
    QCOMPARE(aerCounts({}, g).precision(), 0.0);
}

void TestAlignment::sureOnlyIsTheOldFormula() {
    // All links sure: AER = 1 - 2|A∩G| / (|A| + |G|). A = argmax {0-0, 1-2, 2-1}, G = {0-0, 2-1, 2-2}: 1 - 4/6.
    const GoldAlignment g = parseAlignment("0-0 2-1 2-2");
    const DecodeResult f = handMadeDecode();
    const EvalReport r = evalReport(evalExample(f, f.target_tokens, &f, &g));
    QVERIFY(r.aer && std::abs(*r.aer - 1.0 / 3.0) < 1e-12);
    QVERIFY(std::abs(*r.alignment_precision - 2.0 / 3.0) < 1e-12);
    QVERIFY(std::abs(*r.alignment_recall - 2.0 / 3.0) < 1e-12);
    // The mode given to evalExample is the one counted: shift {1-1, 2-0, 2-2} against G: 1 - 2/6.
    const EvalReport s = evalReport(evalExample(f, f.target_tokens, &f, &g, mode(AlignMode::Shift, false)));
    QVERIFY(std::abs(*s.aer - 2.0 / 3.0) < 1e-12);
}

void TestAlignment::cellsAreClassified() {
    // Shift's links against S = {0-0, 1-2}, P = S ∪ {2-1, 2-2}: 0-0 missed, 1-1 false, 1-2 missed, 2-0 false,
    // 2-2 correct (possible); 2-1 is possible and not predicted: no mark.
    const GoldAlignment g = parseAlignment("0-0 1-2 2?1 2?2");
    const std::vector<AlignmentCell> want = {{{0, 0}, AlignmentCellKind::Missed},
                                             {{1, 1}, AlignmentCellKind::False},
                                             {{1, 2}, AlignmentCellKind::Missed},
                                             {{2, 0}, AlignmentCellKind::False},
                                             {{2, 2}, AlignmentCellKind::Correct}};
    QVERIFY(classifyAlignment(extractAlignment(handMadeDecode(), mode(AlignMode::Shift, false)), g) == want);
}

void TestAlignment::modeNames() {
    AlignOptions o;
    o.include_specials = true;
    parseAlignMode("threshold:0.25", o);
    QCOMPARE(int(o.mode), int(AlignMode::Threshold));
    QCOMPARE(o.threshold, 0.25);
    QVERIFY(o.include_specials);  // kept
    QCOMPARE(QString::fromStdString(alignModeName(o)), QStringLiteral("threshold:0.25"));
    parseAlignMode("threshold", o);
    QCOMPARE(o.threshold, kDefaultAlignThreshold);
    parseAlignMode("shift", o);
    QCOMPARE(QString::fromStdString(alignModeName(o)), QStringLiteral("shift"));
    for (const char* bad : {"threshold:0", "threshold:1.5", "threshold:", "threshold:x", "Argmax", "threshold:0.3x"}) {
        const QString e = errorOf([&] { parseAlignMode(bad, o); });
        QVERIFY2(!e.isEmpty(), bad);
        QVERIFY2(e.contains("expected argmax"), qPrintable(e));
    }
    QCOMPARE(int(allAlignModes(0.4, true).size()), 3);
}

ATTNVIZ_TEST_MAIN(TestAlignment)
#include "test_alignment.moc"
