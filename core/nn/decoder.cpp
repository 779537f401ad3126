#include "nn/decoder.h"

#include "base/errors.h"
#include "kernels/row_split.h"
#include "nn/gru.h"
#include "nn/softmax.h"

#include <cmath>
#include <cstdint>
#include <string>

namespace attnviz {

void checkTargetId(const ModelParams& p, int y) {
    if (y < 0 || y >= p.dec_embedding.rows())
        throw InputError("target token id " + std::to_string(y) + " is outside the target vocabulary (size " +
                         std::to_string(p.dec_embedding.rows()) + ")");
}

void writeBahdanauFeatures(const Vec& s, const Vec& context, const float* x, int E, float* features) {
    const Eigen::Index Hd = s.size(), He2 = context.size();
    VecMap f(features, Hd + He2 + E);  // [s ; c ; x]
    f.head(Hd) = s;
    f.segment(Hd, He2) = context;
    f.tail(E) = ConstVecMap(x, E);
}

Decoder::Decoder(const Model& model, ThreadPool* pool) : model_(&model), pool_(pool), attention_(model, pool) {
    const ModelConfig& c = model.config;
    const int E = c.emb_dim, He = c.enc_hid_dim, Hd = c.dec_hid_dim;
    gi_.resize(3 * Hd);
    gh_.resize(3 * Hd);
    if (c.decoder == DecoderKind::Bahdanau) {
        in_.resize(E + 2 * He);
        cat_.resize(Hd + 2 * He + E);
    } else {
        in_.resize(E + (c.input_feeding ? Hd : 0));
        cat_.resize(2 * He + Hd);
        feat_.resize(Hd);
    }
}

void Decoder::begin(const EncoderState& enc, DecoderState& initial, StepOutput& out) {
    const ModelConfig& c = model_->config;
    attention_.prepare(enc.S, out.attn);
    out.log_probs.resize(model_->params.fc_out_b.size());
    initial.s = enc.s0;
    if (c.decoder == DecoderKind::Luong)
        initial.htilde = Vec::Zero(c.dec_hid_dim);
    else
        initial.htilde.resize(0);
}

void Decoder::stepFeatures(const EncoderState& enc, int y_prev, int t, const DecoderState& prev, DecoderState& next,
                           AttentionStep& attn, float* features) {
    checkTargetId(model_->params, y_prev);
    next.s.resize(model_->config.dec_hid_dim);
    if (model_->config.decoder == DecoderKind::Bahdanau)
        bahdanauFeatures(enc, y_prev, t, prev, next, attn, features);
    else
        luongFeatures(enc, y_prev, t, prev, next, attn, features);
}

void Decoder::bahdanauFeatures(const EncoderState& enc, int y_prev, int t, const DecoderState& prev, DecoderState& next,
                               AttentionStep& attn, float* features) {
    const ModelParams& p = model_->params;
    const int E = model_->config.emb_dim;
    auto x = p.dec_embedding.row(y_prev).transpose();  // (E) x = E_t[y_prev]
    attention_.compute(enc, prev.s.data(), t, attn);   // (S) a from s_prev; (2H_e) c = Σ a_j h_j
    in_.head(E) = x;                                   // (E + 2H_e) [x ; c]
    in_.tail(attn.context.size()) = attn.context;
    splitGemv(p.dec_rnn.w_ih, in_.data(), gi_.data(), pool_);  // (3H_d) W_ih [x ; c], W_ih (3H_d, E + 2H_e)
    gi_ += p.dec_rnn.b_ih;
    gruCell(p.dec_rnn, gi_.data(), prev.s.data(), next.s.data(), gh_.data(), pool_);  // (H_d) s = GRU(., s_prev)
    writeBahdanauFeatures(next.s, attn.context, p.dec_embedding.row(y_prev).data(), E, features);  // [s ; c ; x]
    next.htilde.resize(0);
}

void Decoder::luongFeatures(const EncoderState& enc, int y_prev, int t, const DecoderState& prev, DecoderState& next,
                            AttentionStep& attn, float* features) {
    const ModelConfig& c = model_->config;
    const ModelParams& p = model_->params;
    const int E = c.emb_dim, He = c.enc_hid_dim, Hd = c.dec_hid_dim;
    in_.head(E) = p.dec_embedding.row(y_prev).transpose();     // (E) x = E_t[y_prev]
    if (c.input_feeding) in_.tail(Hd) = prev.htilde;           // (E + H_d) x' = [x ; h̃_prev]
    splitGemv(p.dec_rnn.w_ih, in_.data(), gi_.data(), pool_);  // (3H_d) W_ih x', W_ih (3H_d, E [+ H_d])
    gi_ += p.dec_rnn.b_ih;
    gruCell(p.dec_rnn, gi_.data(), prev.s.data(), next.s.data(), gh_.data(), pool_);  // (H_d) s = GRU(x', s_prev)
    attention_.compute(enc, next.s.data(), t, attn);  // (S) a from s; (2H_e) c = Σ a_j h_j
    cat_.head(2 * He) = attn.context;                 // (2H_e + H_d) [c ; s]
    cat_.tail(Hd) = next.s;
    next.htilde.resize(Hd);
    next.htilde.noalias() = p.combine_w * cat_;         // (H_d) combine [c ; s], combine (H_d, 2H_e + H_d)
    next.htilde = next.htilde.array().tanh().matrix();  // h̃ = tanh(.)
    VecMap(features, Hd) = next.htilde;
}

void Decoder::step(const EncoderState& enc, int y_prev, int t, const DecoderState& prev, DecoderState& next,
                   StepOutput& out) {
    const ModelParams& p = model_->params;
    float* features = model_->config.decoder == DecoderKind::Bahdanau ? cat_.data() : feat_.data();
    stepFeatures(enc, y_prev, t, prev, next, out.attn, features);
    splitGemv(p.fc_out_w, features, out.log_probs.data(), pool_);  // (V) fc_out (V, features): the step's largest read
    out.log_probs += p.fc_out_b;
    logSoftmaxInPlace(out.log_probs);  // (V) log p
}

void Decoder::logProbs(const Mat& features, Mat& log_probs) const {
    const ModelParams& p = model_->params;
    log_probs.resize(features.rows(), p.fc_out_w.rows());
    auto columns = [&](Eigen::Index begin, Eigen::Index end) {  // (T, V): fc_out read once for all steps
        log_probs.middleCols(begin, end - begin).noalias() =
            features * p.fc_out_w.middleRows(begin, end - begin).transpose();
    };
    splitRows(p.fc_out_w.rows(), std::int64_t(p.fc_out_w.size()) * std::int64_t(sizeof(float)), columns, pool_);
    log_probs.rowwise() += p.fc_out_b.transpose();
    for (Eigen::Index i = 0; i < log_probs.rows(); ++i) logSoftmaxInPlace(log_probs.row(i));
}

}  // namespace attnviz
