#include "decode/transformer_steps.h"

#include "base/errors.h"
#include "base/row_entropy.h"
#include "decode/attention_views.h"
#include "decode/candidates.h"

#include <algorithm>
#include <limits>
#include <string>

namespace attnviz::detail {

TransformerSteps::TransformerSteps(const Model& model, const std::vector<int>& source_ids, const Interventions* iv,
                                   ThreadPool* pool)
    : net_(model.config.transformer, model.transformer, iv, pool), encoding_(net_.encode(source_ids)) {}

void TransformerSteps::step(TransformerDecoderState& state, int token, TransformerStep& out) const {
    net_.step(encoding_, state, token, out);
}

int TransformerSteps::lengthLimit(int max_len) const {
    // Step i feeds decoder position i, so T steps need positions 0 .. T − 1.
    return net_.maxLength() > 0 ? std::min(max_len, net_.maxLength()) : max_len;
}

void fillTransformerRecord(const TransformerStep& out, int top_k, const SpecialIds& target, StepRecord& rec) {
    const Mat& last = out.cross_attention.back();  // (nhead, S)
    const Vec mean = meanOverHeads(last);
    rec.attention.assign(mean.data(), mean.data() + mean.size());
    rec.scores.assign(size_t(mean.size()), std::numeric_limits<float>::quiet_NaN());
    rec.context.clear();
    topCandidates(out.log_probs, top_k, target, rec.top_k);
    rec.entropy = float(rowEntropy({mean.data(), size_t(mean.size())}));
    rec.cross_attention = out.cross_attention;
    rec.self_attention = out.self_attention;
}

void addTransformerAttention(DecodeResult& r, const std::vector<std::vector<Mat>>& encoder_self,
                             const std::vector<const StepRecord*>& rows) {
    r.encoder_self_attention = encoder_self;
    r.cross_attention.clear();
    r.decoder_self_attention.clear();
    if (rows.empty()) return;
    const int T = int(rows.size());
    const int layers = int(rows[0]->cross_attention.size());
    const int heads = int(rows[0]->cross_attention[0].rows());
    const int S = int(rows[0]->cross_attention[0].cols());
    r.cross_attention.assign(size_t(layers), std::vector<Mat>(size_t(heads), Mat(T, S)));
    r.decoder_self_attention.assign(size_t(layers), std::vector<Mat>(size_t(heads), Mat::Zero(T, T)));
    for (int i = 0; i < T; ++i)
        for (int l = 0; l < layers; ++l) {
            const Mat& cross = rows[size_t(i)]->cross_attention[size_t(l)];  // (nhead, S)
            const Mat& self = rows[size_t(i)]->self_attention[size_t(l)];    // (nhead, i + 1)
            for (int h = 0; h < heads; ++h) {
                r.cross_attention[size_t(l)][size_t(h)].row(i) = cross.row(h);
                r.decoder_self_attention[size_t(l)][size_t(h)].row(i).head(self.cols()) = self.row(h);
            }
        }
}

}  // namespace attnviz::detail
