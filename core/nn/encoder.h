// The bidirectional GRU encoder of docs/model-format.md and the per-sentence key side of the attention score.
// Legend: S source length with <sos>/<eos>, E emb_dim, H_e enc_hid_dim, H_d dec_hid_dim.
#pragma once
#include "base/tensor.h"
#include "kernels/thread_pool.h"
#include "model/model.h"

#include <vector>

namespace attnviz {

// Everything the decoder needs from one source sentence; computed once per sentence.
struct EncoderState {
    int S = 0;
    Mat outputs;  // (S, 2H_e) row j = h_j = [f_j ; b_j]
    Vec s0;       // (H_d) tanh(fc([f_{S-1} ; b_0]))
    // The encoder side of the score, by score kind: additive U h_j + b (U = the last 2H_e columns of attn.weight);
    // general W h_j; empty for dot / scaled_dot (those use `outputs` directly).
    Mat keys;  // (S, H_d)
};

// Encodes source ids (with <sos>/<eos>). Throws InputError if the sentence is empty or an id is out of range.
// `out` is reused: buffers of the same size are not reallocated. `pool`: the threads the encoder may share its work
// with (the two directions, large products); nullptr: this thread only.
void encode(const Model& model, const std::vector<int>& ids, EncoderState& out, ThreadPool* pool);

}  // namespace attnviz
