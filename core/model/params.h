// The parameters of a seq2seq-with-attention model, named as the PyTorch state_dict keys of docs/model-format.md,
// templated on the scalar type (float for the engine, double for the finite-difference gradient checks). One struct
// serves for weights, gradients and optimizer moments. forEachTensor() is the one list of the tensors: their file
// names, shapes and members; everything that walks a parameter set (file I/O, initialisation, params_ops.h) uses it.
// Legend: E emb_dim, H_e enc_hid_dim, H_d dec_hid_dim, V_s / V_t vocabulary sizes.
#pragma once
#include "base/tensor.h"
#include "model/config.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attnviz {

template <typename T>
struct GruParamsT {
    MatT<T> w_ih;  // (3H, In), rows [r; z; n]
    MatT<T> w_hh;  // (3H, H)
    VecT<T> b_ih;  // (3H)
    VecT<T> b_hh;  // (3H)
};

template <typename T>
struct ModelParamsT {
    // encoder
    MatT<T> enc_embedding;  // (V_s, E)
    GruParamsT<T> enc_fwd;  // In = E, H = H_e
    GruParamsT<T> enc_bwd;  // In = E, H = H_e  (the *_reverse tensors)
    MatT<T> enc_fc_w;       // (H_d, 2H_e)
    VecT<T> enc_fc_b;       // (H_d)
    // attention (only the tensors of the config's score / span are non-empty)
    MatT<T> attn_w;   // additive: (H_d, H_d + 2H_e), columns [s ; h_j]
    VecT<T> attn_b;   // additive: (H_d)
    VecT<T> attn_v;   // additive: (H_d)   (stored as a 1 x H_d tensor)
    MatT<T> attn_W;   // general: (H_d, 2H_e)
    MatT<T> attn_Wp;  // local_p: (H_d, H_d)
    VecT<T> attn_vp;  // local_p: (H_d)   (stored as a 1 x H_d tensor)
    // decoder
    MatT<T> dec_embedding;  // (V_t, E)
    GruParamsT<T> dec_rnn;  // bahdanau In = E + 2H_e; luong In = E (+ H_d with input feeding); H = H_d
    MatT<T> combine_w;      // luong: (H_d, 2H_e + H_d), columns [c ; s]
    MatT<T> fc_out_w;       // bahdanau: (V_t, H_d + 2H_e + E), columns [s ; c ; x]; luong: (V_t, H_d)
    VecT<T> fc_out_b;       // (V_t)
};

using GruParams = GruParamsT<float>;
using ModelParams = ModelParamsT<float>;
using GruParamsD = GruParamsT<double>;
using ModelParamsD = ModelParamsT<double>;

// The sizes the tensors' shapes are made of, and which optional tensors a config has.
struct TensorDims {
    int64_t V_s = 0, V_t = 0, E = 0, H_e = 0, H_d = 0;
    int64_t dec_in = 0;  // the decoder GRU's input: E + 2H_e (bahdanau), E (+ H_d with input feeding) (luong)
    bool additive = false, general = false, local_p = false, luong = false;

    TensorDims() = default;  // all zero: for walks that need the names and members only
    TensorDims(const ModelConfig& c, int source_vocab, int target_vocab);
};

// A tensor's shape as the model file stores it; rank 0 when the config has no such tensor.
struct TensorShape {
    int rank = 0;
    int64_t dims[2] = {0, 0};

    int64_t count() const { return rank == 0 ? 0 : rank == 1 ? dims[0] : dims[0] * dims[1]; }
};

namespace detail {
inline TensorShape shape(bool used, int64_t rows, int64_t cols) {
    return used ? TensorShape{2, {rows, cols}} : TensorShape{};
}
inline TensorShape shape(bool used, int64_t n) { return used ? TensorShape{1, {n, 0}} : TensorShape{}; }
}  // namespace detail

// The list of the model's tensors. Calls f(name, shape, p.member...) for every tensor, with the member of each
// parameter set passed (any number, of any scalar types), in the model file's order, with the file's names and the
// shapes of `d` (rank 0 for tensors the config leaves out). With no parameter sets: f(name, shape).
template <class F, class... P>
void forEachTensor(const TensorDims& d, F&& f, P&... p) {
    using detail::shape;
    const int64_t E = d.E, He = d.H_e, Hd = d.H_d, He2 = 2 * d.H_e, Din = d.dec_in;
    f("encoder.embedding.weight", shape(true, d.V_s, E), p.enc_embedding...);
    f("encoder.rnn.weight_ih_l0", shape(true, 3 * He, E), p.enc_fwd.w_ih...);
    f("encoder.rnn.weight_hh_l0", shape(true, 3 * He, He), p.enc_fwd.w_hh...);
    f("encoder.rnn.bias_ih_l0", shape(true, 3 * He), p.enc_fwd.b_ih...);
    f("encoder.rnn.bias_hh_l0", shape(true, 3 * He), p.enc_fwd.b_hh...);
    f("encoder.rnn.weight_ih_l0_reverse", shape(true, 3 * He, E), p.enc_bwd.w_ih...);
    f("encoder.rnn.weight_hh_l0_reverse", shape(true, 3 * He, He), p.enc_bwd.w_hh...);
    f("encoder.rnn.bias_ih_l0_reverse", shape(true, 3 * He), p.enc_bwd.b_ih...);
    f("encoder.rnn.bias_hh_l0_reverse", shape(true, 3 * He), p.enc_bwd.b_hh...);
    f("encoder.fc.weight", shape(true, Hd, He2), p.enc_fc_w...);
    f("encoder.fc.bias", shape(true, Hd), p.enc_fc_b...);
    f("decoder.attention.attn.weight", shape(d.additive, Hd, Hd + He2), p.attn_w...);
    f("decoder.attention.attn.bias", shape(d.additive, Hd), p.attn_b...);
    f("decoder.attention.v.weight", shape(d.additive, 1, Hd), p.attn_v...);
    f("decoder.attention.W.weight", shape(d.general, Hd, He2), p.attn_W...);
    f("decoder.attention.Wp.weight", shape(d.local_p, Hd, Hd), p.attn_Wp...);
    f("decoder.attention.vp.weight", shape(d.local_p, 1, Hd), p.attn_vp...);
    f("decoder.embedding.weight", shape(true, d.V_t, E), p.dec_embedding...);
    f("decoder.rnn.weight_ih_l0", shape(true, 3 * Hd, Din), p.dec_rnn.w_ih...);
    f("decoder.rnn.weight_hh_l0", shape(true, 3 * Hd, Hd), p.dec_rnn.w_hh...);
    f("decoder.rnn.bias_ih_l0", shape(true, 3 * Hd), p.dec_rnn.b_ih...);
    f("decoder.rnn.bias_hh_l0", shape(true, 3 * Hd), p.dec_rnn.b_hh...);
    f("decoder.combine.weight", shape(d.luong, Hd, He2 + Hd), p.combine_w...);
    f("decoder.fc_out.weight", shape(true, d.V_t, d.luong ? Hd : Hd + He2 + E), p.fc_out_w...);
    f("decoder.fc_out.bias", shape(true, d.V_t), p.fc_out_b...);
}

// One tensor the config calls for: its file name, its shape as written in the file, and where it lives.
struct ParamRef {
    std::string name;
    std::vector<int64_t> shape;
    float* data;     // points into the ModelParams it was taken from
    int64_t size;    // the number of values it holds now (the product of shape once sized)
    bool is_matrix;  // Mat (else Vec)
    Mat* mat = nullptr;
    Vec* vec = nullptr;
};

// Every tensor the config calls for, in forEachTensor's order (the order the file writer uses), with the shapes the
// docs/model-format.md gives. Calling it on a fresh ModelParams after resizeParams() gives the views to fill.
std::vector<ParamRef> paramRefs(ModelParams& p, const ModelConfig& c, int source_vocab, int target_vocab);
// The same views of a Transformer's tensors, in forEachTransformerTensor's order. On params whose layer lists are
// sized but whose tensors are empty, the names and shapes alone (data null, size 0).
std::vector<ParamRef> transformerParamRefs(TransformerParams& p, const TransformerShape& s);
// Sizes every tensor the config calls for (zero-filled) and empties the others.
void resizeParams(ModelParams& p, const ModelConfig& c, int source_vocab, int target_vocab);
// THE parameter count of a model of either kind: the number of values in the tensors the config calls for, with
// these vocabularies (and, for a Transformer, a stored positional table of `maxlen` rows; 0 when it is computed).
int64_t parameterCount(const ModelConfig& c, int source_vocab, int target_vocab, int maxlen = 0);

}  // namespace attnviz
