#include "nn/decoder.h"

#include "base/errors.h"
#include "kernels/gemv_terms.h"
#include "kernels/row_split.h"
#include "nn/gru.h"
#include "nn/softmax.h"

#include <atomic>
#include <cmath>
#include <cstdint>
#include <string>

namespace attnviz {
namespace {
std::atomic<ContextFolding> g_folding{ContextFolding::Auto};

void checkTargetId(const ModelParams& p, int y) {
    if (y < 0 || y >= p.dec_embedding.rows())
        throw InputError("target token id " + std::to_string(y) + " is outside the target vocabulary (size " +
                         std::to_string(p.dec_embedding.rows()) + ")");
}
}  // namespace

void setContextFolding(ContextFolding mode) { g_folding.store(mode, std::memory_order_relaxed); }
ContextFolding contextFolding() { return g_folding.load(std::memory_order_relaxed); }

Decoder::Decoder(const Model& model, TokenTables* tables) : model_(&model), attention_(model) {
    if (tables && &tables->model() != &model)
        throw InputError("decode options: the token tables belong to another model object");
    if (tables && tables->enabled()) tables_ = tables;
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

    // Auto folds when it pays: the (V, S) product is at most a quarter of the columns it replaces, and fc_out is
    // larger than a core's L2 (2 MB here), so that reading it is what bounds the step. A model whose weights stay
    // in L2 gains nothing and pays for the per-sentence products (bench_decode, small model: greedy vs
    // greedyUnfolded with folding forced on, 0.24 against 0.18 ms in one run).
    constexpr std::int64_t kFoldMinBytes = std::int64_t(2) << 20;
    const ContextFolding mode = contextFolding();
    const int He2 = 2 * c.enc_hid_dim;
    const std::int64_t fc_bytes = std::int64_t(model_->params.fc_out_w.size()) * std::int64_t(sizeof(float));
    fold_ = c.decoder == DecoderKind::Bahdanau &&
            (mode == ContextFolding::Always ||
             (mode == ContextFolding::Auto && 4 * enc.S <= He2 && fc_bytes >= kFoldMinBytes));
    fold_fc_ready_ = false;
    chain_until_ = 0;
    carried_ = false;
    if (fold_) {
        carried_s_.resize(c.dec_hid_dim);
        const Mat& w_ih = model_->params.dec_rnn.w_ih;  // (3H_d, E + 2H_e), columns [x ; c]
        projectRows(columnsOf(w_ih, c.emb_dim, He2, nullptr), w_ih.rows(), enc.outputs, fold_ih_);
        weights_.setZero(fold_ih_.cols());  // a, padded with zeros to whole SIMD packets like fold_ih_'s rows
        x_rows_[TokenTables::Output].resize(model_->params.fc_out_w.rows());
        x_rows_[TokenTables::Input].resize(w_ih.rows());
    }
}

void Decoder::stepFeatures(const EncoderState& enc, int y_prev, int t, const DecoderState& prev, DecoderState& next,
                           AttentionStep& attn, float* features) {
    const ModelConfig& c = model_->config;
    const ModelParams& p = model_->params;
    const int E = c.emb_dim, He = c.enc_hid_dim, Hd = c.dec_hid_dim;
    checkTargetId(p, y_prev);
    next.s.resize(Hd);
    auto x = p.dec_embedding.row(y_prev).transpose();  // (E)

    if (c.decoder == DecoderKind::Bahdanau) {
        if (fold_) {
            foldedState(enc, y_prev, t, prev, next, attn);
        } else {
            attention_.compute(enc, prev.s.data(), t, attn);
            in_.head(E) = x;
            in_.tail(2 * He) = attn.context;
            splitGemv(p.dec_rnn.w_ih, in_.data(), gi_.data());  // (3H_d, E + 2H_e)
            gi_ += p.dec_rnn.b_ih;
            gruCell(p.dec_rnn, gi_.data(), prev.s.data(), next.s.data(), gh_.data());
        }
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

void Decoder::step(const EncoderState& enc, int y_prev, int t, const DecoderState& prev, DecoderState& next,
                   StepOutput& out) {
    if (fold_) return stepFolded(enc, y_prev, t, prev, next, out);
    const ModelParams& p = model_->params;
    float* features = model_->config.decoder == DecoderKind::Bahdanau ? cat_.data() : feat_.data();
    stepFeatures(enc, y_prev, t, prev, next, out.attn, features);
    splitGemv(p.fc_out_w, features, out.log_probs.data());  // (V, features): the largest read of the step
    out.log_probs += p.fc_out_b;
    logSoftmaxInPlace(out.log_probs);
}

// bahdanau with the context folded (W_c c = (W_c Hᵀ) a), one step in three phases:
//   1. both cores: the products that need only s_prev and y_prev and are not at hand: W_hh s_prev and the additive
//      attention's query W_s s_prev (unless carried from the last step), W_ih's x columns times x (unless kept in
//      the token tables); then (this thread) the rest of the attention;
//   2. this thread: gi = W_x x + (W_c Hᵀ) a + b_ih and the GRU gates;
//   3. both cores: logits = fc_out's s columns · s + (W_c Hᵀ) a, one pass over fc_out's rows, + its x columns · x
//      (kept, or computed apart in the same pass) + b.
// foldedState() is phases 1 and 2, shared with teacher forcing (stepFeatures), so both give the same rows.
void Decoder::foldedState(const EncoderState& enc, int y_prev, int t, const DecoderState& prev, DecoderState& next,
                          AttentionStep& attn) {
    const ModelParams& p = model_->params;
    const int Hd = model_->config.dec_hid_dim;
    const Mat& w_ih = p.dec_rnn.w_ih;  // (3H_d, E + 2H_e), columns [x ; c]
    eigen_assert(weights_.size() >= enc.S && fold_ih_.cols() == weights_.size());
    // W_ih's x columns · x (kept per token), and the products of s_prev alone: those are in gh_ and the query already
    // when the last step's output pass computed them for this very state (a session recomputing from an earlier step
    // passes another).
    const float* ih_x = tokenRow(TokenTables::Input, y_prev);
    const GemvTerm ih_x_term = TokenTables::block(*model_, TokenTables::Input, p.dec_embedding.row(y_prev).data());
    GemvJob jobs[3];
    size_t n_jobs = 0;
    if (!ih_x) jobs[n_jobs++] = {{&ih_x_term, 1}, w_ih.rows(), x_rows_[TokenTables::Input].data()};
    const bool carried = carried_ && prev.s == carried_s_;
    carried_ = false;
    GemvTerm hh, query;
    if (!carried) n_jobs += stateJobs(prev.s, hh, query, jobs + n_jobs);
    if (n_jobs > 0) gemvJobs({jobs, n_jobs});
    if (!ih_x) {
        keepRow(TokenTables::Input, y_prev);
        ih_x = x_rows_[TokenTables::Input].data();
    }
    attention_.computeWithQuery(enc, prev.s.data(), t, attn);

    weights_.head(enc.S) = attn.weights;
    gi_ = ConstVecMap(ih_x, w_ih.rows());
    gi_.noalias() += fold_ih_ * weights_;  // (3H_d, S') (S')
    gi_ += p.dec_rnn.b_ih;
    next.s.resize(Hd);
    gruGates(p.dec_rnn, gi_.data(), gh_.data(), prev.s.data(), next.s.data());
}

size_t Decoder::stateJobs(const Vec& s, GemvTerm& hh, GemvTerm& query, GemvJob* jobs) {
    const ModelParams& p = model_->params;
    hh = columnsOf(p.dec_rnn.w_hh, 0, p.dec_rnn.w_hh.cols(), s.data());
    jobs[0] = {{&hh, 1}, p.dec_rnn.w_hh.rows(), gh_.data()};
    if (!attention_.hasQuery()) return 1;
    query = attention_.queryTerm(s.data());
    jobs[1] = {{&query, 1}, model_->config.dec_hid_dim, attention_.queryOutput()};
    return 2;
}

void Decoder::stepFolded(const EncoderState& enc, int y_prev, int t, const DecoderState& prev, DecoderState& next,
                         StepOutput& out) {
    const ModelConfig& c = model_->config;
    const ModelParams& p = model_->params;
    const int He2 = 2 * c.enc_hid_dim, Hd = c.dec_hid_dim;
    const Mat& fc = p.fc_out_w;  // (V, H_d + 2H_e + E), columns [s ; c ; x]
    checkTargetId(p, y_prev);
    foldedState(enc, y_prev, t, prev, next, out.attn);
    next.htilde.resize(0);

    // logits = fc_out's s columns · s + (W_c Hᵀ) a, then + fc_out's x columns · x (kept per token) + b.
    const GemvTerm terms[] = {columnsOf(fc, 0, Hd, next.s.data()),
                              {fold_fc_.data(), fold_fc_.outerStride(), fold_fc_.cols(), weights_.data()}};
    const float* fc_x = tokenRow(TokenTables::Output, y_prev);
    // Not kept: computed apart from the logits in the same pass (each row's x columns with its s columns).
    const GemvTerm fc_x_term = TokenTables::block(*model_, TokenTables::Output, p.dec_embedding.row(y_prev).data());
    const std::span<const GemvTerm> fc_x_apart = fc_x ? std::span<const GemvTerm>() : std::span(&fc_x_term, 1);
    float* const fc_x_out = x_rows_[TokenTables::Output].data();
    if (fold_fc_ready_) {
        // The output pass also computes the next step's products of s (stateJobs), while fc_out streams; each core
        // starts where it stopped last step (cursor_), on rows still in its L2.
        GemvJob jobs[3] = {{terms, fc.rows(), out.log_probs.data(), fc_x_apart, fc_x_out}};
        size_t n_jobs = 1;
        GemvTerm hh, query;
        const bool carry = t < chain_until_;
        if (carry) {
            n_jobs += stateJobs(next.s, hh, query, jobs + 1);
            carried_s_ = next.s;
        }
        gemvJobs({jobs, n_jobs}, &cursor_);
        carried_ = carry;
    } else {  // the first step reads fc_out's context columns once, to fold them, in the same pass as its logits
        gemvTermsProjecting({terms, 1}, columnsOf(fc, Hd, He2, nullptr), enc.outputs, weights_.data(), fc.rows(),
                            fold_fc_, out.log_probs.data(), fc_x_apart, fc_x_out);
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

const float* Decoder::tokenRow(TokenTables::Part part, int y) const {
    return tables_ ? tables_->find(part, y) : nullptr;
}

void Decoder::keepRow(TokenTables::Part part, int y) {
    if (tables_) tables_->keep(part, y, x_rows_[part].data());
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
    for (Eigen::Index i = 0; i < log_probs.rows(); ++i) logSoftmaxInPlace(log_probs.row(i));
}

}  // namespace attnviz
