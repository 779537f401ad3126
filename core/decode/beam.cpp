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
#include "decode/step_decoder.h"
#include "decode/transformer_steps.h"
#include "nn/encoder.h"
#include "text/tokenizer.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <string>

namespace attnviz {
namespace {

// One search: the tree grows in `result`, a step of the decoder per live hypothesis and target position.
class BeamSearch {
public:
    BeamSearch(const Model& model, const TokenizedText& source, int K, int max_len, const detail::StepPath& path)
        : model_(model), K_(K), max_len_(max_len) {
        states_.resize(1);
        if (model.config.isTransformer()) {
            transformer_.emplace(model, source.ids);
            max_len_ = transformer_->lengthLimit(max_len);
            caches_.resize(1);  // the root's: nothing fed yet
        } else {
            decoder_.emplace(model, path);
            encode(model, source.ids, enc_, path.pool);
            decoder_->begin(enc_, states_[0], out_);
        }
        result_.nodes.emplace_back();  // the root: <sos>
        node_state_.push_back(0);
        node_scores_.emplace_back();
        node_layers_.emplace_back();
        result_.best.source_tokens = source.tokens;
        result_.best.source_ids = source.ids;
    }

    BeamResult run() {
        std::vector<int> live{0};
        for (int t = 1; t <= max_len_ && !live.empty(); ++t) {
            cands_.clear();
            for (int parent : live) expand(parent, t);
            live = keepBest(t);
            releaseCaches(live);
            if (settled(live)) break;
        }
        writeBest();
        return std::move(result_);
    }

private:
    // A child of this step, in order of generation (parent rank, then candidate rank).
    struct Cand {
        int node;
        double total;
    };

    // One decoder step from `parent`; its K most probable producible tokens become child nodes (not in the beam yet).
    void expand(int parent, int t) {
        std::shared_ptr<const StepRecord> layers;
        if (transformer_) {
            TransformerDecoderState next = caches_[size_t(node_state_[size_t(parent)])];  // O(t): the prefix's cache
            transformer_->step(next, result_.nodes[size_t(parent)].token, tout_);
            caches_.push_back(std::move(next));
            auto record = std::make_shared<StepRecord>();
            detail::fillTransformerRecord(tout_, 0, *record);
            layers = std::move(record);
        } else {
            DecoderState next;
            decoder_->step(enc_, result_.nodes[size_t(parent)].token, t, states_[size_t(node_state_[size_t(parent)])],
                           next, out_);
            states_.push_back(std::move(next));
        }
        const int state_index = int(transformer_ ? caches_.size() : states_.size()) - 1;
        const Vec& log_probs = transformer_ ? tout_.log_probs : out_.log_probs;
        detail::topCandidates(log_probs, K_, top_);
        const Vec& a = out_.attn.weights;
        const Vec& e = out_.attn.scores;
        const std::vector<float> row = layers ? layers->attention : std::vector<float>(a.data(), a.data() + a.size());
        const std::vector<float> scores = layers ? layers->scores : std::vector<float>(e.data(), e.data() + e.size());
        for (const Candidate& c : top_) {
            BeamNode n;
            n.parent = parent;
            n.token = c.id;
            n.step = t;
            n.log_prob = c.log_prob;
            n.total_log_prob = result_.nodes[size_t(parent)].total_log_prob + double(c.log_prob);
            n.attention = row;
            n.in_beam = false;
            const int id = int(result_.nodes.size());
            result_.nodes[size_t(parent)].children.push_back(id);
            cands_.push_back({id, n.total_log_prob});
            result_.nodes.push_back(std::move(n));
            node_state_.push_back(state_index);
            node_scores_.push_back(scores);
            node_layers_.push_back(layers);
        }
    }

    // The K best children of step t go in the beam (the sort is stable on generation order for ties); those that are
    // <eos> or reach the length limit finish. Returns the others, best first: the live hypotheses.
    std::vector<int> keepBest(int t) {
        std::stable_sort(cands_.begin(), cands_.end(), [](const Cand& a, const Cand& b) { return a.total > b.total; });
        if (int(cands_.size()) > K_) cands_.resize(size_t(K_));
        std::vector<int> live;
        for (const Cand& c : cands_) {
            BeamNode& n = result_.nodes[size_t(c.node)];
            n.in_beam = true;
            if (n.token == kEos || t == max_len_) {
                n.finished = true;
                result_.finished.push_back(c.node);
            } else {
                live.push_back(c.node);
            }
        }
        std::stable_sort(result_.finished.begin(), result_.finished.end(), [&](int a, int b) {
            return result_.nodes[size_t(a)].total_log_prob > result_.nodes[size_t(b)].total_log_prob;
        });
        return live;
    }

    // A Transformer's cache is O(t) per hypothesis: keep only those the live hypotheses will expand from.
    void releaseCaches(const std::vector<int>& live) {
        if (!transformer_) return;
        std::vector<char> keep(caches_.size(), 0);
        for (int n : live) keep[size_t(node_state_[size_t(n)])] = 1;
        for (size_t k = 0; k < caches_.size(); ++k)
            if (!keep[k]) caches_[k] = TransformerDecoderState{};
    }

    // K finished hypotheses are at least as good as every live one (log-probabilities are ≤ 0, so a live hypothesis
    // can only get worse).
    bool settled(const std::vector<int>& live) const {
        if (int(result_.finished.size()) < K_ || live.empty()) return false;
        const double best_live = result_.nodes[size_t(live.front())].total_log_prob;
        return result_.nodes[size_t(result_.finished[size_t(K_ - 1)])].total_log_prob >= best_live;
    }

    // The best finished hypothesis as a decode object.
    void writeBest() {
        DecodeResult& best = result_.best;
        std::vector<int> path;
        for (int n = result_.finished.front(); n > 0; n = result_.nodes[size_t(n)].parent) path.push_back(n);
        std::reverse(path.begin(), path.end());
        std::vector<const StepRecord*> rows;
        for (int n : path) {
            if (transformer_) rows.push_back(node_layers_[size_t(n)].get());
            const BeamNode& node = result_.nodes[size_t(n)];
            best.target_ids.push_back(node.token);
            best.target_tokens.push_back(model_.target_vocab.token(node.token));
            best.attention.push_back(node.attention);
            best.scores.push_back(node_scores_[size_t(n)]);
            best.log_probs.push_back(node.log_prob);
            best.total_log_prob += double(node.log_prob);
        }
        if (transformer_) detail::addTransformerAttention(best, transformer_->encoding().self_attention, rows);
    }

    const Model& model_;
    const int K_;
    int max_len_;
    // RNN kinds
    EncoderState enc_;
    std::optional<detail::StepDecoder> decoder_;
    StepOutput out_;
    std::vector<DecoderState> states_;  // states_[k]: the state after an expanded step (0: before the first)
    // Transformer: the key/value cache after each expanded step (0: before the first), as states_ for the RNNs
    std::optional<detail::TransformerSteps> transformer_;
    TransformerStep tout_;
    std::vector<TransformerDecoderState> caches_;
    BeamResult result_;
    std::vector<int> node_state_;                                 // per node: index into states_ of the state after it
    std::vector<std::vector<float>> node_scores_;                 // per node: raw scores of the step that produced it
    std::vector<std::shared_ptr<const StepRecord>> node_layers_;  // Transformer, per node: its step's attentions
    std::vector<Cand> cands_;                                     // this step's children
    std::vector<Candidate> top_;                                  // scratch of expand()
};

}  // namespace

BeamResult beamSearch(const Model& model, std::string_view source_text, int beam_width, const DecodeOptions& options) {
    return beamSearch(model, tokenizeSource(model, source_text), beam_width, options);
}

BeamResult beamSearch(const Model& model, const TokenizedText& source, int beam_width, const DecodeOptions& options) {
    return detail::beamSearch(model, source, beam_width, options, detail::defaultPath(model, options));
}

BeamResult detail::beamSearch(const Model& model, const TokenizedText& source, int beam_width,
                              const DecodeOptions& options, const StepPath& path) {
    if (beam_width < 1) throw InputError("beam width must be at least 1, got " + std::to_string(beam_width));
    const TokenizedText src = checkedSource(model, source);
    const int max_len = resolveMaxLength(options, int(src.ids.size()));
    return BeamSearch(model, src, beam_width, max_len, path).run();
}

}  // namespace attnviz
