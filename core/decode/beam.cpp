// Beam search of width K that keeps the whole search tree for display.
// At each target position every live hypothesis is expanded by one decoder step; its K most probable producible
// tokens become child nodes; the K best children of the step by total log-probability (ties: earlier parent, then
// higher token probability, then lower id) are `in_beam`. Kept children that are <eos> or reach the length limit
// finish; the others stay live (so the live beam shrinks as hypotheses finish). The search stops when no
// hypothesis is live, or when K finished hypotheses are at least as good as every live one (log-probabilities
// are ≤ 0, so a live hypothesis can only get worse). By default no length normalisation: the best hypothesis is the
// finished one with the highest total log-probability. With a length penalty α (DecodeOptions) finished hypotheses
// rank by total / L^α, L = step + 1, and the search stops as transformers' generate does (early_stopping false):
// when K finished ones rank at least as high as the best live total divided by its own L^α (a heuristic for α > 0:
// a longer hypothesis might still have ranked higher). The beam itself is chosen by total log p either way, as in
// generate. Width 1 reproduces greedy decoding exactly.
// A forced prefix (the window's "force a token here") is fed first, one node per step on a single hypothesis; the
// search goes on from its last node as from the root.
// Every expansion (one decoder step from one node) adds one attention row to the result, shared by the children it
// makes, and one decode prefix (decode/kind_steps.h): prefixes_[k + 1] is the prefix after expansion k, prefixes_[0]
// the one before the first step, so a node continues from prefixes_[row + 1] (the root, row −1, from prefixes_[0]).
// Legend: S source length with <sos>/<eos>, K beam width, V target vocabulary size.
#include "base/errors.h"
#include "decode/candidates.h"
#include "decode/decode_inputs.h"
#include "decode/decoding.h"
#include "decode/kind_steps.h"
#include "decode/on_path.h"
#include "decode/subword_words.h"
#include "text/tokenizer.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

namespace attnviz {
namespace {

// One search: the tree grows in `result`, a step of the decoder per live hypothesis and target position.
class BeamSearch {
public:
    // `iv`: the decode's interventions (checked); must outlive the search.
    BeamSearch(const Model& model, const TokenizedText& source, int K, int max_len, double length_penalty,
               const detail::StepPath& path, std::vector<int> prefix, const Interventions& iv)
        : model_(model), K_(K), prefix_(std::move(prefix)), kind_(model, source.ids, path, &iv) {
        max_len_ = kind_.lengthLimit(max_len);
        if (int(prefix_.size()) > max_len_)
            throw InputError("beam search: the forced prefix has " + std::to_string(prefix_.size()) +
                             " tokens, more than this model's " + std::to_string(max_len_) + " target positions");
        prefixes_.push_back(kind_.start());  // the root's: nothing fed yet
        result_.nodes.emplace_back();        // the root: the decoder's start token (<sos>; a Marian's <pad>)
        result_.nodes.front().token = model.target_vocab.specials().start;
        result_.length_penalty = length_penalty;
        result_.best.source_tokens = source.tokens;
        result_.best.source_ids = source.ids;
        result_.best.decoder_start = model.target_vocab.token(model.target_vocab.specials().start);
    }

    BeamResult run() {
        std::vector<int> live{0};
        int t = 1;
        for (; t <= int(prefix_.size()) && !live.empty(); ++t) {
            live = feedForced(live.front(), t);
            releasePrefixes(live);
        }
        for (; t <= max_len_ && !live.empty(); ++t) {
            cands_.clear();
            step_rows_ = int(result_.rows.size());
            for (int parent : live) expand(parent, t);
            live = keepBest(t);
            releasePrefixes(live);
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
        const int row = stepFrom(parent);
        detail::topCandidates(kind_.logProbs(), K_, model_.target_vocab.specials(), top_);
        for (const Candidate& c : top_) {
            const int id = addChild(parent, t, c.id, c.log_prob, row);
            cands_.push_back({id, result_.nodes[size_t(id)].total_log_prob});
        }
    }

    // Step t of the forced prefix: the one child of `parent` is the forced token, kept (it finishes as a kept child
    // would). Returns the live hypotheses after it: that child, or none.
    std::vector<int> feedForced(int parent, int t) {
        const int row = stepFrom(parent);
        const int token = prefix_[size_t(t) - 1];
        const int id = addChild(parent, t, token, kind_.logProbs()[token], row);
        BeamNode& n = result_.nodes[size_t(id)];
        n.in_beam = true;
        n.forced = true;
        if (token == model_.target_vocab.specials().eos || t == max_len_) {
            n.finished = true;
            result_.finished.push_back(id);
            return {};
        }
        return {id};
    }

    // The prefix a node's children continue from: the one after the step that produced it.
    size_t prefixOf(int node) const { return size_t(result_.nodes[size_t(node)].row + 1); }

    // One decoder step from `parent`: pushes the prefix after it, its attention row (S) to result_.rows, its raw
    // scores (S) and, for a Transformer, every layer's attention. Returns the row's index.
    int stepFrom(int parent) {
        detail::DecodePrefix next = detail::KindSteps::branch(prefixes_[prefixOf(parent)]);
        StepRecord rec;
        kind_.step(next, result_.nodes[size_t(parent)].token, 0, rec);
        prefixes_.push_back(std::move(next));
        result_.rows.push_back(rec.attention);
        row_scores_.push_back(std::move(rec.scores));
        // Only a Transformer's step has its layers' attentions.
        row_layers_.push_back(rec.cross_attention.empty() ? nullptr : std::make_shared<StepRecord>(std::move(rec)));
        return int(result_.rows.size()) - 1;
    }

    // A child node of `parent` with `token` (not in the beam yet), made by the step of row `row`; returns its id.
    int addChild(int parent, int t, int token, float log_prob, int row) {
        BeamNode n;
        n.parent = parent;
        n.token = token;
        n.step = t;
        n.log_prob = log_prob;
        n.total_log_prob = result_.nodes[size_t(parent)].total_log_prob + double(log_prob);
        n.row = row;
        n.in_beam = false;
        const int id = int(result_.nodes.size());
        result_.nodes[size_t(parent)].children.push_back(id);
        result_.nodes.push_back(std::move(n));
        return id;
    }

    // The K best children of step t go in the beam (the sort is stable on generation order for ties); those that are
    // <eos> or reach the length limit finish. Returns the others, best first: the live hypotheses.
    std::vector<int> keepBest(int t) {
        std::stable_sort(cands_.begin(), cands_.end(), [](const Cand& a, const Cand& b) { return a.total > b.total; });
        if (int(cands_.size()) > K_) cands_.resize(size_t(K_));
        releasePrunedSteps();
        std::vector<int> live;
        for (const Cand& c : cands_) {
            BeamNode& n = result_.nodes[size_t(c.node)];
            n.in_beam = true;
            if (n.token == model_.target_vocab.specials().eos || t == max_len_) {
                n.finished = true;
                result_.finished.push_back(c.node);
            } else {
                live.push_back(c.node);
            }
        }
        std::stable_sort(result_.finished.begin(), result_.finished.end(),
                         [&](int a, int b) { return rank(a) > rank(b); });
        return live;
    }

    double rank(int node) const {
        const BeamNode& n = result_.nodes[size_t(node)];
        return rankOf(n.total_log_prob, n.step);
    }
    double rankOf(double total, int step) const { return beamRank(total, step, result_.length_penalty); }

    // A pruned node is never expanded nor on a finished path: of a step of this position whose children were all
    // pruned only the attention row stays (for the tree); its scores and layers go.
    void releasePrunedSteps() {
        std::vector<char> kept(result_.rows.size() - size_t(step_rows_), 0);
        for (const Cand& c : cands_) kept[size_t(result_.nodes[size_t(c.node)].row - step_rows_)] = 1;
        for (size_t k = 0; k < kept.size(); ++k) {
            if (kept[k]) continue;
            row_scores_[size_t(step_rows_) + k] = {};
            row_layers_[size_t(step_rows_) + k].reset();
        }
    }

    // A Transformer's prefix is O(t) per hypothesis: keep only those the live hypotheses will expand from.
    void releasePrefixes(const std::vector<int>& live) {
        std::vector<char> keep(prefixes_.size(), 0);
        for (int n : live) keep[prefixOf(n)] = 1;
        for (size_t k = 0; k < prefixes_.size(); ++k)
            if (!keep[k]) prefixes_[k] = detail::DecodePrefix{};
    }

    // K finished hypotheses rank at least as high as the best live one would if it ended now (without a length
    // penalty exact: log-probabilities are ≤ 0, so a live hypothesis can only get worse).
    bool settled(const std::vector<int>& live) const {
        if (int(result_.finished.size()) < K_ || live.empty()) return false;
        const BeamNode& best_live = result_.nodes[size_t(live.front())];
        return rank(result_.finished[size_t(K_ - 1)]) >= rankOf(best_live.total_log_prob, best_live.step);
    }

    // The best finished hypothesis as a decode object.
    void writeBest() {
        DecodeResult& best = result_.best;
        std::vector<int> path;
        for (int n = result_.finished.front(); n > 0; n = result_.nodes[size_t(n)].parent) path.push_back(n);
        std::reverse(path.begin(), path.end());
        std::vector<const StepRecord*> rows;
        for (int n : path) {
            const BeamNode& node = result_.nodes[size_t(n)];
            rows.push_back(row_layers_[size_t(node.row)].get());
            best.target_ids.push_back(node.token);
            best.target_tokens.push_back(model_.target_vocab.token(node.token));
            best.attention.push_back(result_.rows[size_t(node.row)]);
            best.scores.push_back(row_scores_[size_t(node.row)]);
            best.log_probs.push_back(node.log_prob);
            best.total_log_prob += double(node.log_prob);
        }
        kind_.addLayerAttention(best, rows);
        describeSubwords(model_, best);
    }

    const Model& model_;
    const int K_;
    int max_len_;
    const std::vector<int> prefix_;  // target ids forced at steps 1, 2, ... before the search
    detail::KindSteps kind_;
    std::vector<detail::DecodePrefix> prefixes_;  // prefixes_[k + 1]: the prefix after expansion k (0: the root's)
    BeamResult result_;
    std::vector<std::vector<float>> row_scores_;                 // per expansion (as result_.rows): its raw scores
    std::vector<std::shared_ptr<const StepRecord>> row_layers_;  // Transformer, per expansion: its step's attentions
    int step_rows_ = 0;                                          // the first expansion of this target position
    std::vector<Cand> cands_;                                    // this step's children
    std::vector<Candidate> top_;                                 // scratch of expand()
};

}  // namespace

double beamRank(double total_log_prob, int step, double length_penalty) {
    return length_penalty == 0 ? total_log_prob : total_log_prob / std::pow(double(step + 1), length_penalty);
}

BeamResult beamSearch(const Model& model, std::string_view source_text, int beam_width, const DecodeOptions& options) {
    return beamSearch(model, tokenizeSource(model, source_text), beam_width, options);
}

BeamResult beamSearch(const Model& model, const TokenizedText& source, int beam_width, const DecodeOptions& options) {
    return detail::beamSearch(model, source, beam_width, options, detail::defaultPath(model, options));
}

BeamResult beamSearch(const Model& model, const TokenizedText& source, const std::vector<int>& prefix, int beam_width,
                      const DecodeOptions& options) {
    return detail::beamSearch(model, source, beam_width, options, detail::defaultPath(model, options), prefix);
}

const std::vector<float>& BeamResult::attention(int node) const {
    static const std::vector<float> none;
    const int row = nodes[size_t(node)].row;
    return row < 0 ? none : rows[size_t(row)];
}

uint64_t beamTreeBytes(int S, int beam_width, int max_len, int target_vocab) {
    const uint64_t K = uint64_t(std::max(beam_width, 1));
    const uint64_t children = std::min<uint64_t>(K, uint64_t(std::max(target_vocab - 2, 1)));
    // Per step K expansions: an attention row and a row of scores of S floats each, and `children` nodes (each also
    // named once in its parent's list of children).
    const uint64_t rows = 2 * K * uint64_t(std::max(S, 1)) * sizeof(float);
    const uint64_t nodes = K * children * (sizeof(BeamNode) + sizeof(int));
    return uint64_t(std::max(max_len, 1)) * (rows + nodes);
}

BeamResult detail::beamSearch(const Model& model, const TokenizedText& source, int beam_width,
                              const DecodeOptions& options, const StepPath& path, std::vector<int> prefix) {
    if (beam_width < 1) throw InputError("beam width must be at least 1, got " + std::to_string(beam_width));
    if (beam_width > kMaxBeamWidth)
        throw InputError("beam width " + std::to_string(beam_width) + " is too wide: at most " +
                         std::to_string(kMaxBeamWidth) + " hypotheses are searched");
    const TokenizedText src = checkedSource(model, source);
    const int V = model.target_vocab.size();
    for (size_t i = 0; i < prefix.size(); ++i) {
        const int id = prefix[i];
        checkProducible(model, id, "beam search: forced");
        if (id == model.target_vocab.specials().eos && i + 1 < prefix.size())
            throw InputError("beam search: the forced prefix goes on after <eos> (position " + std::to_string(i + 1) +
                             ")");
    }
    const int max_len = std::max(resolveMaxLength(options, int(src.ids.size())), int(prefix.size()));
    const uint64_t bytes = beamTreeBytes(int(src.ids.size()), beam_width, max_len, V);
    if (bytes > kMaxBeamTreeBytes)
        throw InputError("beam width " + std::to_string(beam_width) + " over up to " + std::to_string(max_len) +
                         " target tokens on a source of " + std::to_string(src.ids.size()) + " tokens would keep " +
                         std::to_string(bytes >> 20) + " MiB of attention rows and tree nodes (the limit is " +
                         std::to_string(kMaxBeamTreeBytes >> 20) + " MiB): use a smaller width or length");
    checkInterventions(model, options.interventions, int(src.ids.size()), max_len);
    if (!std::isfinite(options.length_penalty)) throw InputError("beam search: the length penalty must be a number");
    return BeamSearch(model, src, beam_width, max_len, options.length_penalty, path, std::move(prefix),
                      options.interventions)
        .run();
}

}  // namespace attnviz
