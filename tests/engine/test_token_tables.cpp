// The token tables (fast/token_tables.h): their rows are the products of the format's maths, decoders read them, and
// decoding gives the same bits with tables filled in advance, filled by the steps themselves, shared between
// threads, or none at all; the engine keeps one per model object for every decode of it.
#include "base/errors.h"
#include "decode/decoding.h"
#include "decode/on_path.h"
#include "fast/token_tables.h"
#include "nn/decoder.h"
#include "test_models.h"
#include "test_registry.h"
#include "tolerance.h"

#include <QtTest>
#include <atomic>
#include <cmath>
#include <set>
#include <thread>

using namespace attnviz;
using namespace attnviz::testing;

namespace {

// E = 53 (one double packet, one packet and a scalar tail with AVX-512), H_e = 16, H_d = 32.
std::shared_ptr<const Model> tableModel(ScoreKind score, uint64_t seed = 5) {
    Model m = smallModel(smallConfig(DecoderKind::Bahdanau, score, SpanKind::Global, false, 53, 16, 32), seed, 2.0f);
    m.params.fc_out_b[kEos] = -100.0f;  // every greedy run takes max_len steps
    return std::make_shared<const Model>(std::move(m));
}

TokenizedText sentence(const Model& m, std::initializer_list<const char*> words) {
    TokenizedText t;
    t.ids.push_back(kSos);
    for (const char* w : words) t.ids.push_back(m.source_vocab.id(w));
    t.ids.push_back(kEos);
    return t;
}

DecodeOptions nineSteps() {
    DecodeOptions opt;
    opt.max_len = 9;
    return opt;
}

// The folded step (the small model folds only when told to) with `tables` (nullptr: none), on the engine's threads.
detail::StepPath withTables(const std::shared_ptr<TokenTables>& tables) {
    return {Folding::Always, tables.get(), &ThreadPool::engine()};
}

DecodeResult greedy(const Model& m, const TokenizedText& src, const std::shared_ptr<TokenTables>& tables) {
    return detail::greedyDecode(m, src, nineSteps(), withTables(tables));
}

BeamResult beamWith(const Model& m, const TokenizedText& src, int K, const std::shared_ptr<TokenTables>& tables) {
    return detail::beamSearch(m, src, K, nineSteps(), withTables(tables));
}

void compareExactly(const DecodeResult& got, const DecodeResult& expected) {
    QCOMPARE(got.target_ids, expected.target_ids);
    QCOMPARE(got.attention, expected.attention);
    QCOMPARE(got.scores, expected.scores);
    QCOMPARE(got.log_probs, expected.log_probs);
}

}  // namespace

class TestTokenTables : public QObject {
    Q_OBJECT

private slots:
    void rowsAreTheProducts();
    void sameBitsWithAndWithoutTables_data();
    void sameBitsWithAndWithoutTables();
    void keptRowsAreWhatStepsRead();
    void offForLuongAndOverBudget();
    void rejectsTablesOfAnotherModel();
    void sharedBetweenThreads();
    void eachModelKeepsItsOwn();
};

// Every row of computeAll is the product of its block with the token's embedding, in double precision.
void TestTokenTables::rowsAreTheProducts() {
    const auto model = tableModel(ScoreKind::Additive);
    const ModelParams& p = model->params;
    TokenTables tables(*model);
    QVERIFY(tables.enabled());
    const int V = model->target_vocab.size(), Hd = model->config.dec_hid_dim;
    QCOMPARE(tables.width(TokenTables::Output), Eigen::Index(V));
    QCOMPARE(tables.width(TokenTables::Input), Eigen::Index(3 * Hd));
    QCOMPARE(tables.find(TokenTables::Output, 7), nullptr);
    tables.computeAll(&ThreadPool::engine());
    QCOMPARE(tables.kept(TokenTables::Output), V);
    QCOMPARE(tables.kept(TokenTables::Input), V);
    QCOMPARE(tables.bytesKept(), std::int64_t(V) * (V + 3 * Hd) * 4);

    const int E = model->config.emb_dim, x_col = Hd + 2 * model->config.enc_hid_dim;  // fc_out: [s ; c ; x]
    const Eigen::MatrixXd emb = p.dec_embedding.cast<double>();
    const Eigen::MatrixXd out = emb * p.fc_out_w.cast<double>().middleCols(x_col, E).transpose();  // (V, V)
    const Eigen::MatrixXd in = emb * p.dec_rnn.w_ih.cast<double>().leftCols(E).transpose();        // (V, 3H_d)
    for (int y = 0; y < V; ++y) {
        const float* o = tables.find(TokenTables::Output, y);
        const float* i = tables.find(TokenTables::Input, y);
        QVERIFY(o && i);
        for (int r = 0; r < V; ++r)
            QVERIFY2(close(o[r], out(y, r), 1e-5), qPrintable(QString("output row %1 [%2]").arg(y).arg(r)));
        for (int r = 0; r < 3 * Hd; ++r)
            QVERIFY2(close(i[r], in(y, r), 1e-5), qPrintable(QString("input row %1 [%2]").arg(y).arg(r)));
    }
}

void TestTokenTables::sameBitsWithAndWithoutTables_data() {
    QTest::addColumn<int>("score");
    for (ScoreKind sc : {ScoreKind::Additive, ScoreKind::Dot, ScoreKind::ScaledDot, ScoreKind::General})
        QTest::addRow("%s", toString(sc).data()) << int(sc);
}

// Greedy and beam search without tables, with empty tables (the first decode fills them, the second reads them) and
// with tables computed in advance: the same tokens, rows and log-probabilities, bit for bit. And the empty tables
// keep exactly the tokens that were stepped from.
void TestTokenTables::sameBitsWithAndWithoutTables() {
    QFETCH(int, score);
    const auto model = tableModel(ScoreKind(score));
    const TokenizedText src = sentence(*model, {"the", "cat", "sat", "on", "the", "mat"});
    const DecodeResult plain = greedy(*model, src, nullptr);
    QCOMPARE(int(plain.target_ids.size()), 9);

    auto lazy = std::make_shared<TokenTables>(*model);
    compareExactly(greedy(*model, src, lazy), plain);
    std::set<int> stepped_from{kSos};
    for (size_t i = 0; i + 1 < plain.target_ids.size(); ++i) stepped_from.insert(plain.target_ids[i]);
    QCOMPARE(lazy->kept(TokenTables::Output), int(stepped_from.size()));
    QCOMPARE(lazy->kept(TokenTables::Input), int(stepped_from.size()));
    for (int y = 0; y < model->target_vocab.size(); ++y)
        QCOMPARE(lazy->find(TokenTables::Output, y) != nullptr, stepped_from.count(y) == 1);
    compareExactly(greedy(*model, src, lazy), plain);  // every row read from the tables now

    auto full = std::make_shared<TokenTables>(*model);
    full->computeAll(&ThreadPool::engine());
    compareExactly(greedy(*model, src, full), plain);

    const BeamResult beam = beamWith(*model, src, 3, nullptr);
    for (const auto& tables : {lazy, full}) {
        const BeamResult b = beamWith(*model, src, 3, tables);
        QCOMPARE(b.nodes.size(), beam.nodes.size());
        for (size_t k = 0; k < beam.nodes.size(); ++k) {
            QCOMPARE(b.nodes[k].token, beam.nodes[k].token);
            QCOMPARE(b.nodes[k].log_prob, beam.nodes[k].log_prob);
            QCOMPARE(b.attention(int(k)), beam.attention(int(k)));
        }
    }
}

// A decoder reads a kept row instead of computing it: a doctored row changes the decode the way it should.
void TestTokenTables::keptRowsAreWhatStepsRead() {
    const auto model = tableModel(ScoreKind::Additive);
    const TokenizedText src = sentence(*model, {"i", "love", "you"});
    const DecodeResult plain = greedy(*model, src, nullptr);
    const int V = model->target_vocab.size();
    const int wanted = plain.target_ids[0] == 7 ? 8 : 7;

    // Output: <sos>'s row pushes `wanted` far ahead, so the first step outputs it (with log p close to 0).
    auto doctored = std::make_shared<TokenTables>(*model);
    std::vector<float> row(size_t(V), 0.0f);
    row[size_t(wanted)] = 1000.0f;
    doctored->keep(TokenTables::Output, kSos, row.data());
    const DecodeResult d = greedy(*model, src, doctored);
    QCOMPARE(d.target_ids[0], wanted);
    QVERIFY(d.log_probs[0] > -1e-3f);
    QCOMPARE(d.attention[0], plain.attention[0]);  // the first row comes before the output layer

    // Input: a zero row for the first produced token changes the state after step 2, so step 3's attention.
    auto zeroed = std::make_shared<TokenTables>(*model);
    const std::vector<float> zeros(size_t(3 * model->config.dec_hid_dim), 0.0f);
    zeroed->keep(TokenTables::Input, plain.target_ids[0], zeros.data());
    const DecodeResult z = greedy(*model, src, zeroed);
    QCOMPARE(z.attention[1], plain.attention[1]);
    QVERIFY(z.attention[2] != plain.attention[2]);

    // keep() never overwrites: the first row kept stays.
    std::vector<float> other(size_t(V), -5.0f);
    doctored->keep(TokenTables::Output, kSos, other.data());
    QCOMPARE(doctored->find(TokenTables::Output, kSos)[wanted], 1000.0f);
}

// luong has no per-token products to keep; a budget smaller than the full tables turns them off. Either way
// decoding works and gives the numbers it gives without tables.
void TestTokenTables::offForLuongAndOverBudget() {
    const auto model = tableModel(ScoreKind::Dot);
    const int V = model->target_vocab.size(), Hd = model->config.dec_hid_dim;
    const std::int64_t full = std::int64_t(V) * (V + 3 * Hd) * 4;
    QVERIFY(TokenTables(*model, full).enabled());
    auto small = std::make_shared<TokenTables>(*model, full - 1);
    QVERIFY(!small->enabled());
    const std::vector<float> row(size_t(V), 1.0f);
    small->keep(TokenTables::Output, kSos, row.data());
    small->computeAll(&ThreadPool::engine());
    QCOMPARE(small->find(TokenTables::Output, kSos), nullptr);
    QCOMPARE(small->kept(TokenTables::Output), 0);
    QCOMPARE(small->bytesKept(), std::int64_t(0));
    const TokenizedText src = sentence(*model, {"the", "cat"});
    compareExactly(greedy(*model, src, small), greedy(*model, src, nullptr));

    const auto luong = std::make_shared<const Model>(
        smallModel(smallConfig(DecoderKind::Luong, ScoreKind::General, SpanKind::Global, true), 3, 2.0f));
    auto none = std::make_shared<TokenTables>(*luong);
    QVERIFY(!none->enabled());
    none->computeAll(&ThreadPool::engine());
    QCOMPARE(none->kept(TokenTables::Input), 0);
    const TokenizedText lsrc = sentence(*luong, {"the", "cat"});
    compareExactly(greedy(*luong, lsrc, none), greedy(*luong, lsrc, nullptr));
}

// Tables are for one model object: another (even an equal copy) is refused with a message, not used.
void TestTokenTables::rejectsTablesOfAnotherModel() {
    const auto model = tableModel(ScoreKind::General);
    const auto copy = std::make_shared<const Model>(*model);
    auto tables = std::make_shared<TokenTables>(*model);
    const TokenizedText src = sentence(*copy, {"the", "cat"});
    try {
        greedy(*copy, src, tables);
        QFAIL("decoded with another model's tables");
    } catch (const InputError& e) {
        QVERIFY2(QString(e.what()).contains("token tables belong to another model"), e.what());
    }
    QCOMPARE(tables->kept(TokenTables::Output), 0);
}

// Two threads decode different sentences at once with one empty table (both begin from <sos>, so both compute and
// offer its rows at the same moment); every result is the single-thread result without tables. 200 rounds, fresh
// tables each. (Run under ThreadSanitizer too: rows are published with release/acquire.)
void TestTokenTables::sharedBetweenThreads() {
    const auto model = tableModel(ScoreKind::Additive, 9);
    const TokenizedText a = sentence(*model, {"the", "cat", "sat", "on", "the", "mat"});
    const TokenizedText b = sentence(*model, {"i", "love", "you"});
    const DecodeResult expected_a = greedy(*model, a, nullptr);
    const DecodeResult expected_b = greedy(*model, b, nullptr);
    for (int round = 0; round < 200; ++round) {
        auto shared = std::make_shared<TokenTables>(*model);
        std::atomic<int> ready{0};
        auto together = [&ready] {  // both threads start decoding at the same moment
            ready.fetch_add(1);
            while (ready.load() < 2) std::this_thread::yield();
        };
        DecodeResult got_a, got_b;
        std::thread other([&] {
            together();
            got_b = greedy(*model, b, shared);
        });
        together();
        got_a = greedy(*model, a, shared);
        other.join();
        compareExactly(got_a, expected_a);
        compareExactly(got_b, expected_b);
        QVERIFY(shared->kept(TokenTables::Output) > 0);
    }
}

// Without being told, every decode of a model object (sessions, greedy, beam, on any thread) fills and reads that
// model's own tables; a copy of the model starts with empty tables of its own. The results are those without tables.
void TestTokenTables::eachModelKeepsItsOwn() {
    const auto model = tableModel(ScoreKind::Additive, 4);
    const TokenizedText src = sentence(*model, {"the", "cat", "sat"});
    detail::StepPath own = detail::defaultPath(*model, nineSteps());
    own.folding = Folding::Always;
    TokenTables& tables = detail::tablesOf(*model);
    QCOMPARE(own.tables, &tables);
    QCOMPARE(&detail::tablesOf(*model), &tables);  // one per model
    QCOMPARE(tables.kept(TokenTables::Output), 0);

    const DecodeResult expected = greedy(*model, src, nullptr);
    compareExactly(detail::greedyDecode(*model, src, nineSteps(), own), expected);
    const int kept = tables.kept(TokenTables::Output);
    QVERIFY(kept > 0);
    DecodingSession session = detail::SessionAccess::session(model, src, nineSteps(), own);
    session.runToEnd();
    compareExactly(resultFromSession(session), expected);
    QCOMPARE(tables.kept(TokenTables::Output), kept);  // the same tokens: every row read, none added
    const BeamResult b = detail::beamSearch(*model, src, 3, nineSteps(), own);
    QVERIFY(tables.kept(TokenTables::Output) >= kept);
    QCOMPARE(b.nodes.size(), beamWith(*model, src, 3, nullptr).nodes.size());

    const Model copy = *model;
    TokenTables& copied = detail::tablesOf(copy);
    QVERIFY(&copied != &tables);
    QCOMPARE(&copied.model(), &copy);
    QCOMPARE(copied.kept(TokenTables::Output), 0);
}

ATTNVIZ_TEST_MAIN(TestTokenTables)
#include "test_token_tables.moc"
