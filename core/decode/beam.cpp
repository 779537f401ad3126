// Beam search of width K that keeps the whole search tree for display.
// At each target position every live hypothesis is expanded by one decoder step; its K most probable producible
// tokens become child nodes; the K best children of the step by total log-probability (ties: earlier parent, then
// higher token probability, then lower id) are `in_beam`. Kept children that are <eos> or reach the length limit
// finish; the others stay live (so the live beam shrinks as hypotheses finish). The search stops when no
// hypothesis is live, or when K finished hypotheses are at least as good as every live one (log-probabilities
// are ≤ 0, so a live hypothesis can only get worse). No length normalisation: the best hypothesis is the finished
// one with the highest total log-probability. Width 1 reproduces greedy decoding exactly.
// Legend: S source length with <sos>/<eos>, K beam width, V target vocabulary size.
#include "base/errors.h"
#include "decode/decoding.h"
#include "decode/detail.h"
#include "nn/decoder.h"
#include "nn/encoder.h"

#include <algorithm>
#include <string>

namespace attnviz {

BeamResult beamSearch(const Model& model, const TokenizedText& source_in, int beam_width,
                      const DecodeOptions& options) {
    if (beam_width < 1) throw InputError("beam width must be at least 1, got " + std::to_string(beam_width));
    TokenizedText source = source_in;
    detail::checkSource(model, source);
    if (source.tokens.empty())
        for (int id : source.ids) source.tokens.push_back(model.source_vocab.token(id));
    const int K = beam_width;
    const int max_len = detail::resolveMaxLength(options, int(source.ids.size()));

    EncoderState enc;
    encode(model, source.ids, enc);
    Decoder decoder(model, options.token_tables.get());
    StepOutput out;
    std::vector<DecoderState> states(1);  // states[k]: the state after an expanded step (0: before the first)
    decoder.begin(enc, states[0], out);

    BeamResult result;
    result.nodes.emplace_back();                      // the root: <sos>
    std::vector<int> node_state{0};                   // per node: index into `states` of the state after it
    std::vector<std::vector<float>> node_scores{{}};  // per node: raw scores of the step that produced it

    struct Cand {
        int parent;
        int token;
        float log_prob;
        double total;
        int rank;  // order of generation: parent rank, then candidate rank
    };
    std::vector<int> live{0};
    std::vector<Cand> cands;
    std::vector<Candidate> top;
    for (int t = 1; t <= max_len && !live.empty(); ++t) {
        cands.clear();
        for (int parent : live) {
            DecoderState next;
            decoder.step(enc, result.nodes[size_t(parent)].token, t, states[size_t(node_state[size_t(parent)])], next,
                         out);
            states.push_back(std::move(next));
            const int state_index = int(states.size()) - 1;
            detail::topCandidates(out.log_probs, K, top);
            const std::vector<float> row(out.attn.weights.data(), out.attn.weights.data() + out.attn.weights.size());
            const std::vector<float> scores(out.attn.scores.data(), out.attn.scores.data() + out.attn.scores.size());
            for (const Candidate& c : top) {
                BeamNode n;
                n.parent = parent;
                n.token = c.id;
                n.step = t;
                n.log_prob = c.log_prob;
                n.total_log_prob = result.nodes[size_t(parent)].total_log_prob + double(c.log_prob);
                n.attention = row;
                n.in_beam = false;
                const int id = int(result.nodes.size());
                result.nodes[size_t(parent)].children.push_back(id);
                result.nodes.push_back(std::move(n));
                node_state.push_back(state_index);
                node_scores.push_back(scores);
                cands.push_back({id, c.id, c.log_prob, result.nodes.back().total_log_prob, int(cands.size())});
            }
        }
        // The K best children of this step; the sort is stable on generation order for ties.
        std::stable_sort(cands.begin(), cands.end(), [](const Cand& a, const Cand& b) { return a.total > b.total; });
        if (int(cands.size()) > K) cands.resize(size_t(K));
        live.clear();
        for (const Cand& c : cands) {
            BeamNode& n = result.nodes[size_t(c.parent)];  // `parent` holds the child's node id here
            n.in_beam = true;
            if (n.token == kEos || t == max_len) {
                n.finished = true;
                result.finished.push_back(c.parent);
            } else {
                live.push_back(c.parent);
            }
        }
        std::stable_sort(result.finished.begin(), result.finished.end(), [&](int a, int b) {
            return result.nodes[size_t(a)].total_log_prob > result.nodes[size_t(b)].total_log_prob;
        });
        if (int(result.finished.size()) >= K && !live.empty()) {
            double best_live = result.nodes[size_t(live.front())].total_log_prob;  // live is in descending order
            if (result.nodes[size_t(result.finished[size_t(K - 1)])].total_log_prob >= best_live) break;
        }
    }

    // The best finished hypothesis as a decode object.
    DecodeResult& best = result.best;
    best.source_tokens = source.tokens;
    best.source_ids = source.ids;
    std::vector<int> path;
    for (int n = result.finished.front(); n > 0; n = result.nodes[size_t(n)].parent) path.push_back(n);
    std::reverse(path.begin(), path.end());
    for (int n : path) {
        const BeamNode& node = result.nodes[size_t(n)];
        best.target_ids.push_back(node.token);
        best.target_tokens.push_back(model.target_vocab.token(node.token));
        best.attention.push_back(node.attention);
        best.scores.push_back(node_scores[size_t(n)]);
        best.log_probs.push_back(node.log_prob);
        best.total_log_prob += double(node.log_prob);
    }
    return result;
}

}  // namespace attnviz
