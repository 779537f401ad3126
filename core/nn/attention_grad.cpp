// Attention backward, per example b and window [lo, hi] (n positions):
//   c = Σ_j a_j h_j                     → da_j = dc · h_j,  dh_j += a_j dc
//   local_p: a_j = α_j g_j, g_j = exp(−(j − p)² / (2σ²)), σ = D/2
//                                       → dα_j = da_j g_j,  dp = Σ_j da_j α_j g_j (j − p) / σ²
//            p = S_b sigmoid(u), u = v_p · tanh(W_p q) → du = dp S_b σ(u)(1 − σ(u))
//   α = softmax(e) over the window      → de_j = α_j (dα_j − Σ_k α_k dα_k)
//   guided: + λ(−Σ_j G_j log a_j), ΣG = 1 → de_j += λ (a_j − G_j)
//   additive e_j = v · tanh(W_s q + k_j) → dpre_j = de_j v ⊙ (1 − tanh²), dk_j += dpre_j, d(W_s q) += Σ_j dpre_j
//   dot e_j = q · h_j (· 1/√H_d)        → dq += Σ de_j h_j, dh_j += de_j q
//   general e_j = q · k_j, k_j = W h_j  → dq += Σ de_j k_j, dk_j += de_j q
#include "nn/attention_grad.h"

#include "nn/attention_window.h"
#include "nn/softmax.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attnviz {
namespace {

// The scores e (n) of the window from `lo` with the knocked-out positions at −∞ (exp gives exactly 0 there);
// false when every position of the window is knocked out.
template <class Scores>
bool knockOut(const Interventions& iv, int lo, Scores& e) {
    const int n = int(e.size());
    int knocked = 0;
    for (const int j : iv.knockout)
        if (j >= lo && j < lo + n && e[j - lo] != -std::numeric_limits<typename Scores::Scalar>::infinity()) {
            e[j - lo] = -std::numeric_limits<typename Scores::Scalar>::infinity();
            ++knocked;
        }
    return knocked < n;
}

// The additive score e_j = v · T_j (T_j = tanh(W_s q + k_j), the window's rows Tb (n, H_d)) backward from de (n):
// dpre_j = de_j v ∘ (1 − T_j²) is added into dkeys (n, H_d) and, summed over j, into dwq (1, H_d); *gv += Tbᵀ de.
// dpre is built row by row: as one expression, the outer product de vᵀ read de strided.
template <typename T, class Tanhs, class De, class Keys, class Wq>
void additiveScoreBackward(const Tanhs& Tb, const De& de, const VecT<T>& v, MatT<T>& dpre_buffer, Keys&& dkeys,
                           Wq&& dwq, VecT<T>* gv) {
    const Eigen::Index n = Tb.rows();
    auto dpre = dpre_buffer.topRows(n);
    for (Eigen::Index i = 0; i < n; ++i)
        dpre.row(i) = ((de[i] * v.transpose().array()) * (T(1) - Tb.row(i).array() * Tb.row(i).array())).matrix();
    if (gv) gv->noalias() += Tb.transpose() * de;
    dkeys += dpre;
    dwq += dpre.colwise().sum();
}

}  // namespace

template <typename T>
void attentionResize(const ModelConfig& c, int B, int S, int K, bool backward, AttnEncoder<T>& enc,
                     AttnCache<T>& cache) {
    const int He2 = 2 * c.enc_hid_dim, Hd = c.dec_hid_dim;
    const bool additive = c.score == ScoreKind::Additive;
    const bool keys = additive || c.score == ScoreKind::General;
    const bool localp = c.span == SpanKind::LocalP;
    enc.B = B;
    enc.inputs = B;
    enc.input_of.clear();
    enc.S = S;
    enc.len.resize(B);
    enc.interventions.clear();
    enc.H.resize(Eigen::Index(B) * S, He2);
    if (keys) enc.keys.resize(Eigen::Index(B) * S, Hd);
    if (backward) {
        enc.dH.setZero(Eigen::Index(B) * S, He2);
        if (keys) enc.dkeys.setZero(Eigen::Index(B) * S, Hd);
    }
    const Eigen::Index rows = Eigen::Index(K) * B;
    cache.A.resize(rows, S);
    if (localp) {
        cache.alpha.resize(rows, S);
        cache.pq.resize(rows, Hd);
        cache.sig.resize(rows);
        cache.dpq.resize(B, Hd);
    }
    if (additive) {
        cache.tanhs.resize(rows * S, Hd);
        cache.wq.resize(rows, Hd);
        cache.dwq.resize(B, Hd);
        cache.dpre.resize(S, Hd);
    }
    cache.center.resize(rows);
    cache.lo.resize(size_t(rows));
    cache.hi.resize(size_t(rows));
    cache.e.resize(S);
    cache.da.resize(S);
}

template <typename T>
void attentionPrepare(const ModelParamsT<T>& p, const ModelConfig& c, AttnEncoder<T>& enc) {
    const int He2 = 2 * c.enc_hid_dim;
    if (c.score == ScoreKind::Additive) {
        enc.keys.noalias() = enc.H * p.attn_w.rightCols(He2).transpose();  // (B*S, 2H_e) x (2H_e, H_d)
        enc.keys.rowwise() += p.attn_b.transpose();
    } else if (c.score == ScoreKind::General) {
        enc.keys.noalias() = enc.H * p.attn_W.transpose();
    }
}

template <typename T>
void attentionPrepareBackward(const ModelParamsT<T>& p, const ModelConfig& c, AttnEncoder<T>& enc, ModelParamsT<T>* g) {
    const int He2 = 2 * c.enc_hid_dim;
    if (c.score == ScoreKind::Additive) {
        if (g) {
            g->attn_w.rightCols(He2).noalias() += enc.dkeys.transpose() * enc.H;
            g->attn_b += enc.dkeys.colwise().sum().transpose();
        }
        enc.dH.noalias() += enc.dkeys * p.attn_w.rightCols(He2);
    } else if (c.score == ScoreKind::General) {
        if (g) g->attn_W.noalias() += enc.dkeys.transpose() * enc.H;
        enc.dH.noalias() += enc.dkeys * p.attn_W;
    }
}

template <typename T>
void attentionStepForward(const ModelParamsT<T>& p, const ModelConfig& c, const AttnEncoder<T>& enc, int k, const T* q,
                          AttnCache<T>& cache, T* ctx) {
    const int B = enc.B, S = enc.S, Hd = c.dec_hid_dim, He2 = 2 * c.enc_hid_dim, D = c.window;
    const Eigen::Index base = Eigen::Index(k) * B;
    CMapT<T> Q(q, B, Hd);
    MapT<T> C(ctx, B, He2);
    if (c.score == ScoreKind::Additive)
        cache.wq.middleRows(base, B).noalias() = Q * p.attn_w.leftCols(Hd).transpose();  // (B, H_d)
    if (c.span == SpanKind::LocalP) {
        auto pq = cache.pq.middleRows(base, B);
        pq.noalias() = Q * p.attn_Wp.transpose();
        pq = pq.array().tanh().matrix();
    }
    for (int b = 0; b < B; ++b) {
        const Eigen::Index row = base + b;
        const int Sb = enc.len[size_t(b)];
        AttentionWindow<T> win = globalWindow<T>(Sb);
        if (c.span == SpanKind::LocalM) {
            win = monotonicWindow<T>(k + 1, Sb, D);
        } else if (c.span == SpanKind::LocalP) {
            win = predictiveWindow<T>(cache.pq.row(row).dot(p.attn_vp.transpose()), Sb, D);
            cache.sig[row] = win.sig;
        }
        const int lo = win.lo, hi = win.hi, n = win.size();
        const T center = win.center;
        cache.center[row] = center;
        cache.lo[size_t(row)] = lo;
        cache.hi[size_t(row)] = hi;
        const Eigen::Index r0 = Eigen::Index(b) * S + lo;
        const auto Hb = enc.H.middleRows(r0, n);  // (n, 2H_e)
        auto e = cache.e.head(n);
        switch (c.score) {
        case ScoreKind::Additive: {
            MapT<T> Tb(cache.tanhs.data() + (row * S + lo) * Hd, n, Hd);
            Tb = enc.keys.middleRows(r0, n);
            Tb.rowwise() += cache.wq.row(row);
            Tb = Tb.array().tanh().matrix();  // contiguous (n, H_d): the vectorised tanh
            e.noalias() = Tb * p.attn_v;
            break;
        }
        case ScoreKind::Dot:
            e.noalias() = Hb * Q.row(b).transpose();
            break;
        case ScoreKind::ScaledDot:
            e.noalias() = Hb * Q.row(b).transpose();
            e *= T(1) / std::sqrt(T(Hd));
            break;
        case ScoreKind::General:
            e.noalias() = enc.keys.middleRows(r0, n) * Q.row(b).transpose();
            break;
        }
        const Interventions* iv = enc.interventionsOf(b);
        if (!iv || knockOut(*iv, lo, e))
            softmaxInto(e, e);
        else
            e.setZero();  // every position of the window knocked out: no weight, context 0
        auto arow = cache.A.row(row);
        arow.setZero();
        arow.segment(lo, n) = e.transpose();
        if (c.span == SpanKind::LocalP) {
            auto al = cache.alpha.row(row);
            al.setZero();
            al.segment(lo, n) = e.transpose();
            for (int j = lo; j <= hi; ++j) arow[j] *= gaussianFactor(j, center, D);
        }
        C.row(b).noalias() = arow.segment(lo, n) * Hb;     // (1, n) x (n, 2H_e)
        if (const int j = enc.attendedAt(b, k); j >= 0) {  // attend: a one-hot row, the context h_j
            arow.setZero();
            arow[j] = T(1);
            C.row(b) = enc.H.row(Eigen::Index(b) * S + j);
        }
    }
}

template <typename T>
void attentionStepBackward(const ModelParamsT<T>& p, const ModelConfig& c, AttnEncoder<T>& enc, int k, const T* q,
                           AttnCache<T>& cache, const T* dctx, T* dq, ModelParamsT<T>* g, int active) {
    const int B = active < 0 ? enc.B : active, S = enc.S, Hd = c.dec_hid_dim, He2 = 2 * c.enc_hid_dim, D = c.window;
    const Eigen::Index base = Eigen::Index(k) * enc.inputs;  // the step's forward rows
    CMapT<T> Q(q, B, Hd), dC(dctx, B, He2);
    MapT<T> dQ(dq, B, Hd);
    const bool additive = c.score == ScoreKind::Additive, localp = c.span == SpanKind::LocalP;
    if (additive) cache.dwq.setZero();
    if (localp) cache.dpq.setZero();
    const T sigma2 = (T(D) / T(2)) * (T(D) / T(2));
    const T dot_scale = c.score == ScoreKind::ScaledDot ? T(1) / std::sqrt(T(Hd)) : T(1);
    for (int b = 0; b < B; ++b) {
        const int f = enc.inputOf(b);
        const Eigen::Index row = base + f;  // forward rows: the cache's and H's (r0); gradient rows: d0
        const int lo = cache.lo[size_t(row)], hi = cache.hi[size_t(row)], n = hi - lo + 1;
        const Eigen::Index r0 = Eigen::Index(f) * S + lo, d0 = Eigen::Index(b) * S + lo;
        if (const int j = enc.attendedAt(f, k); j >= 0) {  // c = h_j: no gradient reaches the scores or the window
            enc.dH.row(Eigen::Index(b) * S + j) += dC.row(b);
            continue;
        }
        const auto Hb = enc.H.middleRows(r0, n);
        const auto a = cache.A.row(row).segment(lo, n);
        auto da = cache.da.head(n);
        da.noalias() = Hb * dC.row(b).transpose();                        // (n)
        enc.dH.middleRows(d0, n).noalias() += a.transpose() * dC.row(b);  // (n, 2H_e)
        // da becomes de in place.
        if (localp) {
            const auto al = cache.alpha.row(row).segment(lo, n);
            const T center = cache.center[row];
            T dcenter = 0;
            for (int i = 0; i < n; ++i) {
                const T d = T(lo + i) - center;
                const T gj = gaussianFactor(lo + i, center, D);
                dcenter += da[i] * al[i] * gj * d / sigma2;
                da[i] *= gj;
            }
            const T s = al.dot(da.transpose());
            da = (al.transpose().array() * (da.array() - s)).matrix();
            const T sg = cache.sig[row];
            const T du = dcenter * T(enc.len[size_t(f)]) * sg * (T(1) - sg);
            const auto pq = cache.pq.row(row);
            if (g) g->attn_vp += du * pq.transpose();
            cache.dpq.row(b) = (du * p.attn_vp.transpose().array() * (T(1) - pq.array() * pq.array())).matrix();
        } else {
            const T s = a.dot(da.transpose());
            da = (a.transpose().array() * (da.array() - s)).matrix();
            if (cache.guide.rows() > 0 && cache.guided[size_t(row)]) {  // guided alignment: + λ(a − G)
                const T w = cache.guide_weight;
                const auto G = cache.guide.row(row);
                for (int i = 0; i < n; ++i) da[i] += w * (a[i] - G[lo + i]);
            }
        }
        switch (c.score) {
        case ScoreKind::Additive:
            additiveScoreBackward<T>(CMapT<T>(cache.tanhs.data() + (row * S + lo) * Hd, n, Hd), da, p.attn_v,
                                     cache.dpre, enc.dkeys.middleRows(d0, n), cache.dwq.row(b),
                                     g ? &g->attn_v : nullptr);
            break;
        case ScoreKind::Dot:
        case ScoreKind::ScaledDot:
            dQ.row(b).noalias() += dot_scale * (da.transpose() * Hb);
            enc.dH.middleRows(d0, n).noalias() += (dot_scale * da) * Q.row(b);
            break;
        case ScoreKind::General:
            dQ.row(b).noalias() += da.transpose() * enc.keys.middleRows(r0, n);
            enc.dkeys.middleRows(d0, n).noalias() += da * Q.row(b);
            break;
        }
    }
    if (additive) {
        dQ.noalias() += cache.dwq.topRows(B) * p.attn_w.leftCols(Hd);  // (B, H_d) x (H_d, H_d)
        if (g) g->attn_w.leftCols(Hd).noalias() += cache.dwq.topRows(B).transpose() * Q;
    }
    if (localp) {
        dQ.noalias() += cache.dpq.topRows(B) * p.attn_Wp;
        if (g) g->attn_Wp.noalias() += cache.dpq.topRows(B).transpose() * Q;
    }
}

#define ATTNVIZ_INSTANTIATE_ATTN(T)                                                                                    \
    template void attentionResize<T>(const ModelConfig&, int, int, int, bool, AttnEncoder<T>&, AttnCache<T>&);         \
    template void attentionPrepare<T>(const ModelParamsT<T>&, const ModelConfig&, AttnEncoder<T>&);                    \
    template void attentionPrepareBackward<T>(const ModelParamsT<T>&, const ModelConfig&, AttnEncoder<T>&,             \
                                              ModelParamsT<T>*);                                                       \
    template void attentionStepForward<T>(const ModelParamsT<T>&, const ModelConfig&, const AttnEncoder<T>&, int,      \
                                          const T*, AttnCache<T>&, T*);                                                \
    template void attentionStepBackward<T>(const ModelParamsT<T>&, const ModelConfig&, AttnEncoder<T>&, int, const T*, \
                                           AttnCache<T>&, const T*, T*, ModelParamsT<T>*, int);
ATTNVIZ_INSTANTIATE_ATTN(float)
ATTNVIZ_INSTANTIATE_ATTN(double)

}  // namespace attnviz
