// The GRU cell exactly as PyTorch (ATen RNN.cpp): gate rows [r; z; n],
//   r = σ(W_ir x + b_ir + W_hr h + b_hr), z = σ(W_iz x + b_iz + W_hz h + b_hz),
//   n = tanh(W_in x + b_in + r ⊙ (W_hn h + b_hn)), h' = n + z ⊙ (h − n)  (= (1 − z) ⊙ n + z ⊙ h).
// The input side W_ih x + b_ih is computed for a whole sequence at once (one GEMM) before the time loop.
// Legend: T sequence length, In input size, H hidden size.
#pragma once
#include "base/tensor.h"
#include "kernels/thread_pool.h"
#include "model/params.h"

namespace attnviz {

// gi (T, 3H) = x (T, In) · W_ihᵀ + b_ih, one row per time step. `pool`: the threads the products may share
// (kernels/row_split.h; nullptr: this thread only), here and in gruCell.
void gruProjectInputs(const GruParams& g, const Eigen::Ref<const Mat>& x, Mat& gi, ThreadPool* pool);

// One step from a precomputed input projection gi (3H) and the previous state h (H). gh is scratch of 3H floats
// (it ends up holding [r; z; n]). h_out may alias h. No allocation.
void gruCell(const GruParams& g, const float* gi, const float* h, float* h_out, float* gh, ThreadPool* pool);

// The rest of the cell once both products are known: gi = W_ih x + b_ih, gh = W_hh h without b_hh (3H each; gh is
// overwritten with [r; z; n]). h_out may alias h.
void gruGates(const GruParams& g, const float* gi, float* gh, const float* h, float* h_out);

}  // namespace attnviz
