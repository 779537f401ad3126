// Whole-model forward + backward for a padded batch. The big products are batch GEMMs: the source embeddings ×
// W_ih (both directions), the target embeddings × the embedding columns of the decoder's W_ih, the output layer over
// all steps at once; each decoder step is (B, ·) GEMMs. Nothing is allocated inside the step loops.
#include "train/seq2seq_loss.h"

#include "base/errors.h"
#include "kernels/thread_pool.h"

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

template <typename T>
LossSum seq2seqLossAndGrad(const ModelConfig& c, const ModelParamsT<T>& p, const TrainExample* const* batch, int B,
                           const DropoutSpec& dropout, T grad_scale, ModelParamsT<T>* g, Seq2SeqWorkspace<T>& w,
                           T align_weight) {
    using Index = Eigen::Index;
    const int E = c.emb_dim, He = c.enc_hid_dim, He2 = 2 * He, Hd = c.dec_hid_dim;
    const int V = int(p.fc_out_w.rows());
    const bool bahdanau = c.decoder == DecoderKind::Bahdanau;
    const bool feed = !bahdanau && c.input_feeding;
    const bool backward = g != nullptr;
    const bool drop = dropout.p > 0;
    int S = 0, Tt = 0;
    for (int b = 0; b < B; ++b) {
        if (batch[b]->source.size() < 2 || batch[b]->target.size() < 2)
            throw InputError("training example (line " + std::to_string(batch[b]->line) +
                             "): source and target need <sos> and <eos>");
        S = std::max(S, int(batch[b]->source.size()));
        Tt = std::max(Tt, int(batch[b]->target.size()));
    }
    LossSum out;
    if (B == 0) return out;
    const int N = Tt - 1;
    const Index SB = Index(S) * B, NB = Index(N) * B;

    // ---- encoder: both directions over the padded batch, masks keep each example to its own length
    w.xe.setZero(SB, E);
    if (drop) w.xe_mask.setZero(SB, E);
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
        for (int j = 0; j < Sb; ++j) {
            w.enc.H.row(Index(b) * S + j).head(He) = w.fwd.h.row(Index(j) * B + b);
            w.enc.H.row(Index(b) * S + j).tail(He) = w.bwd.h.row(Index(j) * B + b);
        }
    }
    attentionPrepare<T>(p, c, w.enc);
    const bool guided = align_weight > T(0) && c.span == SpanKind::Global;
    if (guided)
        fillGuide<T>(batch, B, S, N, align_weight * grad_scale, w.attn);
    else
        w.attn.guide.resize(0, 0);

    // s_0 = tanh(fc([f_{S_b−1} ; b_0])); the forward direction carried f_{S_b−1} to the last step
    w.fin.resize(B, He2);
    w.fin.leftCols(He) = w.fwd.h.middleRows(Index(S - 1) * B, B);
    w.fin.rightCols(He) = w.bwd.h.topRows(B);
    w.states.resize(NB + B, Hd);
    {
        auto s0 = w.states.topRows(B);
        s0.noalias() = w.fin * p.enc_fc_w.transpose();  // (B, H_d)
        s0.rowwise() += p.enc_fc_b.transpose();
        s0 = s0.array().tanh().matrix();
    }

    // ---- decoder, teacher forcing
    w.xd.setZero(NB, E);
    if (drop) w.xd_mask.setZero(NB, E);
    embed<T>(p.dec_embedding, batch, B, false, N, dropout, w.xd, w.xd_mask, "target");
    w.targets.assign(size_t(NB), -1);
    for (int b = 0; b < B; ++b) {
        const std::vector<int>& y = batch[b]->target;
        for (int t = 0; t + 1 < int(y.size()); ++t) {
            if (y[size_t(t) + 1] < 0 || y[size_t(t) + 1] >= V)
                throw InputError("training example (line " + std::to_string(batch[b]->line) + "): target id " +
                                 std::to_string(y[size_t(t) + 1]) + " is outside the vocabulary");
            w.targets[size_t(t) * B + b] = y[size_t(t) + 1];
        }
    }
    const auto& Wih = p.dec_rnn.w_ih;  // (3H_d, E + 2H_e) bahdanau, (3H_d, E [+ H_d]) luong
    w.gix.resize(NB, 3 * Hd);
    w.gix.noalias() = w.xd * Wih.leftCols(E).transpose();
    w.gix.rowwise() += p.dec_rnn.b_ih.transpose();
    w.gi.resize(B, 3 * Hd);
    w.gh.resize(B, 3 * Hd);
    w.gates.resize(NB, 3 * Hd);
    w.ghn.resize(NB, Hd);
    w.ctx.resize(NB, He2);
    if (!bahdanau) w.htil.resize(NB, Hd);
    for (int t = 0; t < N; ++t) {
        const Index r = Index(t) * B;
        T* sprev = w.states.data() + r * Hd;
        T* snext = sprev + Index(B) * Hd;
        if (bahdanau) {  // attention from s_{t}; GRU([x ; c], s_t)
            attentionStepForward<T>(p, c, w.enc, t, sprev, w.attn, w.ctx.data() + r * He2);
            w.gi = w.gix.middleRows(r, B);
            w.gi.noalias() += w.ctx.middleRows(r, B) * Wih.rightCols(He2).transpose();
            gruCellForward<T>(p.dec_rnn, w.gi.data(), sprev, nullptr, B, w.gates.data() + r * 3 * Hd,
                              w.ghn.data() + r * Hd, snext, w.gh.data());
        } else {  // GRU(x [; h̃_prev], s_t); attention from s_{t+1}; h̃ = tanh(combine([c ; s]))
            w.gi = w.gix.middleRows(r, B);
            if (feed && t > 0) w.gi.noalias() += w.htil.middleRows(r - B, B) * Wih.rightCols(Hd).transpose();
            gruCellForward<T>(p.dec_rnn, w.gi.data(), sprev, nullptr, B, w.gates.data() + r * 3 * Hd,
                              w.ghn.data() + r * Hd, snext, w.gh.data());
            attentionStepForward<T>(p, c, w.enc, t, snext, w.attn, w.ctx.data() + r * He2);
            auto ht = w.htil.middleRows(r, B);
            ht.noalias() = w.ctx.middleRows(r, B) * p.combine_w.leftCols(He2).transpose();
            ht.noalias() += w.states.middleRows(r + B, B) * p.combine_w.rightCols(Hd).transpose();
            ht = ht.array().tanh().matrix();
        }
    }
    if (bahdanau) {
        w.feat.resize(NB, Hd + He2 + E);
        w.feat.leftCols(Hd) = w.states.bottomRows(NB);
        w.feat.middleCols(Hd, He2) = w.ctx;
        w.feat.rightCols(E) = w.xd;
    }
    if (guided) {  // Σ_k −Σ_j G_kj log a_kj; a_kj floored at the smallest normal T so an underflow stays finite
        const MatT<T>& A = w.attn.A;
        for (Index r = 0; r < NB; ++r) {
            if (!w.attn.guided[size_t(r)]) continue;
            for (int j = 0; j < S; ++j) {
                const T gj = w.attn.guide(r, j);
                if (gj > T(0))
                    out.align_sum -= double(gj) * std::log(double(std::max(A(r, j), std::numeric_limits<T>::min())));
            }
        }
    }
    const MatT<T>& F = bahdanau ? w.feat : w.htil;
    w.logits.resize(NB, V);
    w.logits.noalias() = F * p.fc_out_w.transpose();  // (N*B, V): every step in one GEMM
    w.logits.rowwise() += p.fc_out_b.transpose();

    // ---- loss; the logits become dlogits = (softmax − onehot) · grad_scale
    for (Index i = 0; i < NB; ++i) {
        auto row = w.logits.row(i);
        const int y = w.targets[size_t(i)];
        if (y < 0) {
            if (backward) row.setZero();
            continue;
        }
        const T mx = row.maxCoeff();
        const T lse = mx + std::log((row.array() - mx).exp().sum());
        out.sum += double(lse - row[y]);
        ++out.tokens;
        if (backward) {
            row = ((row.array() - lse).exp() * grad_scale).matrix();
            row[y] -= grad_scale;
        }
    }
    if (!backward) return out;

    // ---- backward
    ModelParamsT<T>& G = *g;
    G.fc_out_w.noalias() += w.logits.transpose() * F;  // (V, F)
    G.fc_out_b += w.logits.colwise().sum().transpose();
    w.dfeat.resize(NB, F.cols());
    w.dfeat.noalias() = w.logits * p.fc_out_w;  // (N*B, F)
    w.dgi.resize(NB, 3 * Hd);
    w.dgh.resize(NB, 3 * Hd);
    w.ds.setZero(B, Hd);
    w.ds2.resize(B, Hd);
    w.dc.resize(B, He2);
    if (bahdanau) {
        for (int t = N - 1; t >= 0; --t) {
            const Index r = Index(t) * B;
            const T* sprev = w.states.data() + r * Hd;
            w.ds += w.dfeat.block(r, 0, B, Hd);  // ∂/∂s_{t+1}
            w.ds2.setZero();
            gruCellBackward<T>(p.dec_rnn, w.gates.data() + r * 3 * Hd, w.ghn.data() + r * Hd, sprev, w.ds.data(),
                               nullptr, B, w.dgi.data() + r * 3 * Hd, w.dgh.data() + r * 3 * Hd, w.ds2.data());
            w.dc = w.dfeat.block(r, Hd, B, He2);
            w.dc.noalias() += w.dgi.middleRows(r, B) * Wih.rightCols(He2);  // (B, 3H_d) x (3H_d, 2H_e)
            attentionStepBackward<T>(p, c, w.enc, t, sprev, w.attn, w.dc.data(), w.ds2.data(), G);
            w.ds.swap(w.ds2);
        }
        G.dec_rnn.w_ih.leftCols(E).noalias() += w.dgi.transpose() * w.xd;
        G.dec_rnn.w_ih.rightCols(He2).noalias() += w.dgi.transpose() * w.ctx;
        w.dxd = w.dfeat.rightCols(E);
    } else {
        w.dpre.resize(NB, Hd);
        w.dcarry.setZero(B, Hd);  // ∂/∂h̃_t from step t+1's input (input feeding)
        for (int t = N - 1; t >= 0; --t) {
            const Index r = Index(t) * B;
            auto dp = w.dpre.middleRows(r, B);
            dp = ((w.dfeat.middleRows(r, B) + w.dcarry).array() * (T(1) - w.htil.middleRows(r, B).array().square()))
                     .matrix();
            w.dc.noalias() = dp * p.combine_w.leftCols(He2);
            w.ds.noalias() += dp * p.combine_w.rightCols(Hd);
            const T* snext = w.states.data() + (r + B) * Hd;
            attentionStepBackward<T>(p, c, w.enc, t, snext, w.attn, w.dc.data(), w.ds.data(), G);
            w.ds2.setZero();
            gruCellBackward<T>(p.dec_rnn, w.gates.data() + r * 3 * Hd, w.ghn.data() + r * Hd, w.states.data() + r * Hd,
                               w.ds.data(), nullptr, B, w.dgi.data() + r * 3 * Hd, w.dgh.data() + r * 3 * Hd,
                               w.ds2.data());
            if (feed && t > 0) w.dcarry.noalias() = w.dgi.middleRows(r, B) * Wih.rightCols(Hd);
            w.ds.swap(w.ds2);
        }
        G.combine_w.leftCols(He2).noalias() += w.dpre.transpose() * w.ctx;
        G.combine_w.rightCols(Hd).noalias() += w.dpre.transpose() * w.states.bottomRows(NB);
        G.dec_rnn.w_ih.leftCols(E).noalias() += w.dgi.transpose() * w.xd;
        if (feed && N > 1)
            G.dec_rnn.w_ih.rightCols(Hd).noalias() += w.dgi.bottomRows(NB - B).transpose() * w.htil.topRows(NB - B);
        w.dxd.setZero(NB, E);
    }
    G.dec_rnn.b_ih += w.dgi.colwise().sum().transpose();
    G.dec_rnn.w_hh.noalias() += w.dgh.transpose() * w.states.topRows(NB);
    G.dec_rnn.b_hh += w.dgh.colwise().sum().transpose();
    w.dxd.noalias() += w.dgi * Wih.leftCols(E);
    embedBackward<T>(G.dec_embedding, batch, B, false, w.dxd, w.xd_mask, drop);

    // s_0: w.ds is ∂/∂s_0
    {
        auto s0 = w.states.topRows(B);
        w.ds.array() *= T(1) - s0.array().square();
        G.enc_fc_w.noalias() += w.ds.transpose() * w.fin;
        G.enc_fc_b += w.ds.colwise().sum().transpose();
        w.dfin.noalias() = w.ds * p.enc_fc_w;  // (B, 2H_e)
    }
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
    gruSequenceBackward<T>(p.enc_fwd, w.xe, w.src_mask.data(), S, B, false, w.fwd, w.dHf, G.enc_fwd, &w.dxe);
    gruSequenceBackward<T>(p.enc_bwd, w.xe, w.src_mask.data(), S, B, true, w.bwd, w.dHr, G.enc_bwd, &w.dxe2);
    w.dxe += w.dxe2;
    embedBackward<T>(G.enc_embedding, batch, B, true, w.dxe, w.xe_mask, drop);
    return out;
}

template LossSum seq2seqLossAndGrad<float>(const ModelConfig&, const ModelParams&, const TrainExample* const*, int,
                                           const DropoutSpec&, float, ModelParams*, Seq2SeqWorkspace<float>&, float);
template LossSum seq2seqLossAndGrad<double>(const ModelConfig&, const ModelParamsD&, const TrainExample* const*, int,
                                            const DropoutSpec&, double, ModelParamsD*, Seq2SeqWorkspace<double>&,
                                            double);

// ---- BatchGradient

BatchGradient::BatchGradient(const ModelConfig& config, const ModelParams& like, int threads)
    : config_(config), threads_(std::max(1, threads)), ws_(size_t(threads_)), grads_(size_t(threads_)) {
    for (int i = 1; i < threads_; ++i) zerosLike(grads_[size_t(i)], like);
}

LossSum BatchGradient::compute(const ModelParams& p, const std::vector<const TrainExample*>& batch, float dropout,
                               uint64_t seed, ModelParams& grads, float align_weight) {
    const int B = int(batch.size());
    int64_t tokens = 0;
    for (const TrainExample* e : batch) tokens += int64_t(e->target.size()) - 1;
    const float scale = tokens > 0 ? 1.0f / float(tokens) : 0.0f;
    const int parts = std::min(threads_, std::max(1, B));
    std::vector<LossSum> sums(static_cast<size_t>(parts));
    auto run = [&](int i) {
        const int b0 = B * i / parts, b1 = B * (i + 1) / parts;
        ModelParams& g = i == 0 ? grads : grads_[size_t(i)];
        setZero(g);
        sums[size_t(i)] =
            seq2seqLossAndGrad<float>(config_, p, batch.data() + b0, b1 - b0, DropoutSpec{dropout, seed, b0}, scale, &g,
                                      ws_[size_t(i)], align_weight);
    };
    ThreadPool::engine().run(parts, run);  // rethrows the first part's exception, if any
    LossSum total;
    for (int i = 0; i < parts; ++i) {
        if (i > 0) addInto(grads, grads_[size_t(i)]);
        total.sum += sums[size_t(i)].sum;
        total.tokens += sums[size_t(i)].tokens;
        total.align_sum += sums[size_t(i)].align_sum;
    }
    return total;
}

LossSum BatchGradient::loss(const ModelParams& p, const std::vector<const TrainExample*>& batch) {
    const int B = int(batch.size());
    const int parts = std::min(threads_, std::max(1, B));
    std::vector<LossSum> sums(static_cast<size_t>(parts));
    auto run = [&](int i) {
        const int b0 = B * i / parts, b1 = B * (i + 1) / parts;
        sums[size_t(i)] = seq2seqLossAndGrad<float>(config_, p, batch.data() + b0, b1 - b0, DropoutSpec{}, 0.0f,
                                                    nullptr, ws_[size_t(i)]);
    };
    ThreadPool::engine().run(parts, run);
    LossSum total;
    for (const LossSum& s : sums) {
        total.sum += s.sum;
        total.tokens += s.tokens;
    }
    return total;
}

}  // namespace attnviz
