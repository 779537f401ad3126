// The beam search's tree as the window's beam view reads it, for an RNN and a Transformer model: the best finished
// leaf is the search's output and score, pruned nodes score below the kept ones of their step, every node's score is
// the sum of its path's step log-probs (and those are the independent reference's), width 1 is greedy, and a search
// forced at a node starts with that node's tokens and the forced token, the model's log-probs for them, and searches
// on as greedy decoding does at width 1. Bad widths and prefixes are refused with a message.
#include "base/errors.h"
#include "decode/decoding.h"
#include "decode/limits.h"
#include "decode_variants.h"
#include "error_of.h"
#include "io/beam_json.h"
#include "io/model_file.h"
#include "marian_folders.h"
#include "model/model.h"
#include "reference_model.h"
#include "reference_transformer.h"
#include "test_models.h"
#include "test_registry.h"
#include "text/tokenizer.h"

#include <QtTest>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <set>

using namespace attnviz;
using namespace attnviz::testing;
using attnviz::testing::errorOf;

namespace {

std::shared_ptr<const Model> rnnModel() {
    Model m = smallModel(smallConfig(DecoderKind::Luong, ScoreKind::General, SpanKind::Global, true), 21, 2.5f);
    m.params.fc_out_b[kEos] += 1.5f;  // hypotheses finish at different lengths
    return std::make_shared<const Model>(std::move(m));
}

std::shared_ptr<const Model> finishingTransformer() {
    ModelConfig c;
    c.decoder = DecoderKind::Transformer;
    c.score = ScoreKind::ScaledDot;
    c.transformer = {8, 2, 2, 2, 16, false, Activation::Relu};
    Model m = makeRandomTransformerModel(c, smallSourceVocab(), smallTargetVocab(), {7, true}, 0);
    m.transformer.generator_weight *= 3.0f;
    m.transformer.generator_bias[kEos] += 1.0f;
    return std::make_shared<const Model>(std::move(m));
}

std::shared_ptr<const Model> modelOfRow() {
    QFETCH(bool, transformer);
    return transformer ? finishingTransformer() : rnnModel();
}

// Node ids from the first produced token to `node`.
std::vector<int> pathTo(const BeamResult& b, int node) {
    std::vector<int> path;
    for (int n = node; n > 0; n = b.nodes[size_t(n)].parent) path.push_back(n);
    std::reverse(path.begin(), path.end());
    return path;
}

std::vector<int> tokensTo(const BeamResult& b, int node) {
    std::vector<int> tokens;
    for (int n : pathTo(b, node)) tokens.push_back(b.nodes[size_t(n)].token);
    return tokens;
}

// The independent double-precision reference's log p(y_i | y_<i, x) along `tokens`.
std::vector<double> referenceLogProbs(const Model& m, const std::vector<int>& source_ids,
                                      const std::vector<int>& tokens) {
    std::vector<double> out;
    if (m.config.isTransformer()) {
        const auto p = castTransformerParams<double>(m.transformer, m.transformerShape());
        const RefTransformerEncoding enc = referenceTransformerEncode(m.config.transformer, p, source_ids);
        std::vector<int> inputs{kSos};
        inputs.insert(inputs.end(), tokens.begin(), tokens.end() - 1);
        const RefTransformerDecoding dec = referenceTransformerDecode(m.config.transformer, p, enc.memory, inputs);
        for (size_t i = 0; i < tokens.size(); ++i) out.push_back(dec.log_probs(Eigen::Index(i), tokens[i]));
    } else {
        const RefDecode ref = referenceForced(m, source_ids, tokens);
        for (size_t i = 0; i < tokens.size(); ++i) out.push_back(ref.steps[i].log_probs[size_t(tokens[i])]);
    }
    return out;
}

// Greedy decoding after forcing `prefix`, through the session the window steps with.
DecodeResult forcedThenGreedy(const std::shared_ptr<const Model>& m, const std::vector<int>& prefix,
                              const DecodeOptions& opt) {
    DecodingSession session(m, catSentence(), opt);
    for (size_t i = 0; i < prefix.size(); ++i) session.force(int(i), prefix[i]);
    session.runToEnd();
    return resultFromSession(session);
}

}  // namespace

class TestBeamTree : public QObject {
    Q_OBJECT

private slots:
    void bestLeafIsTheSearchResult_data() { addKinds(); }
    void bestLeafIsTheSearchResult();
    void prunedScoreBelowKept_data() { addKinds(); }
    void prunedScoreBelowKept();
    void scoresAreTheStepLogProbs_data() { addKinds(); }
    void scoresAreTheStepLogProbs();
    void widthOneIsGreedy_data() { addKinds(); }
    void widthOneIsGreedy();
    void forcingAtANode_data() { addKinds(); }
    void forcingAtANode();
    void memoryIsBounded();
    void oneRowPerExpansion_data() { addKinds(); }
    void oneRowPerExpansion();
    void rejectsBadRequests();
    void theRootIsTheDecodersStartToken();

private:
    static void addKinds() {
        QTest::addColumn<bool>("transformer");
        QTest::newRow("luong") << false;
        QTest::newRow("transformer") << true;
    }
};

// The tree's best finished leaf spells the search's output with its score; no finished leaf scores more; the
// prefix-less overload is the plain search, node for node.
void TestBeamTree::bestLeafIsTheSearchResult() {
    const auto m = modelOfRow();
    DecodeOptions opt;
    opt.max_len = 9;
    const BeamResult b = beamSearch(*m, catSentence(), 4, opt);
    QVERIFY(!b.finished.empty());
    const int leaf = b.finished.front();
    QCOMPARE(tokensTo(b, leaf), b.best.target_ids);
    QCOMPARE(b.nodes[size_t(leaf)].total_log_prob, b.best.total_log_prob);
    for (const BeamNode& n : b.nodes)
        if (n.finished) QVERIFY(n.total_log_prob <= b.best.total_log_prob);
    const BeamResult same = beamSearch(*m, catSentence(), std::vector<int>{}, 4, opt);
    QCOMPARE(same.nodes.size(), b.nodes.size());
    for (size_t k = 0; k < b.nodes.size(); ++k) {
        QCOMPARE(same.nodes[k].token, b.nodes[k].token);
        QCOMPARE(same.nodes[k].total_log_prob, b.nodes[k].total_log_prob);
        QCOMPARE(same.nodes[k].in_beam, b.nodes[k].in_beam);
        QVERIFY(!same.nodes[k].forced);
    }
    QCOMPARE(same.best.target_ids, b.best.target_ids);
    QCOMPARE(same.best.attention, b.best.attention);
}

// At every step each pruned child scores at most as well as each kept one, and a step keeps at most K.
void TestBeamTree::prunedScoreBelowKept() {
    const auto m = modelOfRow();
    DecodeOptions opt;
    opt.max_len = 9;
    const int K = 3;
    const BeamResult b = beamSearch(*m, catSentence(), K, opt);
    std::map<int, double> worst_kept, best_pruned;
    std::map<int, int> kept;
    int pruned = 0;
    for (size_t i = 1; i < b.nodes.size(); ++i) {
        const BeamNode& n = b.nodes[i];
        if (n.in_beam) {
            ++kept[n.step];
            worst_kept.try_emplace(n.step, n.total_log_prob);
            worst_kept[n.step] = std::min(worst_kept[n.step], n.total_log_prob);
        } else {
            ++pruned;
            best_pruned.try_emplace(n.step, n.total_log_prob);
            best_pruned[n.step] = std::max(best_pruned[n.step], n.total_log_prob);
            QVERIFY(n.children.empty());
        }
    }
    QVERIFY(pruned > 0);  // the test sees pruning at all
    for (auto [step, score] : best_pruned)
        QVERIFY2(score <= worst_kept.at(step),
                 qPrintable(QString("step %1: pruned %2 > kept %3").arg(step).arg(score).arg(worst_kept.at(step))));
    for (auto [step, count] : kept) QVERIFY(count <= K);
}

// Each node's score is the sum of the step log-probs along its path, and a kept node's step log-prob is the
// reference model's probability of its token after its path's prefix.
void TestBeamTree::scoresAreTheStepLogProbs() {
    const auto m = modelOfRow();
    DecodeOptions opt;
    opt.max_len = 7;
    const BeamResult b = beamSearch(*m, catSentence(), 3, opt);
    for (size_t i = 1; i < b.nodes.size(); ++i) {
        double sum = 0;
        for (int n : pathTo(b, int(i))) sum += double(b.nodes[size_t(n)].log_prob);
        QVERIFY(std::abs(sum - b.nodes[i].total_log_prob) < 1e-9);
    }
    for (int leaf : b.finished) {
        const std::vector<int> tokens = tokensTo(b, leaf);
        const std::vector<double> ref = referenceLogProbs(*m, catSentence().ids, tokens);
        const std::vector<int> path = pathTo(b, leaf);
        for (size_t i = 0; i < path.size(); ++i)
            QVERIFY2(std::abs(double(b.nodes[size_t(path[i])].log_prob) - ref[i]) < 1e-4,
                     qPrintable(QString("leaf %1 step %2: %3 vs reference %4")
                                    .arg(leaf)
                                    .arg(i + 1)
                                    .arg(b.nodes[size_t(path[i])].log_prob)
                                    .arg(ref[i])));
    }
}

// Width 1 keeps one hypothesis: its tree is a chain of greedy's tokens, pruned siblings aside, and its output is
// greedy's, bit for bit, with and without a forced prefix.
void TestBeamTree::widthOneIsGreedy() {
    const auto m = modelOfRow();
    DecodeOptions opt;
    opt.max_len = 8;
    for (const std::vector<int>& prefix : {std::vector<int>{}, std::vector<int>{9, 10}}) {
        const BeamResult b = beamSearch(*m, catSentence(), prefix, 1, opt);
        const DecodeResult g = forcedThenGreedy(m, prefix, opt);
        QCOMPARE(b.best.target_ids, g.target_ids);
        QCOMPARE(b.best.log_probs, g.log_probs);
        QCOMPARE(b.best.attention, g.attention);
        QCOMPARE(b.best.total_log_prob, g.total_log_prob);
        int kept = 0;
        for (size_t i = 1; i < b.nodes.size(); ++i) kept += b.nodes[i].in_beam;
        QCOMPARE(kept, int(g.target_ids.size()));
    }
}

// Forcing a token at a pruned node of a search: the new search starts with that node's tokens and the forced token
// as forced nodes, with the model's log-probs for them (teacher forcing), and at width 1 goes on as greedy does.
void TestBeamTree::forcingAtANode() {
    const auto m = modelOfRow();
    DecodeOptions opt;
    opt.max_len = 9;
    const BeamResult b = beamSearch(*m, catSentence(), 3, opt);
    int node = -1;
    for (size_t i = 1; i < b.nodes.size() && node < 0; ++i)
        if (!b.nodes[i].in_beam && b.nodes[i].step == 2 && b.nodes[i].token != kEos) node = int(i);
    QVERIFY(node > 0);
    std::vector<int> prefix = tokensTo(b, node);
    const int forced_token = prefix.back() == 9 ? 10 : 9;
    prefix.push_back(forced_token);

    for (int K : {1, 3}) {
        const BeamResult f = beamSearch(*m, catSentence(), prefix, K, opt);
        QVERIFY(f.best.target_ids.size() >= prefix.size());
        QCOMPARE(std::vector<int>(f.best.target_ids.begin(), f.best.target_ids.begin() + long(prefix.size())), prefix);
        // The forced chain: one node per prefix token, nothing else at those steps.
        for (size_t i = 1; i <= prefix.size(); ++i) {
            QCOMPARE(f.nodes[i].token, prefix[i - 1]);
            QVERIFY(f.nodes[i].forced && f.nodes[i].in_beam);
            QCOMPARE(f.nodes[i].parent, int(i) - 1);
        }
        for (size_t i = prefix.size() + 1; i < f.nodes.size(); ++i)
            QVERIFY(!f.nodes[i].forced && f.nodes[i].step > int(prefix.size()));
        // The prefix's log-probs are teacher forcing's, and the node they were forced at keeps its score.
        TokenizedText reference;
        reference.ids = prefix;
        reference.ids.push_back(kEos);
        const DecodeResult teacher = forcedDecode(*m, catSentence(), reference);
        for (size_t i = 0; i < prefix.size(); ++i)
            QVERIFY(std::abs(f.best.log_probs[i] - teacher.log_probs[i]) <=
                    1e-5f * (1.0f + std::abs(teacher.log_probs[i])));
        QVERIFY(std::abs(f.nodes[prefix.size() - 1].total_log_prob - b.nodes[size_t(node)].total_log_prob) < 1e-9);
        const DecodeResult greedy = forcedThenGreedy(m, prefix, opt);
        if (K == 1) {
            QCOMPARE(f.best.target_ids, greedy.target_ids);
            QCOMPARE(f.best.total_log_prob, greedy.total_log_prob);
        } else {
            QVERIFY(f.best.total_log_prob >= greedy.total_log_prob - 1e-9);
        }
    }
    // A prefix ending with <eos> is the whole hypothesis.
    const BeamResult done = beamSearch(*m, catSentence(), std::vector<int>{9, kEos}, 3, opt);
    QCOMPARE(done.best.target_ids, (std::vector<int>{9, kEos}));
    QCOMPARE(done.nodes.size(), size_t(3));
}

// What the tree keeps (a row and its scores per expansion, the nodes) stays within beamTreeBytes' bound; for a
// realistic source the bound is far below one row per node, as the tree kept before.
void TestBeamTree::memoryIsBounded() {
    const auto m = rnnModel();
    DecodeOptions opt;
    opt.max_len = 12;
    for (int K : {1, 4, 8}) {
        const BeamResult b = beamSearch(*m, catSentence(), K, opt);
        const int S = int(catSentence().ids.size());
        uint64_t bytes = b.nodes.size() * (sizeof(BeamNode) + sizeof(int));
        for (const std::vector<float>& row : b.rows) bytes += 2 * row.size() * sizeof(float);
        const uint64_t bound = beamTreeBytes(S, K, opt.max_len, m->target_vocab.size());
        QVERIFY2(bytes <= bound, qPrintable(QString("K %1: %2 bytes, bound %3").arg(K).arg(bytes).arg(bound)));
        QVERIFY(b.rows.size() <= size_t(opt.max_len) * size_t(K));
    }
    // Width 8 at 30 steps on a 30-word source (S = 32) and 10,000 target words: one row per node was
    // 30 × (64 + 8) × 32 × 4 bytes = 276,480; one per expansion (with its scores) and the nodes keep less.
    QVERIFY(beamTreeBytes(32, 8, 30, 10000) < uint64_t(30) * 72 * 32 * 4);
}

// The tree keeps one attention row per expansion; siblings share their parent's, and each node's row is the one a
// plain decode forced along the node's path computes at the node's step, bit for bit.
void TestBeamTree::oneRowPerExpansion() {
    const auto m = modelOfRow();
    DecodeOptions opt;
    opt.max_len = 9;
    const BeamResult b = beamSearch(*m, catSentence(), std::vector<int>{9}, 3, opt);  // a forced step first
    size_t expanded = 0;
    for (const BeamNode& n : b.nodes) expanded += n.children.empty() ? 0 : 1;
    QCOMPARE(b.rows.size(), expanded);
    QCOMPARE(b.nodes[0].row, -1);
    QVERIFY(b.attention(0).empty());
    std::map<int, int> row_of_parent;
    for (size_t i = 1; i < b.nodes.size(); ++i) {
        const BeamNode& n = b.nodes[i];
        const auto it = row_of_parent.emplace(n.parent, n.row).first;
        QCOMPARE(n.row, it->second);
        const std::vector<int> path = tokensTo(b, int(i));
        DecodingSession session(m, catSentence(), opt);
        for (size_t k = 0; k < path.size(); ++k) session.force(int(k), path[k]);
        QCOMPARE(b.attention(int(i)), session.steps()[path.size() - 1].attention);
    }
    std::set<int> rows;
    for (const auto& [parent, row] : row_of_parent) rows.insert(row);
    QCOMPARE(rows.size(), b.rows.size());  // a row per expanded parent, none shared between parents
}

void TestBeamTree::rejectsBadRequests() {
    const auto m = rnnModel();
    const QString wide = errorOf([&] { beamSearch(*m, catSentence(), kMaxBeamWidth + 1); });
    QVERIFY2(wide.contains(QString::number(kMaxBeamWidth + 1)) && wide.contains("too wide"), qPrintable(wide));
    const QString after_eos = errorOf([&] { beamSearch(*m, catSentence(), std::vector<int>{9, kEos, 10}, 2); });
    QVERIFY2(after_eos.contains("after <eos>"), qPrintable(after_eos));
    const QString bad_id = errorOf([&] { beamSearch(*m, catSentence(), std::vector<int>{kSos}, 2); });
    QVERIFY2(bad_id.contains("cannot be produced"), qPrintable(bad_id));
    DecodeOptions huge;
    huge.max_len = 1000000;
    const QString big = errorOf([&] { beamSearch(*m, catSentence(), 1000, huge); });
    QVERIFY2(big.contains("MiB") && big.contains("smaller width"), qPrintable(big));
}

// The root stands for what the decoder starts from: <sos> for attnviz's own models, <pad> (the last id) for a Marian
// folder, whose id 2 is an ordinary piece. The tree's JSON names it so.
void TestBeamTree::theRootIsTheDecodersStartToken() {
    const BeamResult rnn = beamSearch(*rnnModel(), catSentence(), 2);
    QCOMPARE(rnn.nodes.front().token, kSos);
    QTemporaryDir dir;
    const MarianFolder folder = makeMarianFolder(dir.filePath(QStringLiteral("marian")).toStdString());
    const Model marian = loadModel(folder.path);
    const BeamResult b = beamSearch(marian, "the cat sat on the mat", 2);
    QCOMPARE(b.nodes.front().token, folder.vocab - 1);
    const nlohmann::json j = nlohmann::json::parse(
        beamTreeToJsonText(b, marian.target_vocab, tokenizeSource(marian, "the cat sat on the mat"), 2));
    QCOMPARE(j["nodes"][0]["token"].get<std::string>(), std::string("<pad>"));
    QCOMPARE(j["nodes"][0]["token"].get<std::string>(), b.best.decoder_start);
}

ATTNVIZ_TEST_MAIN(TestBeamTree)
#include "test_beam_tree.moc"
