#include "decode/candidates.h"

#include "base/errors.h"
#include "base/utf8.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attnviz::detail {
namespace {

// The producible ids as ranges: "1 or 3..99" (an attnviz vocabulary of 100), "0..64999" (a Marian one).
std::string producibleText(const SpecialIds& t, int V) {
    std::vector<std::string> ranges;
    for (int first = 0; first < V;) {
        if (!producible(first, t)) {
            ++first;
            continue;
        }
        int last = first;
        while (last + 1 < V && producible(last + 1, t)) ++last;
        ranges.push_back(first == last ? std::to_string(first) : std::to_string(first) + ".." + std::to_string(last));
        first = last + 1;
    }
    std::string text;
    for (size_t i = 0; i < ranges.size(); ++i)
        text += (i == 0 ? "" : i + 1 == ranges.size() ? " or " : ", ") + ranges[i];
    return text;
}

// A configured Transformer's forbidden_outputs (log p = −∞ at every step).
bool forbids(const Model& model, int id) {
    const std::vector<int>& forbidden = model.config.transformer.forbidden_outputs;
    return model.config.isTransformer() && std::binary_search(forbidden.begin(), forbidden.end(), id);
}

}  // namespace

int producibleCount(const Vocabulary& target) {
    int n = 0;
    for (int id = 0; id < target.size(); ++id) n += producible(id, target.specials());
    return n;
}

void checkProducible(const Model& model, int id, const std::string& what) {
    const SpecialIds& t = model.target_vocab.specials();
    const int V = model.target_vocab.size();
    if (id < 0 || id >= V || !producible(id, t))
        throw InputError(what + " token id " + std::to_string(id) +
                         " cannot be produced (valid: " + producibleText(t, V) + ")");
    if (forbids(model, id))
        throw InputError(what + " token id " + std::to_string(id) + " (" + printable(model.target_vocab.token(id)) +
                         ") is one the model forbids (its bad_words_ids)");
}

int bestToken(const Vec& lp, const SpecialIds& target) {
    int best = -1;
    float best_v = -std::numeric_limits<float>::infinity();
    for (int i = 0; i < int(lp.size()); ++i) {
        if (!producible(i, target)) continue;
        if (best < 0 || lp[i] > best_v) best = i, best_v = lp[i];  // strict: ties keep the lower id
    }
    return best;
}

void topCandidates(const Vec& lp, int k, const SpecialIds& target, std::vector<Candidate>& out) {
    out.clear();
    if (k <= 0) return;
    for (int i = 0; i < int(lp.size()); ++i) {
        const float v = lp[i];
        if (!producible(i, target) || v == -std::numeric_limits<float>::infinity()) continue;
        if (int(out.size()) == k && !(v > out.back().log_prob)) continue;
        // insert after every candidate with log_prob >= v (lower ids first among equals)
        auto pos = std::find_if(out.begin(), out.end(), [&](const Candidate& c) { return c.log_prob < v; });
        if (int(out.size()) == k) out.pop_back();
        out.insert(pos, Candidate{i, 0.0f, v});
    }
    for (Candidate& c : out) c.prob = std::exp(c.log_prob);
}

}  // namespace attnviz::detail

namespace attnviz {

bool canProduce(const Model& model, int id) {
    return id >= 0 && id < model.target_vocab.size() && detail::producible(id, model.target_vocab.specials()) &&
           !detail::forbids(model, id);
}

}  // namespace attnviz
