#include "explain/word_explanation.h"

namespace attnviz {

Explanation mergeExplanation(const DecodeResult& r, const Explanation& e, MergeSides sides) {
    if (sides == MergeSides::None || r.source_words.empty()) return e;
    Explanation out = e;
    if (!e.ig_delta.empty() && mergesTarget(sides)) {
        Mat delta(Eigen::Index(e.ig_delta.size()), 1);
        for (size_t t = 0; t < e.ig_delta.size(); ++t) delta(Eigen::Index(t), 0) = float(e.ig_delta[t]);
        const Mat merged = meanRows(delta, r.target_words);
        out.ig_delta.assign(merged.data(), merged.data() + merged.size());
    }
    out.values = mergeMatrix(r, e.values, sides);
    return out;
}

}  // namespace attnviz
