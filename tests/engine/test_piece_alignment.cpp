// Gold word links against a SentencePiece model's forced decode (core/eval/alignment.h, WordAxes): the pieces merged
// into words (columns summed, rows averaged), no <sos> column, the </s> column and row not words; a method's matrix
// merged the same way; a decode whose words are not the text's refused; AOPC's and Spearman's word positions start at
// the first piece. Every expected link and AER is worked out
// by hand in the comments.
#include "error_of.h"
#include "eval/alignment.h"
#include "eval/metrics.h"
#include "explain/measures.h"
#include "explain/word_explanation.h"
#include "test_registry.h"

#include <QtTest>

#include <cmath>

using namespace attnviz;

namespace {

using PieceLinks = std::vector<AlignmentLink>;

constexpr int kPieceEos = 0;  // a Marian vocabulary's </s>

// Source pieces ▁the ▁ti ger ▁sleeps </s> (words: the [0,1), tiger [1,3), sleeps [3,4), </s> [4,5)); target pieces
// ▁老 虎 ▁睡觉 </s> (words: 老虎 [0,2), 睡觉 [2,3), </s> [3,4)). Rows (columns ▁the ▁ti ger ▁sleeps </s>):
//   ▁老   .05 .30 .30 .25 .10   merged columns: the .05  tiger .60  sleeps .25  </s> .10
//   虎    .40 .10 .10 .30 .10   merged columns: the .40  tiger .20  sleeps .30  </s> .10
//   ▁睡觉 .10 .05 .05 .70 .10   merged columns: the .10  tiger .10  sleeps .70  </s> .10
//   </s>  .10 .10 .10 .10 .60
// Merged rows: 老虎 = the .225 tiger .40 sleeps .275 </s> .10; 睡觉 = .10 .10 .70 .10; </s> = .10 .20 .10 .60.
// Read as a word model's (a <sos> at column 0, the pieces as words) the same rows would give other links.
DecodeResult marianForced() {
    DecodeResult r;
    r.source_tokens = {"▁the", "▁ti", "ger", "▁sleeps", "</s>"};
    r.source_ids = {5, 6, 7, 8, kPieceEos};
    r.target_tokens = {"▁老", "虎", "▁睡觉", "</s>"};
    r.target_ids = {9, 10, 11, kPieceEos};
    r.attention = {{0.05f, 0.30f, 0.30f, 0.25f, 0.10f},
                   {0.40f, 0.10f, 0.10f, 0.30f, 0.10f},
                   {0.10f, 0.05f, 0.05f, 0.70f, 0.10f},
                   {0.10f, 0.10f, 0.10f, 0.10f, 0.60f}};
    r.source_words = {{0, 1}, {1, 3}, {3, 4}, {4, 5}};
    r.target_words = {{0, 2}, {2, 3}, {3, 4}};
    r.log_probs.assign(4, -1.0f);
    return r;
}

AlignOptions piecesMerged(AlignMode mode = AlignMode::Argmax, bool include_specials = false) {
    AlignOptions o;
    o.mode = mode;
    o.include_specials = include_specials;
    o.words = WordAxes{MergeSides::Both, 0, kPieceEos};
    return o;
}

}  // namespace

class TestPieceAlignment : public QObject {
    Q_OBJECT
private slots:
    void mergedArgmaxNamesTheTextsWords() {
        // 老虎 → tiger (.40), 睡觉 → sleeps (.70); the </s> row is no word.
        QCOMPARE(extractAlignment(marianForced(), piecesMerged()), (PieceLinks{{1, 0}, {2, 1}}));
        // Without merging, on a word model's axes: row ▁老's argmax over columns 1..3 is ▁ti (source word 0) and the
        // </s> row counts as a fourth target word: the numbers the old eval printed for these models.
        QCOMPARE(extractAlignment(marianForced(), AlignOptions{}), (PieceLinks{{0, 0}, {0, 3}, {2, 1}, {2, 2}}));
    }

    void mergedThresholdRenormalisesOverTheWords() {
        // 老虎's words sum to .90: the .25, tiger .444, sleeps .306 ≥ .3; 睡觉's: sleeps .778.
        QCOMPARE(extractAlignment(marianForced(), piecesMerged(AlignMode::Threshold)),
                 (PieceLinks{{1, 0}, {2, 0}, {2, 1}}));
        // Shift: 老虎 reads 睡觉's row (sleeps), 睡觉 the </s> row (tiger among the words; with specials: </s>).
        QCOMPARE(extractAlignment(marianForced(), piecesMerged(AlignMode::Shift)), (PieceLinks{{1, 1}, {2, 0}}));
        QCOMPARE(extractAlignment(marianForced(), piecesMerged(AlignMode::Shift, true)), (PieceLinks{{2, 0}}));
    }

    void aerOfTheMergedAttention() {
        // A = {tiger-老虎, sleeps-睡觉}, S = {the-老虎, tiger-老虎, sleeps-睡觉}: AER = 1 − 2·2 / (2 + 3) = 0.2.
        const GoldAlignment gold = parseAlignment("0-0 1-0 2-1");
        const DecodeResult f = marianForced();
        const EvalReport r = evalReport(evalExample(f, f.target_tokens, &f, &gold, piecesMerged()));
        QVERIFY(r.aer && std::abs(*r.aer - 0.2) < 1e-12);
        QVERIFY(std::abs(*r.alignment_recall - 2.0 / 3.0) < 1e-12);
    }

    void aMethodsMatrixIsMergedAsTheAttentionIs() {
        // Signed values: row ▁老 sums tiger to −.25 + .75 = .5 against the −.5 (alone it would say tiger); row 虎 puts
        // 1.5 on the and −.5 on sleeps; their mean (老虎): the .5 tiger .25 sleeps −.25, so the. Row ▁睡觉: sleeps.
        const Mat R = (Mat(4, 5) << -0.5f, -0.25f, 0.75f, 0.0f, 0.0f,  //
                       1.5f, 0.0f, 0.0f, -0.5f, 0.0f,                  //
                       0.0f, 0.0f, 0.0f, 1.0f, 0.0f,                   //
                       0.0f, 0.0f, 0.0f, 0.0f, 1.0f)
                          .finished();
        QCOMPARE(extractAlignment(marianForced(), R, piecesMerged()), (PieceLinks{{0, 0}, {2, 1}}));
        // mergeExplanation draws the same matrix: the words' cells, the rows averaged.
        Explanation e;
        e.values = R;
        const Mat merged = mergeExplanation(marianForced(), e, MergeSides::Both).values;
        QCOMPARE(merged.rows(), Eigen::Index(3));
        QCOMPARE(merged.cols(), Eigen::Index(4));
        QCOMPARE(merged(0, 0), 0.5f);
        QCOMPARE(merged(0, 1), 0.25f);
        QCOMPARE(merged(0, 2), -0.25f);
        QCOMPARE(merged(1, 2), 1.0f);
    }

    void wordCountsMustBeTheTexts() {
        const DecodeResult f = marianForced();
        checkWordCounts(f, piecesMerged().words, 3, 2);  // the tiger sleeps / 老虎 睡觉: no throw
        const QString e = attnviz::testing::errorOf([&] { checkWordCounts(f, piecesMerged().words, 4, 2); });
        QVERIFY2(e.contains("3 source and 2 target words where the text has 4 and 2"), qPrintable(e));
        QVERIFY2(e.contains("<unk>"), qPrintable(e));
        // Unmerged, the pieces are counted: 4 source pieces and 3 target pieces before the </s>.
        QVERIFY(!attnviz::testing::errorOf([&] {
                     checkWordCounts(f, WordAxes{MergeSides::None, 0, kPieceEos}, 3, 2);
                 }).isEmpty());
    }

    void aMarianSourceRanksFromItsFirstPiece() {
        // Pieces a b c and </s>: every piece is a word position, the </s> is not (a word model's <sos> would be 0).
        const Mat R = (Mat(1, 4) << 0.5f, 0.1f, 0.3f, 0.9f).finished();
        QCOMPARE(rankedWords(R, 0, 0), (std::vector<int>{0, 2, 1}));
        QCOMPARE(rankedWords(R, 0), (std::vector<int>{2, 1}));  // the word model's reading
        std::vector<int> order = randomOrders(1, 3, 7, 0).front();
        std::sort(order.begin(), order.end());
        QCOMPARE(order, (std::vector<int>{0, 1, 2}));
        const Mat b = (Mat(1, 4) << 3.f, 1.f, 2.f, 0.f).finished();  // the same order over the three pieces: ρ 1
        QCOMPARE(rowSpearman(R, b, 0).front(), 1.0);
    }
};

ATTNVIZ_TEST_MAIN(TestPieceAlignment)
#include "test_piece_alignment.moc"
