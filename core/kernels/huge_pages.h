// Backing large weight matrices with 2 MB pages (Linux transparent huge pages, which Debian enables on request).
// A decoder step streams tens of megabytes of weights, far more than the TLB covers with 4 KB pages, so each page is
// a TLB miss and a page walk; huge pages remove most of them (docs/performance.md, "Huge pages").
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
