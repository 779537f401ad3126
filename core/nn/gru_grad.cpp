// Batched GRU forward/backward. Derivation (per element, a = pre-activation):
//   n = tanh(a_n), a_n = gi_n + r ⊙ ghn;  h = (1 − z) ⊙ n + z ⊙ hprev
//   dn = dh ⊙ (1 − z); dz = dh ⊙ (hprev − n); dhprev = dh ⊙ z + dgh · W_hh
//   da_n = dn ⊙ (1 − n²) = dgi_n;  dgh_n = da_n ⊙ r;  dr = da_n ⊙ ghn
//   dgi_r = dgh_r = dr ⊙ r(1 − r);  dgi_z = dgh_z = dz ⊙ z(1 − z)
#include "nn/gru_grad.h"

namespace attnviz {

template <typename T>
void gruCellForward(const GruParamsT<T>& p, const T* gi, const T* hprev, const uint8_t* mask, int B, T* gates, T* ghn,
                    T* h, T* gh) {
    const Eigen::Index H = p.w_hh.cols();
    CMapT<T> hp(hprev, B, H);
    MapT<T> GH(gh, B, 3 * H);
    GH.noalias() = hp * p.w_hh.transpose();  // (B, 3H)
    GH.rowwise() += p.b_hh.transpose();
    CMapT<T> GI(gi, B, 3 * H);
    MapT<T> G(gates, B, 3 * H);
    MapT<T> N(ghn, B, H);
    N = GH.rightCols(H);
    G.leftCols(2 * H) = (GI.leftCols(2 * H) + GH.leftCols(2 * H)).array().logistic().matrix();
    G.rightCols(H) = (GI.rightCols(H).array() + G.leftCols(H).array() * N.array()).tanh().matrix();
    MapT<T> out(h, B, H);
    out = (G.rightCols(H).array() + G.middleCols(H, H).array() * (hp.array() - G.rightCols(H).array())).matrix();
    if (mask)
        for (int b = 0; b < B; ++b)
            if (!mask[b]) out.row(b) = hp.row(b);
}

template <typename T>
void gruCellBackward(const GruParamsT<T>& p, const T* gates, const T* ghn, const T* hprev, const T* dh,
                     const uint8_t* mask, int B, T* dgi, T* dgh, T* dhprev) {
    const Eigen::Index H = p.w_hh.cols();
    CMapT<T> G(gates, B, 3 * H), Ng(ghn, B, H), hp(hprev, B, H), D(dh, B, H);
    MapT<T> DGI(dgi, B, 3 * H), DGH(dgh, B, 3 * H), DHP(dhprev, B, H);
    const auto r = G.leftCols(H).array();
    const auto z = G.middleCols(H, H).array();
    const auto n = G.rightCols(H).array();
    const auto d = D.array();
    DGI.rightCols(H) = (d * (T(1) - z) * (T(1) - n * n)).matrix();                        // da_n
    DGH.rightCols(H) = (DGI.rightCols(H).array() * r).matrix();                           // d ghn
    DGI.leftCols(H) = (DGI.rightCols(H).array() * Ng.array() * r * (T(1) - r)).matrix();  // da_r
    DGI.middleCols(H, H) = (d * (hp.array() - n) * z * (T(1) - z)).matrix();              // da_z
    DGH.leftCols(2 * H) = DGI.leftCols(2 * H);
    if (mask) {
        for (int b = 0; b < B; ++b)
            if (!mask[b]) {
                DGI.row(b).setZero();
                DGH.row(b).setZero();
            }
    }
    DHP.noalias() += DGH * p.w_hh;  // (B, 3H) x (3H, H)
    if (!mask) {
        DHP.array() += d * z;
    } else {
        for (int b = 0; b < B; ++b) {
            if (mask[b])
                DHP.row(b).array() += D.row(b).array() * G.row(b).segment(H, H).array();
            else
                DHP.row(b) += D.row(b);
        }
    }
}

template <typename T>
void gruSequenceForward(const GruParamsT<T>& p, const MatT<T>& x, const uint8_t* mask, int L, int B, bool reverse,
                        GruSeqCache<T>& c) {
    const Eigen::Index H = p.w_hh.cols();
    const Eigen::Index n = Eigen::Index(L) * B;
    c.gi.resize(n, 3 * H);
    c.gi.noalias() = x * p.w_ih.transpose();  // (L*B, In) x (In, 3H): the whole sequence in one GEMM
    c.gi.rowwise() += p.b_ih.transpose();
    c.gates.resize(n, 3 * H);
    c.ghn.resize(n, H);
    c.h.resize(n, H);
    c.gh.resize(B, 3 * H);
    c.zeros.setZero(B, H);
    for (int k = 0; k < L; ++k) {
        const int t = reverse ? L - 1 - k : k;
        const T* prev = k == 0 ? c.zeros.data() : c.h.data() + Eigen::Index(reverse ? t + 1 : t - 1) * B * H;
        const Eigen::Index row = Eigen::Index(t) * B;
        gruCellForward<T>(p, c.gi.data() + row * 3 * H, prev, mask ? mask + row : nullptr, B,
                          c.gates.data() + row * 3 * H, c.ghn.data() + row * H, c.h.data() + row * H, c.gh.data());
    }
}

namespace {

// The parameters' gradients of a direction from its gate gradients (c.dgi, c.dgh).
template <typename T>
void addGruParameterGradients(const MatT<T>& x, int L, int B, bool reverse, const GruSeqCache<T>& c, GruParamsT<T>& g) {
    const Eigen::Index m = Eigen::Index(L - 1) * B;
    g.w_ih.noalias() += c.dgi.transpose() * x;  // (3H, In)
    g.b_ih += c.dgi.colwise().sum().transpose();
    if (L > 1) {
        if (!reverse)  // h_prev of step t is h_{t-1}
            g.w_hh.noalias() += c.dgh.bottomRows(m).transpose() * c.h.topRows(m);
        else  // h_prev of step t is h_{t+1}
            g.w_hh.noalias() += c.dgh.topRows(m).transpose() * c.h.bottomRows(m);
    }
    g.b_hh += c.dgh.colwise().sum().transpose();
}

}  // namespace

template <typename T>
void gruSequenceBackward(const GruParamsT<T>& p, const MatT<T>& x, const uint8_t* mask, int L, int B, bool reverse,
                         GruSeqCache<T>& c, const MatT<T>& dH, GruParamsT<T>* g, MatT<T>* dx) {
    const Eigen::Index H = p.w_hh.cols();
    const Eigen::Index n = Eigen::Index(L) * B;
    c.dgi.resize(n, 3 * H);
    c.dgh.resize(n, 3 * H);
    MatT<T> dh = MatT<T>::Zero(B, H), dprev(B, H);  // once per sequence, not per step
    for (int k = L - 1; k >= 0; --k) {
        const int t = reverse ? L - 1 - k : k;
        const Eigen::Index row = Eigen::Index(t) * B;
        const T* prev = k == 0 ? c.zeros.data() : c.h.data() + Eigen::Index(reverse ? t + 1 : t - 1) * B * H;
        dh += dH.middleRows(row, B);
        dprev.setZero();
        gruCellBackward<T>(p, c.gates.data() + row * 3 * H, c.ghn.data() + row * H, prev, dh.data(),
                           mask ? mask + row : nullptr, B, c.dgi.data() + row * 3 * H, c.dgh.data() + row * 3 * H,
                           dprev.data());
        dh.swap(dprev);
    }
    if (g) addGruParameterGradients(x, L, B, reverse, c, *g);
    if (dx) {
        dx->resize(n, x.cols());
        dx->noalias() = c.dgi * p.w_ih;  // (L*B, 3H) x (3H, In)
    }
}

#define ATTNVIZ_INSTANTIATE_GRU(T)                                                                                  \
    template void gruCellForward<T>(const GruParamsT<T>&, const T*, const T*, const uint8_t*, int, T*, T*, T*, T*); \
    template void gruCellBackward<T>(const GruParamsT<T>&, const T*, const T*, const T*, const T*, const uint8_t*,  \
                                     int, T*, T*, T*);                                                              \
    template void gruSequenceForward<T>(const GruParamsT<T>&, const MatT<T>&, const uint8_t*, int, int, bool,       \
                                        GruSeqCache<T>&);                                                           \
    template void gruSequenceBackward<T>(const GruParamsT<T>&, const MatT<T>&, const uint8_t*, int, int, bool,      \
                                         GruSeqCache<T>&, const MatT<T>&, GruParamsT<T>*, MatT<T>*);
ATTNVIZ_INSTANTIATE_GRU(float)
ATTNVIZ_INSTANTIATE_GRU(double)

}  // namespace attnviz
