#include "kernels/huge_pages.h"

#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace attnviz {

void adviseHugePages(void* data, std::size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    constexpr std::uintptr_t kHuge = std::uintptr_t(2) << 20;
    const std::uintptr_t begin = (reinterpret_cast<std::uintptr_t>(data) + kHuge - 1) & ~(kHuge - 1);
    const std::uintptr_t end = (reinterpret_cast<std::uintptr_t>(data) + bytes) & ~(kHuge - 1);
    if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);  // (failure: 4 KB pages)
#else
    (void)data;
    (void)bytes;
#endif
}

void zeroOnHugePages(Mat& m, Eigen::Index rows, Eigen::Index cols) {
    m = Mat();  // so that resize() allocates afresh: memory not touched yet, which the advice can still shape
    m.resize(rows, cols);
    adviseHugePages(m.data(), std::size_t(m.size()) * sizeof(float));
    m.setZero();
}

}  // namespace attnviz
