#include "io/beam_json.h"

#include "base/json_number.h"
#include "decode/beam_hypothesis.h"
#include "io/decode_json.h"
#include "io/json_text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

namespace attnviz {
namespace {

using Json = nlohmann::ordered_json;

// Per node: 1 when it lies on the path of the best finished hypothesis (the root included).
std::vector<char> bestPath(const BeamResult& tree) {
    std::vector<char> on(tree.nodes.size(), 0);
    if (!tree.finished.empty())
        for (int n = tree.finished.front(); n >= 0; n = tree.nodes[size_t(n)].parent) on[size_t(n)] = 1;
    return on;
}

Json nodeJson(const BeamResult& tree, const Vocabulary& vocab, size_t id, bool best) {
    const BeamNode& n = tree.nodes[id];
    Json j = Json::object();
    j["id"] = id;
    j["parent"] = n.parent;
    j["step"] = n.step;
    j["token"] = std::string(vocab.token(n.token));
    j["token_id"] = n.token;
    j["log_prob"] = jsonNumber<Json>(double(n.log_prob));
    j["total_log_prob"] = jsonNumber<Json>(n.total_log_prob);
    j["kept"] = n.in_beam;
    j["finished"] = n.finished;
    j["forced"] = n.forced;
    j["best_path"] = best;
    j["row"] = n.row;
    j["children"] = n.children;
    return j;
}

Json nbestJson(const BeamResult& tree, const Vocabulary& vocab) {
    Json out = Json::array();
    for (int leaf : tree.finished) {
        Json tokens = Json::array(), ids = Json::array();
        for (int n : beamPath(tree, leaf)) {
            tokens.push_back(std::string(vocab.token(tree.nodes[size_t(n)].token)));
            ids.push_back(tree.nodes[size_t(n)].token);
        }
        Json h = Json::object();
        h["node"] = leaf;
        h["tokens"] = std::move(tokens);
        h["token_ids"] = std::move(ids);
        const BeamNode& end = tree.nodes[size_t(leaf)];
        h["total_log_prob"] = jsonNumber<Json>(end.total_log_prob);
        h["score"] = jsonNumber<Json>(beamRank(end.total_log_prob, end.step, tree.length_penalty));
        out.push_back(std::move(h));
    }
    return out;
}

}  // namespace

std::string beamTreeToCsv(const BeamResult& tree, const Vocabulary& target_vocab) {
    std::string out = "id,parent,step,token,token_id,log_prob,total_log_prob,kept,finished,forced,best_path\n";
    const std::vector<char> best = bestPath(tree);
    auto flag = [](bool b) { return b ? ",1" : ",0"; };
    for (size_t i = 0; i < tree.nodes.size(); ++i) {
        const BeamNode& n = tree.nodes[i];
        out += std::to_string(i) + ',' + std::to_string(n.parent) + ',' + std::to_string(n.step) + ',';
        out += csvField(std::string(target_vocab.token(n.token))) + ',' + std::to_string(n.token) + ',';
        out += formatFloat(double(n.log_prob)) + ',' + formatFloat(n.total_log_prob);
        out += flag(n.in_beam);
        out += flag(n.finished);
        out += flag(n.forced);
        out += flag(best[i] != 0);
        out += '\n';
    }
    return out;
}

std::string beamTreeToJsonText(const BeamResult& tree, const Vocabulary& target_vocab, const TokenizedText& source,
                               int beam_width, int indent) {
    Json j = Json::object();
    j["source_tokens"] = source.tokens;
    j["source_ids"] = source.ids;
    j["beam_width"] = beam_width;
    j["length_penalty"] = jsonNumber<Json>(tree.length_penalty);
    const std::vector<char> best = bestPath(tree);
    Json nodes = Json::array();
    for (size_t i = 0; i < tree.nodes.size(); ++i) nodes.push_back(nodeJson(tree, target_vocab, i, best[i] != 0));
    j["nodes"] = std::move(nodes);
    j["nbest"] = nbestJson(tree, target_vocab);
    Json rows = Json::array();
    for (const std::vector<float>& row : tree.rows) {
        Json r = Json::array();
        for (float a : row) r.push_back(jsonNumber<Json>(double(a)));
        rows.push_back(std::move(r));
    }
    j["rows"] = std::move(rows);
    return jsonText(j, indent);
}

}  // namespace attnviz
