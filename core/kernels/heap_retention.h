// Keeping freed memory in the process while a training run lasts. A training step allocates and frees the same large
// temporaries every batch (activations, their gradients, (N, V) logits of tens of megabytes). glibc's malloc gives
// large freed blocks back to the kernel (munmap, or trimming the heap's top), so the next batch takes them again
// page by page: a page fault and a kernel zeroing for every 4 KB, a sizeable share of a Transformer's step. While a
// HeapRetention is alive, blocks up to kMaxHeapBlock come from the heap and the heap is not trimmed; when the last
// one ends, the defaults come back and the free memory is returned (malloc_trim). Nothing happens off glibc.
#pragma once

#include <cstddef>

namespace attnviz {

class HeapRetention {
public:
    static constexpr std::size_t kMaxHeapBlock = std::size_t(256) << 20;  // larger blocks are still mapped apart

    HeapRetention();
    ~HeapRetention();
    HeapRetention(const HeapRetention&) = delete;
    HeapRetention& operator=(const HeapRetention&) = delete;
};

}  // namespace attnviz
