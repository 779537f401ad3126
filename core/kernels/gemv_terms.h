// Matrix-vector products over blocks of columns, in one pass over the rows.
// The bahdanau output layer computes fc_out · [s ; c ; x]; with the context c = Hᵀ a it is cheaper to read only the
// s and x columns of fc_out per step and to fold the context columns into (W_c Hᵀ) a, where W_c Hᵀ (V, S) is
// computed once per sentence (fast/folded_decoder.h). These kernels read a column block of a row-major matrix without touching
// the columns it skips, and sum several blocks into one result per row.
#pragma once
#include "base/tensor.h"
#include "kernels/row_split.h"

#include <cstdint>
#include <span>

namespace attnviz {

// A (rows, cols) block of a row-major matrix, `stride` floats between rows, times x (cols).
struct GemvTerm {
    const float* w = nullptr;  // row 0, column 0 of the block
    Eigen::Index stride = 0;
    Eigen::Index cols = 0;
    const float* x = nullptr;
};

// The block of columns [first, first + count) of W, times x.
inline GemvTerm columnsOf(const Mat& W, Eigen::Index first, Eigen::Index count, const float* x) {
    return {W.data() + first, W.outerStride(), count, x};
}

// y[r] = Σ_k terms[k] row r · terms[k].x for r in [0, rows); y must not overlap any term. Shared with a helper of
// `pool` (row_split.h) when it pays; the result does not depend on who computes which rows. The same holds for every
// kernel below: `pool` nullptr keeps the work on this thread.
void gemvTerms(std::span<const GemvTerm> terms, Eigen::Index rows, float* y, ThreadPool* pool);

// One of several independent products for gemvJobs: y (rows) = Σ terms. With `apart`, also apart_y (rows) = Σ apart,
// read in the same pass over the rows (a row's blocks together) but summed on its own, bit for bit as a job of its
// own: a product kept apart from y (a token table's row).
struct GemvJob {
    std::span<const GemvTerm> terms;
    Eigen::Index rows = 0;
    float* y = nullptr;
    std::span<const GemvTerm> apart = {};
    float* apart_y = nullptr;
};

// Every job's product. When it pays, the rows of all jobs are cut into chunks of about 256 KB read, which both cores
// take from a common counter (shareChunks in kernels/row_split.h), so small jobs of different shapes keep both cores
// busy. Chunks start on multiples of 4 rows, so each row's sum is the same whoever computes it.
// With a cursor, the chunks are shared as shareChunks(..., cursor) does, so a product repeated over the same weights
// finds part of them still in each core's L2.
void gemvJobs(std::span<const GemvJob> jobs, ThreadPool* pool, ChunkCursor* cursor = nullptr);

// out (n, rows), row k at out + k · out_stride: block · X.row(k) for every row k of X (n, block.cols), each value summed
// exactly as gemvTerms sums the lone term {block, X.row(k)}, so products computed here for many vectors at once are
// bit for bit those a decoder step computes for one (TokenTables). `block.x` is ignored. Split between cores by
// vectors; each core keeps a few rows of the block in L1 while its vectors pass.
void gemvMany(const GemvTerm& block, Eigen::Index rows, const Eigen::Ref<const Mat>& X, float* out,
              Eigen::Index out_stride, ThreadPool* pool);

// n rounded up to a whole number of SIMD packets (16 floats with AVX-512): a term of that many columns has no
// scalar tail.
Eigen::Index paddedColumns(Eigen::Index n);

// out (rows, paddedColumns(S)) row-major: columns [0, S) = block (rows, cols) · Hᵀ with H (S, cols) row-major, the
// rest zeros. Each block row meets every h_j while it is in L1, so the block is read from memory once. `block.x` is
// ignored. Split between cores like gemvTerms.
void projectRows(const GemvTerm& block, Eigen::Index rows, const Eigen::Ref<const Mat>& H, Mat& out, ThreadPool* pool);

// The first step's output layer and the projection it needs, in one pass over the rows: projection (rows, S') =
// block · Hᵀ as projectRows writes it, and y = Σ terms + projection · a (a: S' floats, zeros past S), summed exactly
// as gemvTerms sums the terms followed by {projection, a}. One pass rather than projectRows then gemvTerms, so the
// projection's arithmetic runs while the terms' columns stream in. At most 7 terms. `apart` and `apart_y` as in
// GemvJob.
void gemvTermsProjecting(std::span<const GemvTerm> terms, const GemvTerm& block, const Eigen::Ref<const Mat>& H,
                         const float* a, Eigen::Index rows, Mat& projection, float* y, ThreadPool* pool,
                         std::span<const GemvTerm> apart = {}, float* apart_y = nullptr);

// out (S, rows) = H (S, cols) · blockᵀ: projectRows for few vectors (a sentence's tokens) against a weight block,
// in the layout of one output row per vector. Faster than Eigen's GEMM at these shapes, which first repacks the
// whole weight block.
void projectVectors(const GemvTerm& block, Eigen::Index rows, const Eigen::Ref<const Mat>& H, Mat& out,
                    ThreadPool* pool);

}  // namespace attnviz
