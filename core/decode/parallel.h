// Independent work side by side on the engine's threads (decoding a file's sentences at once). Each decode run this
// way should set DecodeOptions::parallel_steps = false: every core is busy with a sentence of its own already.
#pragma once
#include <atomic>
#include <cstddef>
#include <functional>

namespace attnviz {

// Threads to use: `requested` if > 0, else one per core (at least 1).
int threadCount(int requested);
// The threads that work on `items` items side by side: threadCount(requested), no more than the items, at least 1.
int threadsFor(size_t items, int requested);

// task(k) for k in [0, tasks): task 0 on this thread, the others on the engine's helper threads. Returns when all are
// done, then rethrows the exception of the lowest task that threw, if any.
void runInParallel(int tasks, const std::function<void(int)>& task);

// body(i) for every i in [0, count) on `threads` threads (0: one per core), each thread taking the next index not
// yet taken (items differ in cost, so fixed chunks would leave threads idle). Stops taking new items once *cancel
// is set; `done` (when given) counts the items finished. body must not throw.
// work(i) for i in [begin, end) on up to `threads` threads in contiguous chunks (each thread keeps its caches warm).
// Every index is attempted; afterwards the exception of the lowest failing index is rethrown.
void parallelFor(size_t begin, size_t end, int threads, const std::function<void(size_t)>& work);

void forEachInParallel(size_t count, int threads, const std::function<void(size_t)>& body,
                       std::atomic<size_t>* done = nullptr, const std::atomic<bool>* cancel = nullptr);

}  // namespace attnviz
