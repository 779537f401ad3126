// The parameters of a seq2seq-with-attention model, named as the PyTorch state_dict keys of
// spec/model-format.md. One struct serves for weights, gradients and optimizer moments.
// Legend: E emb_dim, H_e enc_hid_dim, H_d dec_hid_dim, V_s / V_t vocabulary sizes.
#pragma once
#include "base/tensor.h"
#include "model/config.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attnviz {

struct GruParams {
    Mat w_ih;  // (3H, In), rows [r; z; n]
    Mat w_hh;  // (3H, H)
    Vec b_ih;  // (3H)
    Vec b_hh;  // (3H)
};

struct ModelParams {
    // encoder
    Mat enc_embedding;  // (V_s, E)
    GruParams enc_fwd;  // In = E, H = H_e
    GruParams enc_bwd;  // In = E, H = H_e  (the *_reverse tensors)
    Mat enc_fc_w;       // (H_d, 2H_e)
    Vec enc_fc_b;       // (H_d)
    // attention (only the tensors of the config's score / span are non-empty)
    Mat attn_w;   // additive: (H_d, H_d + 2H_e), columns [s ; h_j]
    Vec attn_b;   // additive: (H_d)
    Vec attn_v;   // additive: (H_d)   (stored as a 1 x H_d tensor)
    Mat attn_W;   // general: (H_d, 2H_e)
    Mat attn_Wp;  // local_p: (H_d, H_d)
    Vec attn_vp;  // local_p: (H_d)   (stored as a 1 x H_d tensor)
    // decoder
    Mat dec_embedding;  // (V_t, E)
    GruParams dec_rnn;  // bahdanau In = E + 2H_e; luong In = E (+ H_d with input feeding); H = H_d
    Mat combine_w;      // luong: (H_d, 2H_e + H_d), columns [c ; s]
    Mat fc_out_w;       // bahdanau: (V_t, H_d + 2H_e + E), columns [s ; c ; x]; luong: (V_t, H_d)
    Vec fc_out_b;       // (V_t)
};

// One tensor the config calls for: its file name, its shape as written in the file, and where it lives.
struct ParamRef {
    std::string name;
    std::vector<int64_t> shape;
    float* data;     // points into the ModelParams it was taken from
    int64_t size;    // product of shape
    bool is_matrix;  // Mat (else Vec)
    Mat* mat = nullptr;
    Vec* vec = nullptr;
};

// Every tensor the config calls for, in a fixed order (the order the file writer uses), with the shapes the spec
// gives. Calling it on a fresh ModelParams after resizeParams() gives the views to fill.
std::vector<ParamRef> paramRefs(ModelParams& p, const ModelConfig& c, int source_vocab, int target_vocab);
// Sizes every tensor the config calls for (zero-filled) and empties the others.
void resizeParams(ModelParams& p, const ModelConfig& c, int source_vocab, int target_vocab);
int64_t parameterCount(const ModelConfig& c, int source_vocab, int target_vocab);

}  // namespace attnviz
