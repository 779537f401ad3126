#include "kernels/heap_retention.h"

#include <mutex>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace attnviz {
namespace {

std::mutex retention_mutex;
int retention_count = 0;  // HeapRetention objects alive (the training window may run several trainings)

}  // namespace

HeapRetention::HeapRetention() {
    const std::lock_guard<std::mutex> lock(retention_mutex);
    if (retention_count++ > 0) return;
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, int(kMaxHeapBlock));
    mallopt(M_TRIM_THRESHOLD, int(2 * kMaxHeapBlock));
#endif
}

HeapRetention::~HeapRetention() {
    const std::lock_guard<std::mutex> lock(retention_mutex);
    if (--retention_count > 0) return;
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);  // glibc's starting values (man 3 mallopt)
    mallopt(M_TRIM_THRESHOLD, 128 * 1024);
    malloc_trim(0);
#endif
}

}  // namespace attnviz
