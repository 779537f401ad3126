// Splitting large matrix-vector products between two threads (kernels/row_split.h): every row computed once, the
// same numbers as one thread, and a decode on a model whose fc_out is large enough to be split agrees with the
// double-precision reference and with the unsplit decode.
#include "decode/decoding.h"
#include "decode/on_path.h"
#include "fast/token_tables.h"
#include "kernels/row_split.h"
#include "reference_model.h"
#include "test_models.h"
#include "test_registry.h"
#include "text/tokenizer.h"
#include "two_cores.h"

#include <QtTest>
#include <cmath>
#include <string>

using namespace attnviz;
using namespace attnviz::testing;

namespace {

constexpr std::int64_t kLarge = std::int64_t(64) << 20;  // bytes: always above the split threshold

}  // namespace

class TestRowSplit : public QObject {
    Q_OBJECT

private slots:
    void everyRowOnce_data();
    void everyRowOnce();
    void gemvMatchesDoubleAndUnsplit();
    void largeModelDecodeMatchesReference_data();
    void largeModelDecodeMatchesReference();
};

void TestRowSplit::everyRowOnce_data() {
    QTest::addColumn<int>("rows");
    for (int rows : {0, 1, 31, 32, 33, 47, 1000, 4097}) QTest::addRow("%d", rows) << rows;
}

void TestRowSplit::everyRowOnce() {
    QFETCH(int, rows);
    std::vector<int> visits(size_t(rows), 0);
    int pieces = 0;
    std::mutex m;
    auto work = [&](Eigen::Index begin, Eigen::Index end) {
        QVERIFY(begin <= end);
        std::lock_guard lock(m);
        ++pieces;
        for (Eigen::Index i = begin; i < end; ++i) visits[size_t(i)] += 1;
    };
    for (int repeat = 0; repeat < 50; ++repeat) splitRows(rows, kLarge, work, &twoCores());  // the helper is reused
    for (int i = 0; i < rows; ++i) QCOMPARE(visits[size_t(i)], 50);
    // Below 32 rows one piece; from 32 on two (the second on the helper thread).
    QCOMPARE(pieces, (rows >= 32 ? 2 : 1) * 50);
}

void TestRowSplit::gemvMatchesDoubleAndUnsplit() {
    const int R = 3001, C = 517;  // 6.2 MB: split; odd sizes so no piece is a whole number of packets
    std::srand(7);
    const Mat W = Mat::Random(R, C);
    const Vec x = Vec::Random(C);
    Vec split(R), whole(R);
    splitGemv(W, x.data(), split.data(), &twoCores());
    splitGemv(W, x.data(), whole.data(), nullptr);
    const Eigen::VectorXd exact = W.cast<double>() * x.cast<double>();
    for (int i = 0; i < R; ++i) {
        QVERIFY2(std::abs(split[i] - exact[i]) <= 1e-4 * (1 + std::abs(exact[i])), qPrintable(QString::number(i)));
        QCOMPARE(split[i], whole[i]);  // the same row blocking: bit-identical
    }
}

void TestRowSplit::largeModelDecodeMatchesReference_data() {
    QTest::addColumn<int>("E");
    QTest::addColumn<int>("He");
    QTest::addColumn<int>("Hd");
    // fc_out (V, H_d + 2H_e + E) = (2004, 576) floats = 4.6 MB: split; the encoder's directions are not.
    QTest::addRow("E 64, H_e 128, H_d 256") << 64 << 128 << 256;
    // 10 MB, and each encoder direction reads 1.6 MB: the two directions run on the two cores.
    QTest::addRow("E 256, H_e 256, H_d 512") << 256 << 256 << 512;
}

// A model large enough for the two-core paths (split products; the bahdanau step with the context folded, S = 7
// being short enough for Auto) decodes as on one core, bit for bit, and as the double-precision reference.
void TestRowSplit::largeModelDecodeMatchesReference() {
    QFETCH(int, E);
    QFETCH(int, He);
    QFETCH(int, Hd);
    std::vector<std::string> words;
    for (int i = 0; i < 2000; ++i) words.push_back("w" + std::to_string(i));
    const Vocabulary vocab = vocabWith(words);
    ModelConfig cfg = smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive, SpanKind::Global, false, E, He, Hd);
    const auto shared = std::make_shared<const Model>(makeRandomModel(cfg, vocab, vocab, 5));
    const Model& model = *shared;
    QVERIFY(model.params.fc_out_w.size() * 4 > (std::int64_t(4) << 20));
    DecodeOptions opt;
    opt.max_len = 8;
    const TokenizedText sentence = tokenizeSource(model, "w1 w22 w333 w1999 w7");

    const DecodeResult split = detail::greedyDecode(model, sentence, opt, {Folding::Auto, nullptr, &twoCores()});
    const DecodeResult whole = detail::greedyDecode(model, sentence, opt, {Folding::Auto, nullptr, nullptr});
    QCOMPARE(split.target_ids, whole.target_ids);
    QCOMPARE(split.log_probs, whole.log_probs);
    QCOMPARE(split.attention, whole.attention);

    // With token tables on both cores: another sentence first keeps some rows, so this decode mixes kept rows with
    // rows computed in the output pass (job lists that change from step to step under one chunk cursor), then a
    // decode with every row kept. The same bits each time.
    TokenTables tables(model);
    const detail::StepPath with{Folding::Auto, &tables, &twoCores()};
    detail::greedyDecode(model, tokenizeSource(model, "w7 w333 w22 w5"), opt, with);
    const int kept_before = tables.kept(TokenTables::Output);
    for (int round = 0; round < 2; ++round) {
        const DecodeResult t = detail::greedyDecode(model, sentence, opt, with);
        QCOMPARE(t.target_ids, whole.target_ids);
        QCOMPARE(t.log_probs, whole.log_probs);
        QCOMPARE(t.attention, whole.attention);
    }
    QVERIFY(kept_before > 0 && tables.kept(TokenTables::Output) >= kept_before);

    // The public calls (the engine's own threads and the model's own tables), with and without a second core.
    for (bool parallel : {true, false}) {
        DecodeOptions o = opt;
        o.parallel_steps = parallel;
        const DecodeResult t = greedyDecode(model, sentence, o);
        QCOMPARE(t.target_ids, whole.target_ids);
        QCOMPARE(t.log_probs, whole.log_probs);
        QCOMPARE(t.attention, whole.attention);
    }

    const RefDecode ref = referenceGreedy(model, split.source_ids, opt.max_len);
    QCOMPARE(split.target_ids, ref.tokens);
    for (size_t t = 0; t < ref.steps.size(); ++t) {
        const double lp = ref.steps[t].log_probs[size_t(ref.tokens[t])];
        QVERIFY2(std::abs(split.log_probs[t] - lp) <= 1e-5 * (1 + std::abs(lp)), qPrintable(QString::number(t)));
        for (size_t j = 0; j < split.source_ids.size(); ++j)
            QVERIFY(std::abs(split.attention[t][j] - ref.steps[t].attention[j]) <= 1e-5);
    }
}

ATTNVIZ_TEST_MAIN(TestRowSplit)
#include "test_row_split.moc"
