#include "decode/parallel.h"

#include "kernels/thread_pool.h"

#include <algorithm>
#include <thread>

namespace attnviz {

void runInParallel(int tasks, const std::function<void(int)>& task) {
    auto run = [&task](int k) { task(k); };
    ThreadPool::engine().run(tasks, run);
}

void forEachInParallel(size_t count, int threads, const std::function<void(size_t)>& body, std::atomic<size_t>* done,
                       const std::atomic<bool>* cancel) {
    const size_t cores = std::max(1u, std::thread::hardware_concurrency());
    const int t = int(std::min(threads > 0 ? size_t(threads) : cores, std::max<size_t>(count, 1)));
    std::atomic<size_t> next{0};
    runInParallel(t, [&](int) {
        for (size_t i = next++; i < count; i = next++) {
            if (cancel && cancel->load(std::memory_order_relaxed)) return;
            body(i);
            if (done) done->fetch_add(1, std::memory_order_relaxed);
        }
    });
}

}  // namespace attnviz
