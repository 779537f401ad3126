// The beam tree as numbers (io/beam_json.h): the CSV and JSON of a small hand-made tree against golden text written
// out by hand (RFC 4180 quoting of a comma and a quote, UTF-8 kept), and the JSON of a real search read back
// against the engine's BeamResult, node by node and row by row, every float bit for bit.
#include "decode/decoding.h"
#include "io/beam_json.h"
#include "test_models.h"
#include "test_registry.h"

#include <nlohmann/json.hpp>

#include <QtTest>
#include <cmath>

using namespace attnviz;

namespace {

BeamNode node(int parent, int token, int step, float lp, double total, int row, bool kept, bool finished) {
    BeamNode n;
    n.parent = parent;
    n.token = token;
    n.step = step;
    n.log_prob = lp;
    n.total_log_prob = total;
    n.row = row;
    n.in_beam = kept;
    n.finished = finished;
    return n;
}

// A width-2 search as the engine would leave it: step 2 keeps 3 and 4 of its four children, 4 and 7 finish, and
// the search stops with 8 live (two finished hypotheses beat it).
BeamResult handMadeTree() {
    BeamResult t;
    t.nodes = {
        node(-1, kSos, 0, 0, 0, -1, true, false),            // 0: the root
        node(0, 4, 1, -0.25f, -0.25, 0, true, false),        // 1: the
        node(0, 5, 1, -1.5f, -1.5, 0, true, false),          // 2: a,b
        node(1, 7, 2, -0.5f, -0.75, 1, true, false),         // 3: 猫
        node(1, kEos, 2, -1.0f, -1.25, 1, true, true),       // 4: <eos>, the second hypothesis
        node(2, 6, 2, -0.125f, -1.625, 2, false, false),     // 5: say "hi", pruned
        node(2, kEos, 2, -2.0f, -3.5, 2, false, false),      // 6: <eos>, pruned
        node(3, kEos, 3, -0.0625f, -0.8125, 3, true, true),  // 7: <eos>, the best
        node(3, 4, 3, -3.0f, -3.75, 3, true, false),         // 8: the, live
    };
    t.nodes[0].children = {1, 2};
    t.nodes[1].children = {3, 4};
    t.nodes[2].children = {5, 6};
    t.nodes[3].children = {7, 8};
    t.rows = {{0.5f, 0.25f, 0.25f}, {0.125f, 0.75f, 0.125f}, {0.0625f, 0.375f, 0.5625f}, {0.25f, 0.25f, 0.5f}};
    t.finished = {7, 4};
    return t;
}

const Vocabulary& handVocab() {
    static const Vocabulary v({"<pad>", "<unk>", "<sos>", "<eos>", "the", "a,b", "say \"hi\"", "猫"});
    return v;
}

const TokenizedText handSource{{"<sos>", "cat", "<eos>"}, {kSos, 5, kEos}};

// A model whose beam hypotheses finish at different lengths (<eos> made likelier), and a source for it.
Model earlyEndingModel() {
    Model m = testing::smallModel(testing::smallConfig(DecoderKind::Luong, ScoreKind::General, SpanKind::Global, true),
                                  21, 2.5f);
    m.params.fc_out_b[kEos] += 1.5f;
    return m;
}
const TokenizedText kCatSource{{"<sos>", "the", "cat", "ate", "<eos>"}, {kSos, 7, 8, 12, kEos}};

}  // namespace

class TestBeamJson : public QObject {
    Q_OBJECT
private slots:
    void csvOfAHandMadeTree();
    void jsonOfAHandMadeTree();
    void jsonOfASearchReadsBack();
    void jsonRecordsTheLengthPenaltyAndEachHypothesisScore();
};

void TestBeamJson::csvOfAHandMadeTree() {
    const std::string expected =
        "id,parent,step,token,token_id,log_prob,total_log_prob,kept,finished,forced,best_path\n"
        "0,-1,0,<sos>,2,0,0,1,0,0,1\n"
        "1,0,1,the,4,-0.25,-0.25,1,0,0,1\n"
        "2,0,1,\"a,b\",5,-1.5,-1.5,1,0,0,0\n"
        "3,1,2,猫,7,-0.5,-0.75,1,0,0,1\n"
        "4,1,2,<eos>,3,-1,-1.25,1,1,0,0\n"
        "5,2,2,\"say \"\"hi\"\"\",6,-0.125,-1.625,0,0,0,0\n"
        "6,2,2,<eos>,3,-2,-3.5,0,0,0,0\n"
        "7,3,3,<eos>,3,-0.0625,-0.8125,1,1,0,1\n"
        "8,3,3,the,4,-3,-3.75,1,0,0,0\n";
    QCOMPARE(QString::fromStdString(beamTreeToCsv(handMadeTree(), handVocab())), QString::fromStdString(expected));
}

void TestBeamJson::jsonOfAHandMadeTree() {
    const std::string expected =
        R"({"source_tokens":["<sos>","cat","<eos>"],"source_ids":[2,5,3],"beam_width":2,"length_penalty":0.0,"nodes":[)"
        R"({"id":0,"parent":-1,"step":0,"token":"<sos>","token_id":2,"log_prob":0.0,"total_log_prob":0.0,)"
        R"("kept":true,"finished":false,"forced":false,"best_path":true,"row":-1,"children":[1,2]},)"
        R"({"id":1,"parent":0,"step":1,"token":"the","token_id":4,"log_prob":-0.25,"total_log_prob":-0.25,)"
        R"("kept":true,"finished":false,"forced":false,"best_path":true,"row":0,"children":[3,4]},)"
        R"({"id":2,"parent":0,"step":1,"token":"a,b","token_id":5,"log_prob":-1.5,"total_log_prob":-1.5,)"
        R"("kept":true,"finished":false,"forced":false,"best_path":false,"row":0,"children":[5,6]},)"
        R"({"id":3,"parent":1,"step":2,"token":"猫","token_id":7,"log_prob":-0.5,"total_log_prob":-0.75,)"
        R"("kept":true,"finished":false,"forced":false,"best_path":true,"row":1,"children":[7,8]},)"
        R"({"id":4,"parent":1,"step":2,"token":"<eos>","token_id":3,"log_prob":-1.0,"total_log_prob":-1.25,)"
        R"("kept":true,"finished":true,"forced":false,"best_path":false,"row":1,"children":[]},)"
        R"({"id":5,"parent":2,"step":2,"token":"say \"hi\"","token_id":6,"log_prob":-0.125,"total_log_prob":-1.625,)"
        R"("kept":false,"finished":false,"forced":false,"best_path":false,"row":2,"children":[]},)"
        R"({"id":6,"parent":2,"step":2,"token":"<eos>","token_id":3,"log_prob":-2.0,"total_log_prob":-3.5,)"
        R"("kept":false,"finished":false,"forced":false,"best_path":false,"row":2,"children":[]},)"
        R"({"id":7,"parent":3,"step":3,"token":"<eos>","token_id":3,"log_prob":-0.0625,"total_log_prob":-0.8125,)"
        R"("kept":true,"finished":true,"forced":false,"best_path":true,"row":3,"children":[]},)"
        R"({"id":8,"parent":3,"step":3,"token":"the","token_id":4,"log_prob":-3.0,"total_log_prob":-3.75,)"
        R"("kept":true,"finished":false,"forced":false,"best_path":false,"row":3,"children":[]}],)"
        R"("nbest":[{"node":7,"tokens":["the","猫","<eos>"],"token_ids":[4,7,3],"total_log_prob":-0.8125,"score":-0.8125},)"
        R"({"node":4,"tokens":["the","<eos>"],"token_ids":[4,3],"total_log_prob":-1.25,"score":-1.25}],)"
        R"("rows":[[0.5,0.25,0.25],[0.125,0.75,0.125],[0.0625,0.375,0.5625],[0.25,0.25,0.5]]})";
    QCOMPARE(QString::fromStdString(beamTreeToJsonText(handMadeTree(), handVocab(), handSource, 2)),
             QString::fromStdString(expected));
}

// A real search (width 3, a model whose hypotheses finish at different lengths) written and read back: every node's
// fields, every row and the n-best list are the engine's, floats exactly.
void TestBeamJson::jsonOfASearchReadsBack() {
    const Model m = earlyEndingModel();
    DecodeOptions opt;
    opt.max_len = 8;
    const BeamResult b = beamSearch(m, kCatSource, 3, opt);
    const nlohmann::json j = nlohmann::json::parse(beamTreeToJsonText(b, m.target_vocab, kCatSource, 3, 2));
    QCOMPARE(j["source_tokens"].get<std::vector<std::string>>(), kCatSource.tokens);
    QCOMPARE(j["beam_width"].get<int>(), 3);
    QCOMPARE(j["nodes"].size(), b.nodes.size());
    for (size_t i = 0; i < b.nodes.size(); ++i) {
        const BeamNode& n = b.nodes[i];
        const nlohmann::json& k = j["nodes"][i];
        QCOMPARE(k["parent"].get<int>(), n.parent);
        QCOMPARE(k["step"].get<int>(), n.step);
        QCOMPARE(k["token_id"].get<int>(), n.token);
        QCOMPARE(k["token"].get<std::string>(), m.target_vocab.token(n.token));
        QCOMPARE(k["log_prob"].get<float>(), n.log_prob);
        QCOMPARE(k["total_log_prob"].get<double>(), n.total_log_prob);
        QCOMPARE(k["kept"].get<bool>(), n.in_beam);
        QCOMPARE(k["finished"].get<bool>(), n.finished);
        QCOMPARE(k["children"].get<std::vector<int>>(), n.children);
        if (i > 0) QCOMPARE(j["rows"][k["row"].get<size_t>()].get<std::vector<float>>(), b.attention(int(i)));
    }
    QCOMPARE(j["rows"].size(), b.rows.size());
    QCOMPARE(j["nbest"].size(), b.finished.size());
    QCOMPARE(j["nbest"][0]["token_ids"].get<std::vector<int>>(), b.best.target_ids);
    QCOMPARE(j["nbest"][0]["total_log_prob"].get<double>(), b.nodes[size_t(b.finished[0])].total_log_prob);
    int on_best = 0;
    for (const nlohmann::json& k : j["nodes"]) on_best += k["best_path"].get<bool>() ? 1 : 0;
    QCOMPARE(on_best, int(b.best.target_ids.size()) + 1);  // the root and one node per token
}

// With a length penalty α the file says α, and each n-best entry's score is its total / L^α, L = step + 1 (the hand
// tree's hypotheses end at steps 3 and 2: −0.8125 / 4 and −1.25 / 3 with α = 1); a search ranked so lists them by it.
void TestBeamJson::jsonRecordsTheLengthPenaltyAndEachHypothesisScore() {
    BeamResult hand = handMadeTree();
    hand.length_penalty = 1;
    nlohmann::json j = nlohmann::json::parse(beamTreeToJsonText(hand, handVocab(), handSource, 2));
    QCOMPARE(j["length_penalty"].get<double>(), 1.0);
    QCOMPARE(j["nbest"][0]["score"].get<double>(), -0.203125);
    QCOMPARE(j["nbest"][1]["score"].get<double>(), -1.25 / 3);
    QCOMPARE(j["nbest"][1]["total_log_prob"].get<double>(), -1.25);

    const Model m = earlyEndingModel();
    DecodeOptions opt;
    opt.max_len = 8;
    opt.length_penalty = 2.5;
    const BeamResult b = beamSearch(m, kCatSource, 3, opt);
    j = nlohmann::json::parse(beamTreeToJsonText(b, m.target_vocab, kCatSource, 3));
    QCOMPARE(j["length_penalty"].get<double>(), 2.5);
    QVERIFY(j["nbest"].size() > 1);
    double previous = 0;
    for (size_t i = 0; i < j["nbest"].size(); ++i) {
        const nlohmann::json& h = j["nbest"][i];
        const BeamNode& end = b.nodes[h["node"].get<size_t>()];
        const double expected = end.total_log_prob / std::pow(double(end.step + 1), 2.5);
        QCOMPARE(h["score"].get<double>(), expected);
        if (i > 0) QVERIFY(expected <= previous);
        previous = expected;
    }
}

ATTNVIZ_TEST_MAIN(TestBeamJson)
#include "test_beam_json.moc"
