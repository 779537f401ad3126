#include "decode/parallel.h"

#include "kernels/thread_pool.h"

#include <algorithm>
#include <exception>
#include <thread>
#include <vector>

namespace attnviz {

int threadCount(int requested) {
    return requested > 0 ? requested : int(std::max(1u, std::thread::hardware_concurrency()));
}

int threadsFor(size_t items, int requested) {
    return int(std::min(size_t(threadCount(requested)), std::max<size_t>(items, 1)));
}

void runInParallel(int tasks, const std::function<void(int)>& task) {
    auto run = [&task](int k) { task(k); };
    ThreadPool::engine().run(tasks, run);
}

void parallelFor(size_t begin, size_t end, int threads, const std::function<void(size_t)>& work) {
    if (end <= begin) return;
    const size_t n = end - begin;
    const size_t t = size_t(threadsFor(n, std::max(threads, 1)));
    std::vector<std::exception_ptr> errors(t);
    auto chunk = [&](size_t k) {
        const size_t lo = begin + n * k / t, hi = begin + n * (k + 1) / t;
        for (size_t i = lo; i < hi; ++i) {
            try {
                work(i);
            } catch (...) {
                if (!errors[k]) errors[k] = std::current_exception();
            }
        }
    };
    runInParallel(int(t), [&](int k) { chunk(size_t(k)); });
    // Chunks are in index order, so the first chunk with an error holds the lowest failing index.
    for (size_t k = 0; k < t; ++k)
        if (errors[k]) std::rethrow_exception(errors[k]);
}

void forEachInParallel(size_t count, int threads, const std::function<void(size_t)>& body, std::atomic<size_t>* done,
                       const std::atomic<bool>* cancel) {
    const int t = threadsFor(count, threads);
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
