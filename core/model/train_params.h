// Parameter structs for training, templated on the scalar type: float for training, double for the
// finite-difference gradient checks. ModelParams (params.h) is the float struct; ModelParamsD mirrors it in double.
// One struct serves for weights, gradients and optimizer moments.
// Legend: E emb_dim, H_e enc_hid_dim, H_d dec_hid_dim, V_s / V_t vocabulary sizes.
#pragma once
#include "base/tensor.h"
#include "model/params.h"

#include <cstdint>

namespace attnviz {

template <typename T>
using MatT = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename T>
using VecT = Eigen::Matrix<T, Eigen::Dynamic, 1>;
template <typename T>
using MapT = Eigen::Map<MatT<T>>;
template <typename T>
using CMapT = Eigen::Map<const MatT<T>>;

struct GruParamsD {
    MatT<double> w_ih, w_hh;  // (3H, In), (3H, H)
    VecT<double> b_ih, b_hh;  // (3H)
};

// The members and meanings of ModelParams, in double.
struct ModelParamsD {
    MatT<double> enc_embedding;
    GruParamsD enc_fwd, enc_bwd;
    MatT<double> enc_fc_w;
    VecT<double> enc_fc_b;
    MatT<double> attn_w;
    VecT<double> attn_b, attn_v;
    MatT<double> attn_W, attn_Wp;
    VecT<double> attn_vp;
    MatT<double> dec_embedding;
    GruParamsD dec_rnn;
    MatT<double> combine_w, fc_out_w;
    VecT<double> fc_out_b;
};

template <typename T>
struct ParamTypes;
template <>
struct ParamTypes<float> {
    using Gru = GruParams;
    using Model = ModelParams;
};
template <>
struct ParamTypes<double> {
    using Gru = GruParamsD;
    using Model = ModelParamsD;
};
template <typename T>
using GruParamsT = typename ParamTypes<T>::Gru;
template <typename T>
using ModelParamsT = typename ParamTypes<T>::Model;

// Calls f(name, tensor) for every tensor member (empty ones included), in a fixed order, with the file's names.
template <class P, class F>
void visitTensors(P& p, F&& f) {
    f("encoder.embedding.weight", p.enc_embedding);
    f("encoder.rnn.weight_ih_l0", p.enc_fwd.w_ih);
    f("encoder.rnn.weight_hh_l0", p.enc_fwd.w_hh);
    f("encoder.rnn.bias_ih_l0", p.enc_fwd.b_ih);
    f("encoder.rnn.bias_hh_l0", p.enc_fwd.b_hh);
    f("encoder.rnn.weight_ih_l0_reverse", p.enc_bwd.w_ih);
    f("encoder.rnn.weight_hh_l0_reverse", p.enc_bwd.w_hh);
    f("encoder.rnn.bias_ih_l0_reverse", p.enc_bwd.b_ih);
    f("encoder.rnn.bias_hh_l0_reverse", p.enc_bwd.b_hh);
    f("encoder.fc.weight", p.enc_fc_w);
    f("encoder.fc.bias", p.enc_fc_b);
    f("decoder.attention.attn.weight", p.attn_w);
    f("decoder.attention.attn.bias", p.attn_b);
    f("decoder.attention.v.weight", p.attn_v);
    f("decoder.attention.W.weight", p.attn_W);
    f("decoder.attention.Wp.weight", p.attn_Wp);
    f("decoder.attention.vp.weight", p.attn_vp);
    f("decoder.embedding.weight", p.dec_embedding);
    f("decoder.rnn.weight_ih_l0", p.dec_rnn.w_ih);
    f("decoder.rnn.weight_hh_l0", p.dec_rnn.w_hh);
    f("decoder.rnn.bias_ih_l0", p.dec_rnn.b_ih);
    f("decoder.rnn.bias_hh_l0", p.dec_rnn.b_hh);
    f("decoder.combine.weight", p.combine_w);
    f("decoder.fc_out.weight", p.fc_out_w);
    f("decoder.fc_out.bias", p.fc_out_b);
}

// Calls f(a_tensor, b_tensor) for the matching members of two parameter structs (of any scalar types).
template <class A, class B, class F>
void visitTensorPairs(A& a, B& b, F&& f) {
    f(a.enc_embedding, b.enc_embedding);
    f(a.enc_fwd.w_ih, b.enc_fwd.w_ih);
    f(a.enc_fwd.w_hh, b.enc_fwd.w_hh);
    f(a.enc_fwd.b_ih, b.enc_fwd.b_ih);
    f(a.enc_fwd.b_hh, b.enc_fwd.b_hh);
    f(a.enc_bwd.w_ih, b.enc_bwd.w_ih);
    f(a.enc_bwd.w_hh, b.enc_bwd.w_hh);
    f(a.enc_bwd.b_ih, b.enc_bwd.b_ih);
    f(a.enc_bwd.b_hh, b.enc_bwd.b_hh);
    f(a.enc_fc_w, b.enc_fc_w);
    f(a.enc_fc_b, b.enc_fc_b);
    f(a.attn_w, b.attn_w);
    f(a.attn_b, b.attn_b);
    f(a.attn_v, b.attn_v);
    f(a.attn_W, b.attn_W);
    f(a.attn_Wp, b.attn_Wp);
    f(a.attn_vp, b.attn_vp);
    f(a.dec_embedding, b.dec_embedding);
    f(a.dec_rnn.w_ih, b.dec_rnn.w_ih);
    f(a.dec_rnn.w_hh, b.dec_rnn.w_hh);
    f(a.dec_rnn.b_ih, b.dec_rnn.b_ih);
    f(a.dec_rnn.b_hh, b.dec_rnn.b_hh);
    f(a.combine_w, b.combine_w);
    f(a.fc_out_w, b.fc_out_w);
    f(a.fc_out_b, b.fc_out_b);
}

// dst gets src's shapes, zero-filled (the gradient / moment buffers of a parameter set).
template <class A, class B>
void zerosLike(A& dst, const B& src) {
    visitTensorPairs(dst, const_cast<B&>(src), [](auto& d, const auto& s) { d.setZero(s.rows(), s.cols()); });
}
// Every tensor set to zero, shapes kept.
template <class A>
void setZero(A& p) {
    visitTensors(p, [](const char*, auto& t) { t.setZero(); });
}
// dst += src (same shapes).
template <class A>
void addInto(A& dst, const A& src) {
    visitTensorPairs(dst, const_cast<A&>(src), [](auto& d, const auto& s) { d += s; });
}

ModelParamsD toDouble(const ModelParams& p);
ModelParams toFloat(const ModelParamsD& p);
// Number of scalars in all tensors.
int64_t scalarCount(const ModelParams& p);
// True when every value is finite.
bool allFinite(const ModelParams& p);

}  // namespace attnviz
