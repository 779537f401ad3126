#include "decoder.h"

#include "errors.h"
#include "gru.h"
#include "row_split.h"

#include <cmath>
#include <string>

namespace attnviz {

void logSoftmaxInPlace(Vec& v) {
    const float mx = v.maxCoeff();
    const float lse = mx + std::log((v.array() - mx).exp().sum());
    v.array() -= lse;
}

Decoder::Decoder(const Model& model) : model_(&model), attention_(model) {
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
    const ModelConfig& c = model_->config;
    const ModelParams& p = model_->params;
    const int E = c.emb_dim, He = c.enc_hid_dim, Hd = c.dec_hid_dim;
    if (y_prev < 0 || y_prev >= p.dec_embedding.rows())
        throw InputError("target token id " + std::to_string(y_prev) + " is outside the target vocabulary (size " +
                         std::to_string(p.dec_embedding.rows()) + ")");
    next.s.resize(Hd);
    auto x = p.dec_embedding.row(y_prev).transpose();  // (E)

    if (c.decoder == DecoderKind::Bahdanau) {
        attention_.compute(enc, prev.s.data(), t, attn);
        in_.head(E) = x;
        in_.tail(2 * He) = attn.context;
        splitGemv(p.dec_rnn.w_ih, in_.data(), gi_.data());  // (3H_d, E + 2H_e)
        gi_ += p.dec_rnn.b_ih;
        gruCell(p.dec_rnn, gi_.data(), prev.s.data(), next.s.data(), gh_.data());
        VecMap f(features, Hd + 2 * He + E);  // [s ; c ; x]
        f.head(Hd) = next.s;
        f.segment(Hd, 2 * He) = attn.context;
        f.tail(E) = x;
        next.htilde.resize(0);
    } else {
        in_.head(E) = x;
        if (c.input_feeding) in_.tail(Hd) = prev.htilde;
        splitGemv(p.dec_rnn.w_ih, in_.data(), gi_.data());  // (3H_d, E [+ H_d])
        gi_ += p.dec_rnn.b_ih;
        gruCell(p.dec_rnn, gi_.data(), prev.s.data(), next.s.data(), gh_.data());
        attention_.compute(enc, next.s.data(), t, attn);
        cat_.head(2 * He) = attn.context;
        cat_.tail(Hd) = next.s;
        next.htilde.resize(Hd);
        next.htilde.noalias() = p.combine_w * cat_;  // (H_d, 2H_e + H_d)
        next.htilde = next.htilde.array().tanh().matrix();
        VecMap(features, Hd) = next.htilde;
    }
}

void Decoder::step(const EncoderState& enc, int y_prev, int t, const DecoderState& prev, DecoderState& next, StepOutput& out) {
    const ModelParams& p = model_->params;
    float* features = model_->config.decoder == DecoderKind::Bahdanau ? cat_.data() : feat_.data();
    stepFeatures(enc, y_prev, t, prev, next, out.attn, features);
    splitGemv(p.fc_out_w, features, out.log_probs.data());  // (V, features): the largest read of the step
    out.log_probs += p.fc_out_b;
    logSoftmaxInPlace(out.log_probs);
}

void Decoder::logProbs(const Mat& features, Mat& log_probs) const {
    const ModelParams& p = model_->params;
    log_probs.resize(features.rows(), p.fc_out_w.rows());
    auto columns = [&](Eigen::Index begin, Eigen::Index end) {  // (T, V): fc_out read once for all steps
        log_probs.middleCols(begin, end - begin).noalias() =
            features * p.fc_out_w.middleRows(begin, end - begin).transpose();
    };
    splitRows(p.fc_out_w.rows(), std::int64_t(p.fc_out_w.size()) * std::int64_t(sizeof(float)), columns);
    log_probs.rowwise() += p.fc_out_b.transpose();
    for (Eigen::Index i = 0; i < log_probs.rows(); ++i) {
        auto r = log_probs.row(i);
        const float mx = r.maxCoeff();
        const float lse = mx + std::log((r.array() - mx).exp().sum());
        r.array() -= lse;
    }
}

} // namespace attnviz
