// The whole model's loss and gradient for a padded batch: the encoder, the decoder inputs and the decoder steps by
// kind (bahdanau, luong), each forward beside its backward; the output layer is nn/seq2seq_output.cpp's. The big products are batch GEMMs
// (the source embeddings × W_ih in both directions, the target embeddings × the embedding columns of the decoder's
// W_ih, the output layer over all steps at once); each decoder step is (B, ·) GEMMs. Nothing is allocated inside
// the step loops. Shapes: see seq2seq_grad.h (time-major step buffers, rows t*B + b).
#include "nn/seq2seq_grad.h"
#include "nn/seq2seq_passes.h"

#include "base/errors.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace attnviz {
namespace {

// splitmix64: a small, seedable, portable generator for the dropout masks.
struct SplitMix {
    uint64_t s;
    uint64_t next() {
        uint64_t z = (s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    double uniform() { return double(next() >> 11) * (1.0 / 9007199254740992.0); }
};

// Fills rows t*B+b (t < len) of x with embedding rows, applying the example's dropout mask.
template <typename T, class Emb>
void embed(const Emb& emb, const TrainExample* const* batch, int B, bool source, int steps, const DropoutSpec& d,
           MatT<T>& x, MatT<T>& mask, const char* what) {
    const int E = int(emb.cols());
    const bool drop = d.p > 0;
    const T scale = drop ? T(1) / (T(1) - T(d.p)) : T(1);
    for (int b = 0; b < B; ++b) {
        const std::vector<int>& ids = source ? batch[b]->source : batch[b]->target;
        const int len = source ? int(ids.size()) : int(ids.size()) - 1;  // target inputs: all but the last
        SplitMix rng{d.seed ^ (0xA0761D6478BD642Full * uint64_t(d.first_index + b + 1)) ^
                     (source ? 0 : 0xE7037ED1A0B428DBull)};
        for (int t = 0; t < len && t < steps; ++t) {
            const int id = ids[size_t(t)];
            if (id < 0 || id >= emb.rows())
                throw InputError(std::string("training example (line ") + std::to_string(batch[b]->line) +
                                 "): " + what + " id " + std::to_string(id) + " is outside the vocabulary");
            const Eigen::Index row = Eigen::Index(t) * B + b;
            x.row(row) = emb.row(id);
            if (source && batch[b]->source_scale != 1.0) x.row(row) *= T(batch[b]->source_scale);
            if (drop) {
                for (int e = 0; e < E; ++e) mask(row, e) = rng.uniform() < double(d.p) ? T(0) : scale;
                x.row(row).array() *= mask.row(row).array();
            }
        }
    }
}

// g.row(id) += dx.row(t*B+b) (⊙ mask) for every real position.
template <typename T, class Emb>
void embedBackward(Emb& g, const TrainExample* const* batch, int B, bool source, const MatT<T>& dx, const MatT<T>& mask,
                   bool drop) {
    for (int b = 0; b < B; ++b) {
        const std::vector<int>& ids = source ? batch[b]->source : batch[b]->target;
        const int len = source ? int(ids.size()) : int(ids.size()) - 1;
        for (int t = 0; t < len; ++t) {
            const Eigen::Index row = Eigen::Index(t) * B + b;
            if (drop)
                g.row(ids[size_t(t)]).array() += dx.row(row).array() * mask.row(row).array();
            else
                g.row(ids[size_t(t)]) += dx.row(row);
        }
    }
}

// Guided alignment: the gold distribution of every (step, example) row into the attention cache.
template <typename T>
void fillGuide(const TrainExample* const* batch, int B, int S, int N, T weight, AttnCache<T>& cache) {
    cache.guide.setZero(Eigen::Index(N) * B, S);
    cache.guided.assign(size_t(N) * size_t(B), 0);
    cache.guide_weight = weight;
    for (int b = 0; b < B; ++b) {
        const int Sb = int(batch[b]->source.size()), Nb = int(batch[b]->target.size()) - 1;
        for (const auto& [j, k] : batch[b]->align) {
            if (j < 0 || j >= Sb || k < 0 || k >= Nb)
                throw InputError("training example (line " + std::to_string(batch[b]->line) + "): alignment link (" +
                                 std::to_string(j) + ", " + std::to_string(k) + ") is outside the sentence pair");
            const Eigen::Index row = Eigen::Index(k) * B + b;
            cache.guide(row, j) += T(1);
            cache.guided[size_t(row)] = 1;
        }
    }
    for (Eigen::Index r = 0; r < cache.guide.rows(); ++r)
        if (cache.guided[size_t(r)]) cache.guide.row(r) /= cache.guide.row(r).sum();
}

}  // namespace

void setAlignment(TrainExample& ex, const std::vector<std::pair<int, int>>& links) {
    const int ws = int(ex.source.size()) - 2, wt = int(ex.target.size()) - 2;  // words, specials not counted
    ex.align.clear();
    for (const auto& [i, j] : links) {
        if (i < 0 || j < 0 || i >= ws || j >= wt)
            throw InputError("training example (line " + std::to_string(ex.line) + "): alignment link " +
                             std::to_string(i) + "-" + std::to_string(j) + " is past the sentence pair (" +
                             std::to_string(std::max(ws, 0)) + " source words, " + std::to_string(std::max(wt, 0)) +
                             " target words)");
        ex.align.emplace_back(i + 1, j);  // source position after <sos>; target word j is produced at step j
    }
    std::sort(ex.align.begin(), ex.align.end());
    ex.align.erase(std::unique(ex.align.begin(), ex.align.end()), ex.align.end());
}

// The passes of the loss and its gradient (nn/seq2seq_passes.h): named, because attribution's shared forward
// (seq2seq_source_grad.cpp) runs them too.
namespace seq2seq_passes {

using Index = Eigen::Index;

// The padded sizes of a batch: S the longest source, N the most decoder steps (the longest target − 1).
void batchSizes(const TrainExample* const* batch, int B, int& S, int& N) {
    int longest_target = 0;
    S = 0;
    for (int b = 0; b < B; ++b) {
        if (batch[b]->source.size() < 2 || batch[b]->target.size() < 2)
            throw InputError("training example (line " + std::to_string(batch[b]->line) +
                             "): source and target need <sos> and <eos>");
        S = std::max(S, int(batch[b]->source.size()));
        longest_target = std::max(longest_target, int(batch[b]->target.size()));
    }
    N = longest_target - 1;
}

// ---- encoder: both GRU directions over the padded batch (masks keep each example to its own length), the
// attention's encoder side h_j = [f_j ; b_j] and its keys, and s_0 = tanh(fc([f_{S_b−1} ; b_0])).
template <typename T>
void encoderForward(const ModelConfig& c, const ModelParamsT<T>& p, const TrainExample* const* batch, int B, int S,
                    int N, const DropoutSpec& dropout, bool backward, Seq2SeqWorkspace<T>& w) {
    const int E = c.emb_dim, He = c.enc_hid_dim, He2 = 2 * He, Hd = c.dec_hid_dim;
    const Index SB = Index(S) * B;
    w.xe.setZero(SB, E);
    if (dropout.p > 0) w.xe_mask.setZero(SB, E);
    embed<T>(p.enc_embedding, batch, B, true, S, dropout, w.xe, w.xe_mask, "source");
    w.src_mask.assign(size_t(SB), 0);
    for (int b = 0; b < B; ++b)
        for (int t = 0; t < int(batch[b]->source.size()); ++t) w.src_mask[size_t(t) * B + b] = 1;
    gruSequenceForward<T>(p.enc_fwd, w.xe, w.src_mask.data(), S, B, false, w.fwd);
    gruSequenceForward<T>(p.enc_bwd, w.xe, w.src_mask.data(), S, B, true, w.bwd);

    attentionResize<T>(c, B, S, N, backward, w.enc, w.attn);
    w.enc.H.setZero();  // padded rows stay 0 (they meet zero gradients in GEMMs; garbage could be NaN)
    for (int b = 0; b < B; ++b) {
        const int Sb = int(batch[b]->source.size());
        w.enc.len[size_t(b)] = Sb;
        if (!batch[b]->interventions.empty()) {
            w.enc.interventions.resize(size_t(B), nullptr);
            w.enc.interventions[size_t(b)] = &batch[b]->interventions;
        }
        for (int j = 0; j < Sb; ++j) {
            w.enc.H.row(Index(b) * S + j).head(He) = w.fwd.h.row(Index(j) * B + b);
            w.enc.H.row(Index(b) * S + j).tail(He) = w.bwd.h.row(Index(j) * B + b);
        }
    }
    attentionPrepare<T>(p, c, w.enc);

    // the forward direction carried f_{S_b−1} to the last step
    w.fin.resize(B, He2);
    w.fin.leftCols(He) = w.fwd.h.middleRows(Index(S - 1) * B, B);
    w.fin.rightCols(He) = w.bwd.h.topRows(B);
    w.states.resize(Index(N) * B + B, Hd);
    auto s0 = w.states.topRows(B);
    s0.noalias() = w.fin * p.enc_fc_w.transpose();  // (B, H_d)
    s0.rowwise() += p.enc_fc_b.transpose();
    s0 = s0.array().tanh().matrix();
}

// w.ds is ∂/∂s_0 and w.enc.dH / dkeys hold the decoder's gradients of the encoder side: w.dxe gets ∂/∂(source
// embeddings) and, when G is not null, the encoder's parameter gradients are added into *G.
template <typename T>
void encoderBackward(const ModelConfig& c, const ModelParamsT<T>& p, const TrainExample* const* batch, int B, int S,
                     bool drop, Seq2SeqWorkspace<T>& w, ModelParamsT<T>* G) {
    const int He = c.enc_hid_dim;
    const Index SB = Index(S) * B;
    auto s0 = w.states.topRows(B);
    w.ds.array() *= T(1) - s0.array().square();
    if (G) {
        G->enc_fc_w.noalias() += w.ds.transpose() * w.fin;
        G->enc_fc_b += w.ds.colwise().sum().transpose();
    }
    w.dfin.noalias() = w.ds * p.enc_fc_w;  // (B, 2H_e)
    attentionPrepareBackward<T>(p, c, w.enc, G);

    // encoder outputs' gradients back to time-major
    w.dHf.setZero(SB, He);
    w.dHr.setZero(SB, He);
    for (int b = 0; b < B; ++b) {
        for (int j = 0; j < int(batch[b]->source.size()); ++j) {
            w.dHf.row(Index(j) * B + b) = w.enc.dH.row(Index(b) * S + j).head(He);
            w.dHr.row(Index(j) * B + b) = w.enc.dH.row(Index(b) * S + j).tail(He);
        }
    }
    w.dHf.middleRows(Index(S - 1) * B, B) += w.dfin.leftCols(He);
    w.dHr.topRows(B) += w.dfin.rightCols(He);
    gruSequenceBackward<T>(p.enc_fwd, w.xe, w.src_mask.data(), S, B, false, w.fwd, w.dHf, G ? &G->enc_fwd : nullptr,
                           &w.dxe);
    gruSequenceBackward<T>(p.enc_bwd, w.xe, w.src_mask.data(), S, B, true, w.bwd, w.dHr, G ? &G->enc_bwd : nullptr,
                           &w.dxe2);
    w.dxe += w.dxe2;
    if (G) embedBackward<T>(G->enc_embedding, batch, B, true, w.dxe, w.xe_mask, drop);
}

// targets (N*B): the token step t of example b must produce, −1 past the example's end.
void fillTargets(const TrainExample* const* batch, int B, int N, int V, std::vector<int>& targets) {
    targets.assign(size_t(N) * size_t(B), -1);
    for (int b = 0; b < B; ++b) {
        const std::vector<int>& y = batch[b]->target;
        for (int t = 0; t + 1 < int(y.size()); ++t) {
            if (y[size_t(t) + 1] < 0 || y[size_t(t) + 1] >= V)
                throw InputError("training example (line " + std::to_string(batch[b]->line) + "): target id " +
                                 std::to_string(y[size_t(t) + 1]) + " is outside the vocabulary");
            targets[size_t(t) * B + b] = y[size_t(t) + 1];
        }
    }
}

// ---- decoder inputs (teacher forcing): x_t = the target embeddings, the token each step must produce, and the
// embedding part of W_ih x_t + b_ih for all steps in one GEMM; sizes the step buffers.
template <typename T>
void decoderInputsForward(const ModelConfig& c, const ModelParamsT<T>& p, const TrainExample* const* batch, int B,
                          int N, const DropoutSpec& dropout, Seq2SeqWorkspace<T>& w) {
    const int E = c.emb_dim, He2 = 2 * c.enc_hid_dim, Hd = c.dec_hid_dim, V = int(p.fc_out_w.rows());
    const Index NB = Index(N) * B;
    w.xd.setZero(NB, E);
    if (dropout.p > 0) w.xd_mask.setZero(NB, E);
    embed<T>(p.dec_embedding, batch, B, false, N, dropout, w.xd, w.xd_mask, "target");
    fillTargets(batch, B, N, V, w.targets);
    w.gix.resize(NB, 3 * Hd);
    w.gix.noalias() = w.xd * p.dec_rnn.w_ih.leftCols(E).transpose();
    w.gix.rowwise() += p.dec_rnn.b_ih.transpose();
    w.gi.resize(B, 3 * Hd);
    w.gh.resize(B, 3 * Hd);
    w.gates.resize(NB, 3 * Hd);
    w.ghn.resize(NB, Hd);
    w.ctx.resize(NB, He2);
    if (c.decoder == DecoderKind::Luong) w.htil.resize(NB, Hd);
}

// w.dgi / w.dgh hold the gradients of every step's W_ih x + b_ih and W_hh s + b_hh, w.dxd the embeddings' gradient
// from other paths (bahdanau's fc_out): the decoder GRU's remaining gradients and the target embeddings'. Only
// parameters' gradients come out of it, so without G it does nothing.
template <typename T>
void decoderInputsBackward(const ModelConfig& c, const ModelParamsT<T>& p, const TrainExample* const* batch, int B,
                           int N, bool drop, Seq2SeqWorkspace<T>& w, ModelParamsT<T>* Gp) {
    if (!Gp) return;
    ModelParamsT<T>& G = *Gp;
    const int E = c.emb_dim;
    G.dec_rnn.w_ih.leftCols(E).noalias() += w.dgi.transpose() * w.xd;
    G.dec_rnn.b_ih += w.dgi.colwise().sum().transpose();
    G.dec_rnn.w_hh.noalias() += w.dgh.transpose() * w.states.topRows(Index(N) * B);
    G.dec_rnn.b_hh += w.dgh.colwise().sum().transpose();
    w.dxd.noalias() += w.dgi * p.dec_rnn.w_ih.leftCols(E);
    embedBackward<T>(G.dec_embedding, batch, B, false, w.dxd, w.xd_mask, drop);
}

// The backward's step buffers, and ∂/∂s_N = 0.
template <typename T>
void resizeStepGrads(const ModelConfig& c, int B, int N, Seq2SeqWorkspace<T>& w) {
    const int He2 = 2 * c.enc_hid_dim, Hd = c.dec_hid_dim;
    w.dgi.resize(Index(N) * B, 3 * Hd);
    w.dgh.resize(Index(N) * B, 3 * Hd);
    w.ds.setZero(B, Hd);
    w.ds2.resize(B, Hd);
    w.dc.resize(B, He2);
}

// ---- bahdanau steps: c_t from s_t, s_{t+1} = GRU([x_t ; c_t], s_t); the output layer's input is [s_{t+1} ; c_t ; x_t].
template <typename T>
void bahdanauForward(const ModelConfig& c, const ModelParamsT<T>& p, int B, int N, Seq2SeqWorkspace<T>& w) {
    const int E = c.emb_dim, He2 = 2 * c.enc_hid_dim, Hd = c.dec_hid_dim;
    const auto& Wih = p.dec_rnn.w_ih;  // (3H_d, E + 2H_e)
    for (int t = 0; t < N; ++t) {
        const Index r = Index(t) * B;
        T* sprev = w.states.data() + r * Hd;
        T* snext = sprev + Index(B) * Hd;
        attentionStepForward<T>(p, c, w.enc, t, sprev, w.attn, w.ctx.data() + r * He2);
        w.gi = w.gix.middleRows(r, B);
        w.gi.noalias() += w.ctx.middleRows(r, B) * Wih.rightCols(He2).transpose();
        gruCellForward<T>(p.dec_rnn, w.gi.data(), sprev, nullptr, B, w.gates.data() + r * 3 * Hd, w.ghn.data() + r * Hd,
                          snext, w.gh.data());
    }
    const Index NB = Index(N) * B;
    w.feat.resize(NB, Hd + He2 + E);
    w.feat.leftCols(Hd) = w.states.bottomRows(NB);
    w.feat.middleCols(Hd, He2) = w.ctx;
    w.feat.rightCols(E) = w.xd;
}

// w.dfeat: ∂/∂[s ; c ; x] of every step. Leaves ∂/∂s_0 in w.ds, the GRU's gate gradients in w.dgi / w.dgh and
// ∂/∂x from fc_out in w.dxd.
template <typename T>
void bahdanauBackward(const ModelConfig& c, const ModelParamsT<T>& p, int B, int N, Seq2SeqWorkspace<T>& w,
                      ModelParamsT<T>* G) {
    const int E = c.emb_dim, He2 = 2 * c.enc_hid_dim, Hd = c.dec_hid_dim;
    const auto& Wih = p.dec_rnn.w_ih;
    resizeStepGrads(c, B, N, w);
    for (int t = N - 1; t >= 0; --t) {
        const Index r = Index(t) * B;
        const int Bt = w.active[size_t(t)];  // the step's rows with a gradient
        const T* sprev = w.states.data() + r * Hd;
        w.ds.topRows(Bt) += w.dfeat.block(r, 0, Bt, Hd);  // ∂/∂s_{t+1}
        w.ds2.setZero();
        gruCellBackward<T>(p.dec_rnn, w.gates.data() + r * 3 * Hd, w.ghn.data() + r * Hd, sprev, w.ds.data(), nullptr,
                           Bt, w.dgi.data() + r * 3 * Hd, w.dgh.data() + r * 3 * Hd, w.ds2.data());
        auto dc = w.dc.topRows(Bt);
        dc = w.dfeat.block(r, Hd, Bt, He2);
        dc.noalias() += w.dgi.middleRows(r, Bt) * Wih.rightCols(He2);  // (B_t, 3H_d) x (3H_d, 2H_e)
        attentionStepBackward<T>(p, c, w.enc, t, sprev, w.attn, w.dc.data(), w.ds2.data(), G, Bt);
        w.ds.swap(w.ds2);
    }
    if (G) G->dec_rnn.w_ih.rightCols(He2).noalias() += w.dgi.transpose() * w.ctx;
    w.dxd = w.dfeat.rightCols(E);
}

// ---- luong steps: s_{t+1} = GRU(x_t [; h̃_t], s_t), c_t from s_{t+1}, h̃_{t+1} = tanh(combine([c_t ; s_{t+1}]))
// (input feeding: h̃ of the step before joins x; none before the first step). The output layer's input is h̃.
template <typename T>
void luongForward(const ModelConfig& c, const ModelParamsT<T>& p, int B, int N, Seq2SeqWorkspace<T>& w) {
    const int He2 = 2 * c.enc_hid_dim, Hd = c.dec_hid_dim;
    const auto& Wih = p.dec_rnn.w_ih;  // (3H_d, E [+ H_d])
    for (int t = 0; t < N; ++t) {
        const Index r = Index(t) * B;
        T* sprev = w.states.data() + r * Hd;
        T* snext = sprev + Index(B) * Hd;
        w.gi = w.gix.middleRows(r, B);
        if (c.input_feeding && t > 0) w.gi.noalias() += w.htil.middleRows(r - B, B) * Wih.rightCols(Hd).transpose();
        gruCellForward<T>(p.dec_rnn, w.gi.data(), sprev, nullptr, B, w.gates.data() + r * 3 * Hd, w.ghn.data() + r * Hd,
                          snext, w.gh.data());
        attentionStepForward<T>(p, c, w.enc, t, snext, w.attn, w.ctx.data() + r * He2);
        auto ht = w.htil.middleRows(r, B);
        ht.noalias() = w.ctx.middleRows(r, B) * p.combine_w.leftCols(He2).transpose();
        ht.noalias() += w.states.middleRows(r + B, B) * p.combine_w.rightCols(Hd).transpose();
        ht = ht.array().tanh().matrix();
    }
}

// w.dfeat: ∂/∂h̃ of every step. Leaves ∂/∂s_0 in w.ds, the GRU's gate gradients in w.dgi / w.dgh and w.dxd zero.
template <typename T>
void luongBackward(const ModelConfig& c, const ModelParamsT<T>& p, int B, int N, Seq2SeqWorkspace<T>& w,
                   ModelParamsT<T>* G) {
    const int E = c.emb_dim, He2 = 2 * c.enc_hid_dim, Hd = c.dec_hid_dim;
    const bool feed = c.input_feeding;
    const auto& Wih = p.dec_rnn.w_ih;
    const Index NB = Index(N) * B;
    resizeStepGrads(c, B, N, w);
    w.dpre.resize(NB, Hd);
    w.dcarry.setZero(B, Hd);  // ∂/∂h̃_t from step t+1's input (input feeding)
    for (int t = N - 1; t >= 0; --t) {
        const Index r = Index(t) * B;
        const int Bt = w.active[size_t(t)];  // the step's rows with a gradient
        auto dp = w.dpre.middleRows(r, Bt);
        dp = ((w.dfeat.middleRows(r, Bt) + w.dcarry.topRows(Bt)).array() *
              (T(1) - w.htil.middleRows(r, Bt).array().square()))
                 .matrix();
        w.dc.topRows(Bt).noalias() = dp * p.combine_w.leftCols(He2);
        w.ds.topRows(Bt).noalias() += dp * p.combine_w.rightCols(Hd);
        const T* snext = w.states.data() + (r + B) * Hd;
        attentionStepBackward<T>(p, c, w.enc, t, snext, w.attn, w.dc.data(), w.ds.data(), G, Bt);
        w.ds2.setZero();
        gruCellBackward<T>(p.dec_rnn, w.gates.data() + r * 3 * Hd, w.ghn.data() + r * Hd, w.states.data() + r * Hd,
                           w.ds.data(), nullptr, Bt, w.dgi.data() + r * 3 * Hd, w.dgh.data() + r * 3 * Hd,
                           w.ds2.data());
        if (feed && t > 0) w.dcarry.topRows(Bt).noalias() = w.dgi.middleRows(r, Bt) * Wih.rightCols(Hd);
        w.ds.swap(w.ds2);
    }
    w.dxd.setZero(NB, E);
    if (!G) return;
    G->combine_w.leftCols(He2).noalias() += w.dpre.transpose() * w.ctx;
    G->combine_w.rightCols(Hd).noalias() += w.dpre.transpose() * w.states.bottomRows(NB);
    if (feed && N > 1)
        G->dec_rnn.w_ih.rightCols(Hd).noalias() += w.dgi.bottomRows(NB - B).transpose() * w.htil.topRows(NB - B);
}

// Guided alignment: Σ_k −Σ_j G_kj log a_kj over the guided rows; a_kj floored at the smallest normal T so an
// underflow stays finite. (Its gradient is added by attentionStepBackward.)
template <typename T>
double alignmentLoss(const AttnCache<T>& cache) {
    double sum = 0;
    for (Index r = 0; r < cache.A.rows(); ++r) {
        if (!cache.guided[size_t(r)]) continue;
        for (Index j = 0; j < cache.A.cols(); ++j) {
            const T gj = cache.guide(r, j);
            if (gj > T(0)) sum -= double(gj) * std::log(double(std::max(cache.A(r, j), std::numeric_limits<T>::min())));
        }
    }
    return sum;
}

// The forward of B examples as far as the output layer's features (w.feat or w.htil); with `backward`, the
// buffers the backward needs. Guided alignment: .align_sum.
template <typename T>
LossSum forwardSteps(const ModelConfig& c, const ModelParamsT<T>& p, const TrainExample* const* batch, int B, int S,
                     int N, const DropoutSpec& dropout, bool backward, Seq2SeqWorkspace<T>& w, T align_weight,
                     T grad_scale) {
    LossSum out;
    encoderForward<T>(c, p, batch, B, S, N, dropout, backward, w);
    const bool guided = align_weight > T(0) && c.span == SpanKind::Global;
    if (guided)
        fillGuide<T>(batch, B, S, N, align_weight * grad_scale, w.attn);
    else
        w.attn.guide.resize(0, 0);
    decoderInputsForward<T>(c, p, batch, B, N, dropout, w);
    if (c.decoder == DecoderKind::Bahdanau)
        bahdanauForward<T>(c, p, B, N, w);
    else
        luongForward<T>(c, p, B, N, w);
    if (guided) out.align_sum = alignmentLoss(w.attn);
    return out;
}

// The backward from the output layer's dlogits (w.logits) of B examples: into *G when G is not null, else only as
// far as w.dxe. w.active[t]: the rows of step t that have a gradient.
template <typename T>
void backwardSteps(const ModelConfig& c, const ModelParamsT<T>& p, const TrainExample* const* batch, int B, int S,
                   int N, bool drop, ModelParamsT<T>* G, Seq2SeqWorkspace<T>& w) {
    const bool bahdanau = c.decoder == DecoderKind::Bahdanau;
    outputBackward<T>(p, bahdanau ? w.feat : w.htil, w, G);
    if (bahdanau)
        bahdanauBackward<T>(c, p, B, N, w, G);
    else
        luongBackward<T>(c, p, B, N, w, G);
    decoderInputsBackward<T>(c, p, batch, B, N, drop, w, G);
    encoderBackward<T>(c, p, batch, B, S, drop, w, G);
}

// The forward, and with `backward` the backward: into *G when G is not null, else only as far as w.dxe.
template <typename T>
LossSum lossAndGradients(const ModelConfig& c, const ModelParamsT<T>& p, const TrainExample* const* batch, int B,
                         const DropoutSpec& dropout, T grad_scale, bool backward, ModelParamsT<T>* G,
                         Seq2SeqWorkspace<T>& w, T align_weight, T label_smoothing) {
    int S = 0, N = 0;
    batchSizes(batch, B, S, N);
    LossSum out;
    if (B == 0) return out;
    out = forwardSteps<T>(c, p, batch, B, S, N, dropout, backward, w, align_weight, grad_scale);
    outputForward<T>(p, c.decoder == DecoderKind::Bahdanau ? w.feat : w.htil, batch, B, grad_scale, backward, w, out,
                     label_smoothing);
    if (!backward) return out;
    w.active.assign(size_t(N), B);
    backwardSteps<T>(c, p, batch, B, S, N, dropout.p > 0, G, w);
    return out;
}

}  // namespace seq2seq_passes

template <typename T>
LossSum seq2seqLossAndGrad(const ModelConfig& c, const ModelParamsT<T>& p, const TrainExample* const* batch, int B,
                           const DropoutSpec& dropout, T grad_scale, ModelParamsT<T>* g, Seq2SeqWorkspace<T>& w,
                           T align_weight, T label_smoothing) {
    return seq2seq_passes::lossAndGradients<T>(c, p, batch, B, dropout, grad_scale, g != nullptr, g, w, align_weight,
                                               label_smoothing);
}

template LossSum seq2seqLossAndGrad<float>(const ModelConfig&, const ModelParams&, const TrainExample* const*, int,
                                           const DropoutSpec&, float, ModelParams*, Seq2SeqWorkspace<float>&, float,
                                           float);
template LossSum seq2seqLossAndGrad<double>(const ModelConfig&, const ModelParamsD&, const TrainExample* const*, int,
                                            const DropoutSpec&, double, ModelParamsD*, Seq2SeqWorkspace<double>&,
                                            double, double);
namespace seq2seq_passes {
#define ATTNVIZ_SEQ2SEQ_PASSES(T)                                                                                      \
    template LossSum forwardSteps<T>(const ModelConfig&, const ModelParamsT<T>&, const TrainExample* const*, int, int, \
                                     int, const DropoutSpec&, bool, Seq2SeqWorkspace<T>&, T, T);                       \
    template void backwardSteps<T>(const ModelConfig&, const ModelParamsT<T>&, const TrainExample* const*, int, int,   \
                                   int, bool, ModelParamsT<T>*, Seq2SeqWorkspace<T>&);
ATTNVIZ_SEQ2SEQ_PASSES(float)
ATTNVIZ_SEQ2SEQ_PASSES(double)
#undef ATTNVIZ_SEQ2SEQ_PASSES
}  // namespace seq2seq_passes

}  // namespace attnviz
