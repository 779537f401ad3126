// Backing large weight matrices with 2 MB pages (Linux transparent huge pages, which Debian enables on request).
// A greedy step of the large model reads ~30 MB of weights: with 4 KB pages that is ~7,500 pages per step, each
// a TLB miss and a page walk, since the TLB covers a few MB. bench_decode, large bahdanau greedy: about 7 % faster.
#pragma once
#include "base/tensor.h"

#include <cstddef>

namespace attnviz {

// Asks the kernel to back the 2 MB-aligned part of [data, data + bytes) with huge pages when it is first touched.
// Advice only: nothing happens on other systems, for small ranges, or when the kernel declines.
void adviseHugePages(void* data, std::size_t bytes);

// m = zeros (rows, cols), on huge pages when large enough (m's old storage, if any, is freed first).
void zeroOnHugePages(Mat& m, Eigen::Index rows, Eigen::Index cols);

}  // namespace attnviz
