// Passes over whole parameter sets (either kind) shared among the engine's threads: the sum of a batch's gradient
// parts, the squared norm and the scaling of clipping, Adam's update. Each element (each tensor, for the norm) gets
// the same arithmetic in the same order whatever the thread count, so the bits do not depend on it. At 2 threads a
// Transformer's parameter set is tens of megabytes: one pass over it on one thread costs a few percent of an update.
#pragma once
#include "model/params_ops.h"
#include "model/transformer_params_ops.h"

#include <Eigen/Core>
#include <functional>
#include <type_traits>
#include <vector>

namespace attnviz {

// f(t...) over the matching tensors of parameter sets of either kind.
template <class F, class... P>
void visitSets(F&& f, P&... p) {
    if constexpr ((std::is_same_v<std::remove_const_t<P>, TransformerParams> && ...))
        visitTransformerTensorSets(f, p...);
    else
        visitTensorSets(f, p...);
}

// update(k, first, count) over every element of tensors of sizes[k] elements, the elements split into `threads`
// contiguous ranges of about the same size (one task each on the engine's pool; one task below 64 Ki elements).
// A range boundary inside a tensor is rounded up to a multiple of 16 elements (64 bytes of floats), where the whole
// tensor's vector loop would have a packet boundary, so every element gets the same instructions, split or not.
using RangeUpdate = std::function<void(size_t tensor, Eigen::Index first, Eigen::Index count)>;
void forElementRanges(const std::vector<Eigen::Index>& sizes, int threads, const RangeUpdate& update);

// task(k) for every k < sizes.size(), the tensors (whole) split into `threads` runs of consecutive ones of about
// the same number of elements, one task each on the engine's pool.
void forTensorRuns(const std::vector<Eigen::Index>& sizes, int threads, const std::function<void(size_t)>& task);

// dst += parts[1] + … + parts[count − 1], added in that order element by element (the bits of the serial sum);
// parts[0] is not read (the caller's dst plays its part).
template <class P>
void addParts(P& dst, const std::vector<P>& parts, int count, int threads);

// Σ of every tensor's squaredNorm (each in float, as Eigen computes it on the tensor), summed in double in tensor order.
template <class P>
double squaredNormOf(const P& p, int threads);

// p ← c · p.
template <class P>
void scaleBy(P& p, float c, int threads);

}  // namespace attnviz
