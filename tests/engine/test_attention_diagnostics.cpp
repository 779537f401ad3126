// eval/attention_diagnostics.h against matrices worked out by hand: coverage and its marks, row entropy against ln S,
// the sentence penalties of docs/diagnostics.md; and on a real decode, coverage = the column sums of its rows.
#include "decode/decoding.h"
#include "eval/attention_diagnostics.h"
#include "test_models.h"
#include "test_registry.h"
#include "tolerance.h"

#include <QtTest>
#include <cmath>

using namespace attnviz;
using namespace attnviz::testing;

namespace {
// <sos> w1 w2 <eos>: step 1 looks at w1, step 2 everywhere alike, step 3 at w1 again.
const std::vector<std::vector<float>> kRows = {{0, 1, 0, 0}, {0.25f, 0.25f, 0.25f, 0.25f}, {0, 1, 0, 0}};
}  // namespace

class TestAttentionDiagnostics : public QObject {
    Q_OBJECT
private slots:
    void coverageSumsColumnsAndMarksWords();
    void rowEntropyAgainstUniform();
    void sentencePenaltiesByHand();
    void emptyAndUnattendedColumns();
    void coverageOfADecodeIsItsColumnSums();
};

void TestAttentionDiagnostics::coverageSumsColumnsAndMarksWords() {
    const SourceCoverage all = sourceCoverage(kRows);
    const double expected[4] = {0.25, 2.25, 0.25, 0.25};
    QCOMPARE(int(all.coverage.size()), 4);
    for (int j = 0; j < 4; ++j) QVERIFY(close(all.coverage[size_t(j)], expected[j], 1e-9));
    QCOMPARE(all.marks[0], CoverageMark::None);           // <sos> is never neglected
    QCOMPARE(all.marks[1], CoverageMark::OverAttended);   // 2.25 > 1 + 0.5
    QCOMPARE(all.marks[2], CoverageMark::Neglected);      // 0.25 < 0.5
    QCOMPARE(all.marks[3], CoverageMark::None);           // <eos> is never neglected
    const SourceCoverage two = sourceCoverage(kRows, 2);  // the first two rows only (stepping)
    QVERIFY(close(two.coverage[1], 1.25, 1e-9));
    QCOMPARE(two.marks[1], CoverageMark::None);  // 1.25 is within 1 ± 0.5
    QCOMPARE(two.marks[2], CoverageMark::Neglected);
}

void TestAttentionDiagnostics::rowEntropyAgainstUniform() {
    const RowDiagnosis sharp = diagnoseRow(kRows[0]);
    QCOMPARE(sharp.entropy, 0.0);
    QVERIFY(close(sharp.uniform, std::log(4.0), 1e-9));
    QVERIFY(!sharp.diffuse);
    const RowDiagnosis flat = diagnoseRow(kRows[1]);
    QVERIFY(close(flat.entropy, std::log(4.0), 1e-7));
    QVERIFY(close(flat.share, 1.0, 1e-7));
    QVERIFY(flat.diffuse);
    // Two of four positions alike: H = ln 2, half the uniform entropy: not diffuse.
    const RowDiagnosis half = diagnoseRow({0.5f, 0.5f, 0, 0});
    QVERIFY(close(half.share, 0.5, 1e-7));
    QVERIFY(!half.diffuse);
    // 0.8 ln 4 = 1.109 nats is the line: (0.1, 0.3, 0.3, 0.3) has H = 1.314 (diffuse), (0.05, 0.05, 0.45, 0.45) 1.018.
    QVERIFY(diagnoseRow({0.1f, 0.3f, 0.3f, 0.3f}).diffuse);
    QVERIFY(!diagnoseRow({0.05f, 0.05f, 0.45f, 0.45f}).diffuse);
    QVERIFY(!diagnoseRow({1.0f}).diffuse);  // one position: no choice, no diagnosis
}

void TestAttentionDiagnostics::sentencePenaltiesByHand() {
    const SentenceConfidence c = sentenceConfidence(kRows);
    // Words w1, w2 (J = 2) with coverage 2.25 and 0.25.
    const double cdp = -0.5 * (std::log(1 + 1.25 * 1.25) + std::log(1 + 0.75 * 0.75));
    const double ap_out = -(0 + std::log(4.0) + 0) / 3;
    const double q[3] = {1 / 2.25, 0.25 / 2.25, 1 / 2.25};  // w1's column over the rows, normalised
    double h1 = 0;
    for (double v : q) h1 -= v * std::log(v);
    const double ap_in = -(h1 + 0.0) / 2;  // w2 is attended by one row only: H = 0
    QVERIFY(close(c.coverage_deviation, cdp, 1e-7));
    QVERIFY(close(c.absentminded_out, ap_out, 1e-7));
    QVERIFY(close(c.absentminded_in, ap_in, 1e-7));
    QVERIFY(close(c.confidence, cdp + ap_out + ap_in, 1e-7));
    QVERIFY(close(c.gnmt_coverage, std::log(1.0) + std::log(0.25), 1e-7));
    QVERIFY(c.coverage_deviation < 0 && c.absentminded_out < 0 && c.absentminded_in < 0);
    // A perfect diagonal: every word covered once, every row sharp: every penalty 0.
    const SentenceConfidence best = sentenceConfidence({{0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}});
    QCOMPARE(best.coverage_deviation, 0.0);
    QCOMPARE(best.absentminded_out, 0.0);
    QCOMPARE(best.absentminded_in, 0.0);
    QCOMPARE(best.gnmt_coverage, 0.0);
}

void TestAttentionDiagnostics::emptyAndUnattendedColumns() {
    const SentenceConfidence none = sentenceConfidence({});
    QCOMPARE(none.confidence, 0.0);
    QVERIFY(sourceCoverage({}).coverage.empty());
    // w2 outside every window: coverage 0, GNMT's log takes the floor, AP_in skips the column.
    const SentenceConfidence c = sentenceConfidence({{0, 1, 0, 0}});
    QVERIFY(close(c.gnmt_coverage, std::log(kCoverageFloor), 1e-9));
    QCOMPARE(c.absentminded_in, 0.0);
    QVERIFY(close(c.coverage_deviation, -0.5 * std::log(2.0), 1e-9));
    QVERIFY(std::isfinite(c.confidence));
}

void TestAttentionDiagnostics::coverageOfADecodeIsItsColumnSums() {
    const Model model = smallModel(smallConfig(DecoderKind::Luong, ScoreKind::General, SpanKind::LocalM), 5, 3.0f);
    const DecodeResult r = greedyDecode(model, "the cat sat on the mat .");
    const SourceCoverage cov = sourceCoverage(r.attention);
    QCOMPARE(cov.coverage.size(), r.source_tokens.size());
    double total = 0;
    for (size_t j = 0; j < cov.coverage.size(); ++j) {
        double sum = 0;
        for (const auto& row : r.attention) sum += double(row[j]);
        QVERIFY(close(cov.coverage[j], sum, 1e-9));
        total += cov.coverage[j];
    }
    // local_m rows sum to 1 each (softmax over the window): the coverage adds up to the number of rows.
    QVERIFY(close(total, double(r.attention.size()), 1e-5));
}

ATTNVIZ_TEST_MAIN(TestAttentionDiagnostics)
#include "test_attention_diagnostics.moc"
