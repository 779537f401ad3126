// The engine's threads: one pool of helper threads shared by every engine caller (a decoder step's products, the
// encoder's two directions, a training batch's parts, sentences decoded side by side).
// A helper is claimed for one task at a time and waits for the next by spinning briefly before sleeping, because a
// greedy decode hands it a task every few hundred microseconds (docs/performance.md, "Two cores").
#pragma once
#include <atomic>
#include <cstddef>
#include <memory>
#include <mutex>

namespace attnviz {

class ThreadPool {
public:
    using Task = void (*)(void* context);
    using IndexedTask = void (*)(void* context, int index);

    // A pool with `helpers` threads to start with (more are started when run() asks for them).
    explicit ThreadPool(int helpers);
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    // The engine's pool: one helper per core beyond the first (none on a single core), started on first use.
    static ThreadPool& engine();

    // Helper threads started so far.
    int helpers() const { return count_.load(std::memory_order_acquire); }

    // Runs mine() on this thread and other() on a free helper at the same time; returns when both are done. When no
    // helper is free (all taken, by other threads or further up this thread's stack), runs both here, mine() first.
    // If either throws, the exception reaches the caller once both have stopped (this thread's, when both throw).
    void runBoth(Task mine, void* mine_context, Task other, void* other_context);

    template <class A, class B>
    void runBoth(A& mine, B& other) {
        runBoth([](void* c) { (*static_cast<A*>(c))(); }, &mine, [](void* c) { (*static_cast<B*>(c))(); }, &other);
    }

    // task(k) for k in [0, tasks): task 0 on this thread, the others on helpers (the pool grows to tasks - 1 helpers);
    // a task whose helper is taken runs on this thread after task 0. Returns when all are done; then rethrows the
    // exception of the lowest task that threw, if any.
    void run(int tasks, IndexedTask task, void* context);

    template <class F>
    void run(int tasks, F& task) {
        run(
            tasks, [](void* c, int k) { (*static_cast<F*>(c))(k); }, &task);
    }

private:
    class Worker;
    static constexpr int kMaxHelpers = 256;

    // A free helper, marked taken, or nullptr; release with Worker::wait().
    Worker* claim();
    void grow(int helpers);

    std::unique_ptr<Worker> workers_[kMaxHelpers];
    std::atomic<int> count_{0};  // workers_[0, count_) exist; published after each is made
    std::mutex grow_mutex_;
};

}  // namespace attnviz
