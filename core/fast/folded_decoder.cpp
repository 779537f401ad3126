#include "fast/folded_decoder.h"

#include "base/errors.h"
#include "nn/gru.h"
#include "nn/softmax.h"

#include <cstdint>

namespace attnviz {

bool foldingPays(const Model& model, int S) {
    constexpr std::int64_t kFoldMinBytes = std::int64_t(2) << 20;  // a core's L2 on the machines measured
    const ModelConfig& c = model.config;
    const std::int64_t fc_bytes = std::int64_t(model.params.fc_out_w.size()) * std::int64_t(sizeof(float));
    return c.decoder == DecoderKind::Bahdanau && 4 * S <= 2 * c.enc_hid_dim && fc_bytes >= kFoldMinBytes;
}

FoldedDecoder::FoldedDecoder(const Model& model, TokenTables* tables, ThreadPool* pool)
    : model_(&model), pool_(pool), attention_(model, pool) {
    if (model.config.decoder != DecoderKind::Bahdanau)
        throw InputError("folded decoder: only a bahdanau model has a context to fold");
    if (tables && &tables->model() != &model)
        throw InputError("decode options: the token tables belong to another model object");
    if (tables && tables->enabled()) tables_ = tables;
    const ModelConfig& c = model.config;
    const int Hd = c.dec_hid_dim;
    query_.resize(Hd);
    gi_.resize(3 * Hd);
    gh_.resize(3 * Hd);
    carried_s_.resize(Hd);
    x_rows_[TokenTables::Output].resize(model.params.fc_out_w.rows());
    x_rows_[TokenTables::Input].resize(model.params.dec_rnn.w_ih.rows());
}

void FoldedDecoder::begin(const EncoderState& enc, DecoderState& initial, StepOutput& out) {
    const ModelConfig& c = model_->config;
    attention_.prepare(enc.S, out.attn);
    out.log_probs.resize(model_->params.fc_out_b.size());
    initial.s = enc.s0;
    initial.htilde.resize(0);
    fold_fc_ready_ = false;
    chain_until_ = 0;
    carried_ = false;
    const Mat& w_ih = model_->params.dec_rnn.w_ih;  // (3H_d, E + 2H_e), columns [x ; c]
    // (3H_d, S') W_c Hᵀ
    projectRows(columnsOf(w_ih, c.emb_dim, 2 * c.enc_hid_dim, nullptr), w_ih.rows(), enc.outputs, fold_ih_, pool_);
    weights_.setZero(fold_ih_.cols());  // a, padded with zeros to whole SIMD packets like fold_ih_'s rows
}

void FoldedDecoder::stepFeatures(const EncoderState& enc, int y_prev, int t, const DecoderState& prev,
                                 DecoderState& next, AttentionStep& attn, float* features) {
    checkTargetId(model_->params, y_prev);
    foldedState(enc, y_prev, t, prev, next, attn);
    writeBahdanauFeatures(next.s, attn.context, model_->params.dec_embedding.row(y_prev).data(), model_->config.emb_dim,
                          features);  // [s ; c ; x]
    next.htilde.resize(0);
}

void FoldedDecoder::foldedState(const EncoderState& enc, int y_prev, int t, const DecoderState& prev,
                                DecoderState& next, AttentionStep& attn) {
    const ModelParams& p = model_->params;
    const Mat& w_ih = p.dec_rnn.w_ih;  // (3H_d, E + 2H_e), columns [x ; c]
    eigen_assert(weights_.size() >= enc.S && fold_ih_.cols() == weights_.size());
    // Phase 1. W_ih's x columns · x (kept per token), and the products of s_prev alone: those are in gh_ and query_
    // already when the last step's output pass computed them for this very state (a session recomputing from an
    // earlier step passes another).
    const float* ih_x = tokenRow(TokenTables::Input, y_prev);
    const GemvTerm ih_x_term = TokenTables::block(*model_, TokenTables::Input, p.dec_embedding.row(y_prev).data());
    GemvJob jobs[3];
    size_t n_jobs = 0;
    if (!ih_x) jobs[n_jobs++] = {{&ih_x_term, 1}, w_ih.rows(), x_rows_[TokenTables::Input].data()};
    const bool carried = carried_ && prev.s == carried_s_;
    carried_ = false;
    GemvTerm hh, query;
    if (!carried) n_jobs += stateJobs(prev.s, hh, query, jobs + n_jobs);
    if (n_jobs > 0) gemvJobs({jobs, n_jobs}, pool_);
    if (!ih_x) {
        keepRow(TokenTables::Input, y_prev);
        ih_x = x_rows_[TokenTables::Input].data();
    }
    attention_.computeWithQuery(enc, prev.s.data(), query_.data(), t, attn);  // (S) a; (2H_e) c

    // Phase 2.
    weights_.head(enc.S) = attn.weights;
    gi_ = ConstVecMap(ih_x, w_ih.rows());  // (3H_d) W_x x
    gi_.noalias() += fold_ih_ * weights_;  // + (W_c Hᵀ) a: (3H_d, S') (S')
    gi_ += p.dec_rnn.b_ih;
    next.s.resize(model_->config.dec_hid_dim);
    gruGates(p.dec_rnn, gi_.data(), gh_.data(), prev.s.data(), next.s.data());  // (H_d) s
}

size_t FoldedDecoder::stateJobs(const Vec& s, GemvTerm& hh, GemvTerm& query, GemvJob* jobs) {
    const ModelParams& p = model_->params;
    hh = columnsOf(p.dec_rnn.w_hh, 0, p.dec_rnn.w_hh.cols(), s.data());
    jobs[0] = {{&hh, 1}, p.dec_rnn.w_hh.rows(), gh_.data()};
    if (!attention_.hasQuery()) return 1;
    query = attention_.queryTerm(s.data());
    jobs[1] = {{&query, 1}, model_->config.dec_hid_dim, query_.data()};
    return 2;
}

void FoldedDecoder::step(const EncoderState& enc, int y_prev, int t, const DecoderState& prev, DecoderState& next,
                         StepOutput& out) {
    const ModelConfig& c = model_->config;
    const ModelParams& p = model_->params;
    const Mat& fc = p.fc_out_w;  // (V, H_d + 2H_e + E), columns [s ; c ; x]
    checkTargetId(p, y_prev);
    foldedState(enc, y_prev, t, prev, next, out.attn);
    next.htilde.resize(0);

    // Phase 3. logits = fc_out's s columns · s + (W_c Hᵀ) a, then + fc_out's x columns · x (kept per token) + b.
    const GemvTerm terms[] = {columnsOf(fc, 0, c.dec_hid_dim, next.s.data()),
                              {fold_fc_.data(), fold_fc_.outerStride(), fold_fc_.cols(), weights_.data()}};
    const float* fc_x = tokenRow(TokenTables::Output, y_prev);
    // Not kept: computed apart from the logits in the same pass (each row's x columns with its s columns).
    const GemvTerm fc_x_term = TokenTables::block(*model_, TokenTables::Output, p.dec_embedding.row(y_prev).data());
    const std::span<const GemvTerm> fc_x_apart = fc_x ? std::span<const GemvTerm>() : std::span(&fc_x_term, 1);
    float* const fc_x_out = x_rows_[TokenTables::Output].data();
    if (fold_fc_ready_) {
        outputPass(t, next, terms, fc_x_apart, fc_x_out, out);
    } else {  // the first step reads fc_out's context columns once, to fold them, in the same pass as its logits
        gemvTermsProjecting({terms, 1}, columnsOf(fc, c.dec_hid_dim, 2 * c.enc_hid_dim, nullptr), enc.outputs,
                            weights_.data(), fc.rows(), fold_fc_, out.log_probs.data(), pool_, fc_x_apart, fc_x_out);
        fold_fc_ready_ = true;
    }
    if (!fc_x) {
        keepRow(TokenTables::Output, y_prev);
        fc_x = x_rows_[TokenTables::Output].data();
    }
    out.log_probs += ConstVecMap(fc_x, fc.rows());
    out.log_probs += p.fc_out_b;
    logSoftmaxInPlace(out.log_probs);
}

void FoldedDecoder::outputPass(int t, const DecoderState& next, std::span<const GemvTerm> terms,
                               std::span<const GemvTerm> fc_x_apart, float* fc_x_out, StepOutput& out) {
    // The output pass also computes the next step's products of s (stateJobs), while fc_out streams; each core
    // starts where it stopped last step (cursor_), on rows still in its cache.
    GemvJob jobs[3] = {{terms, model_->params.fc_out_w.rows(), out.log_probs.data(), fc_x_apart, fc_x_out}};
    size_t n_jobs = 1;
    GemvTerm hh, query;
    const bool carry = t < chain_until_;
    if (carry) {
        n_jobs += stateJobs(next.s, hh, query, jobs + 1);
        carried_s_ = next.s;
    }
    gemvJobs({jobs, n_jobs}, pool_, &cursor_);
    carried_ = carry;
}

const float* FoldedDecoder::tokenRow(TokenTables::Part part, int y) const {
    return tables_ ? tables_->find(part, y) : nullptr;
}

void FoldedDecoder::keepRow(TokenTables::Part part, int y) {
    if (tables_) tables_->keep(part, y, x_rows_[part].data());
}

}  // namespace attnviz
