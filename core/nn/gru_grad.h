// Batched GRU forward / backward for training (PyTorch's cell, see gru.h), templated on the scalar type.
// Legend: B batch rows, L time steps, In input size, H hidden size. Sequence buffers are time-major: the B rows of
// time step t are rows t*B .. t*B+B-1, so a step is one contiguous (B, ·) block.
// Masks: a row whose mask is 0 at a step keeps its previous state (h_t = h_{t-1}) and gets no gradient through the
// cell; with a zero initial state this makes a padded example's backward direction start at its own last token,
// and its forward direction carry f_{S_b-1} to the last step.
#pragma once
#include "model/params_ops.h"

#include <cstdint>

namespace attnviz {

// One step for B rows. gi (B,3H) = W_ih x + b_ih (precomputed); hprev (B,H); mask (B) or nullptr (all valid).
// Writes gates (B,3H) [r, z, n], ghn (B,H) = W_hn h + b_hn and h (B,H). gh is scratch (B,3H). No allocation.
template <typename T>
void gruCellForward(const GruParamsT<T>& p, const T* gi, const T* hprev, const uint8_t* mask, int B, T* gates, T* ghn,
                    T* h, T* gh);

// The step's backward: dh (B,H) is the gradient of h. Writes dgi (B,3H) (gradient of W_ih x + b_ih) and
// dgh (B,3H) (of W_hh h + b_hh) and ADDS the gradient of hprev into dhprev (B,H). No allocation.
template <typename T>
void gruCellBackward(const GruParamsT<T>& p, const T* gates, const T* ghn, const T* hprev, const T* dh,
                     const uint8_t* mask, int B, T* dgi, T* dgh, T* dhprev);

// A whole direction of the encoder over L steps from a zero state.
template <typename T>
struct GruSeqCache {
    MatT<T> gi;     // (L*B, 3H) W_ih x + b_ih
    MatT<T> gates;  // (L*B, 3H)
    MatT<T> ghn;    // (L*B, H)
    MatT<T> h;      // (L*B, H) the outputs h_t
    MatT<T> gh;     // (B, 3H) scratch
    MatT<T> dgi;    // (L*B, 3H) backward
    MatT<T> dgh;    // (L*B, 3H)
    MatT<T> zeros;  // (B, H) the initial state
};

// x (L*B, In); mask (L*B) or nullptr; reverse runs t = L-1 .. 0. Outputs in cache.h.
template <typename T>
void gruSequenceForward(const GruParamsT<T>& p, const MatT<T>& x, const uint8_t* mask, int L, int B, bool reverse,
                        GruSeqCache<T>& cache);

// dH (L*B, H): the gradient of the outputs. When g is not null ADDS the parameter gradients into *g; when dx is not
// null WRITES the gradient of x into dx (L*B, In).
template <typename T>
void gruSequenceBackward(const GruParamsT<T>& p, const MatT<T>& x, const uint8_t* mask, int L, int B, bool reverse,
                         GruSeqCache<T>& cache, const MatT<T>& dH, GruParamsT<T>* g, MatT<T>* dx);

}  // namespace attnviz
