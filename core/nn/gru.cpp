#include "nn/gru.h"

#include "kernels/gemv_terms.h"
#include "kernels/row_split.h"

namespace attnviz {

void gruProjectInputs(const GruParams& g, const Eigen::Ref<const Mat>& x, Mat& gi, ThreadPool* pool) {
    projectVectors(columnsOf(g.w_ih, 0, g.w_ih.cols(), nullptr), g.w_ih.rows(), x, gi, pool);  // (T, 3H)
    gi.rowwise() += g.b_ih.transpose();
}

void gruCell(const GruParams& g, const float* gi, const float* h, float* h_out, float* gh, ThreadPool* pool) {
    splitGemv(g.w_hh, h, gh, pool);  // (3H, H) · h
    gruGates(g, gi, gh, h, h_out);
}

void gruGates(const GruParams& g, const float* gi, float* gh, const float* h, float* h_out) {
    const Eigen::Index H = g.w_hh.cols();
    VecMap ghv(gh, 3 * H);
    ghv += g.b_hh;
    auto ga = [&](Eigen::Index k) { return Eigen::Map<Eigen::ArrayXf>(gh + k * H, H); };
    auto ia = [&](Eigen::Index k) { return Eigen::Map<const Eigen::ArrayXf>(gi + k * H, H); };
    ga(0) = (ia(0) + ga(0)).logistic();      // r
    ga(1) = (ia(1) + ga(1)).logistic();      // z
    ga(2) = (ia(2) + ga(0) * ga(2)).tanh();  // n
    Eigen::Map<const Eigen::ArrayXf> hv(h, H);
    Eigen::Map<Eigen::ArrayXf> out(h_out, H);
    out = ga(2) + ga(1) * (hv - ga(2));  // elementwise, so h_out may alias h
}

}  // namespace attnviz
