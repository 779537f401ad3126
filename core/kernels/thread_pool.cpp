#include "kernels/thread_pool.h"

#include <cstdint>
#include <exception>
#include <thread>
#include <vector>

namespace attnviz {

// One helper thread. The caller publishes a task by bumping `posted`; the helper runs it and copies the number into
// `finished`. Both sides spin briefly before sleeping on the atomic (a futex).
class ThreadPool::Worker {
public:
    Worker() : thread_([this] { loop(); }) {}

    ~Worker() {
        while (busy_.exchange(true, std::memory_order_acquire)) std::this_thread::yield();
        quit_.store(true, std::memory_order_relaxed);
        posted_.fetch_add(1, std::memory_order_release);
        posted_.notify_one();
        thread_.join();
    }

    // Marks the worker taken; false when it is already.
    bool tryClaim() { return !busy_.exchange(true, std::memory_order_acquire); }

    // Starts `task` on a claimed worker.
    void post(IndexedTask task, void* context, int index) {
        task_ = task;
        context_ = context;
        index_ = index;
        const std::uint32_t job = posted_.load(std::memory_order_relaxed) + 1;
        posted_.store(job, std::memory_order_release);
        posted_.notify_one();
    }

    // Waits for the posted task and frees the worker; returns what the task threw, if anything.
    std::exception_ptr wait() {
        const std::uint32_t job = posted_.load(std::memory_order_relaxed);
        waitFor(finished_, job);
        std::exception_ptr error = std::move(error_);
        error_ = nullptr;
        busy_.store(false, std::memory_order_release);
        return error;
    }

private:
    static void waitFor(std::atomic<std::uint32_t>& counter, std::uint32_t value) {
        for (int spin = 0; spin < 4000; ++spin) {
            if (counter.load(std::memory_order_acquire) == value) return;
#if defined(__x86_64__) || defined(__i386__)
            __builtin_ia32_pause();
#endif
        }
        for (std::uint32_t seen = counter.load(std::memory_order_acquire); seen != value;
             seen = counter.load(std::memory_order_acquire))
            counter.wait(seen, std::memory_order_acquire);
    }

    void loop() {
        std::uint32_t done = 0;
        for (;;) {
            waitFor(posted_, done + 1);
            done += 1;
            if (quit_.load(std::memory_order_relaxed)) return;
            try {
                task_(context_, index_);
            } catch (...) {  // (bad_alloc, an InputError...): handed to the caller, which rethrows it
                error_ = std::current_exception();
            }
            finished_.store(done, std::memory_order_release);
            finished_.notify_one();
        }
    }

    std::atomic<bool> busy_{false};  // set from tryClaim() to wait(): one task at a time
    IndexedTask task_ = nullptr;
    void* context_ = nullptr;
    int index_ = 0;
    std::exception_ptr error_;  // what the last task threw; written before `finished`, read after it
    std::atomic<std::uint32_t> posted_{0}, finished_{0};
    std::atomic<bool> quit_{false};
    std::thread thread_;  // last: started after every other member exists
};

ThreadPool::ThreadPool(int helpers) { grow(helpers); }

ThreadPool::~ThreadPool() {
    for (int i = count_.load() - 1; i >= 0; --i) workers_[i].reset();
}

ThreadPool& ThreadPool::engine() {
    static ThreadPool pool(int(std::thread::hardware_concurrency()) - 1);
    return pool;
}

void ThreadPool::grow(int helpers) {
    if (helpers > kMaxHelpers) helpers = kMaxHelpers;
    if (helpers <= count_.load(std::memory_order_acquire)) return;
    std::lock_guard lock(grow_mutex_);
    for (int n = count_.load(std::memory_order_relaxed); n < helpers; ++n) {
        workers_[n] = std::make_unique<Worker>();
        count_.store(n + 1, std::memory_order_release);
    }
}

ThreadPool::Worker* ThreadPool::claim() {
    const int n = count_.load(std::memory_order_acquire);
    for (int i = 0; i < n; ++i)
        if (workers_[i]->tryClaim()) return workers_[i].get();
    return nullptr;
}

void ThreadPool::runBoth(Task mine, void* mine_context, Task other, void* other_context) {
    struct Other {
        Task task;
        void* context;
    } o{other, other_context};
    Worker* helper = claim();
    if (!helper) {
        mine(mine_context);
        other(other_context);
        return;
    }
    helper->post([](void* c, int) { static_cast<Other*>(c)->task(static_cast<Other*>(c)->context); }, &o, 0);
    try {
        mine(mine_context);
    } catch (...) {
        helper->wait();  // the helper's task refers to this stack; this thread's exception wins
        throw;
    }
    if (std::exception_ptr error = helper->wait()) std::rethrow_exception(error);
}

void ThreadPool::run(int tasks, IndexedTask task, void* context) {
    if (tasks <= 0) return;
    grow(tasks - 1);
    std::vector<std::exception_ptr> errors(static_cast<size_t>(tasks));
    std::vector<std::pair<Worker*, int>> posted;  // (helper, its task)
    std::vector<int> here;                        // tasks without a free helper: run on this thread after task 0
    // Reserved, and runHere catches: nothing between posting a task and waiting for it throws, so every posted task
    // is waited for (they refer to this stack).
    posted.reserve(size_t(tasks));
    here.reserve(size_t(tasks));
    for (int k = 1; k < tasks; ++k) {
        if (Worker* w = claim()) {
            w->post(task, context, k);
            posted.emplace_back(w, k);
        } else {
            here.push_back(k);
        }
    }
    auto runHere = [&](int k) {
        try {
            task(context, k);
        } catch (...) {
            errors[size_t(k)] = std::current_exception();
        }
    };
    runHere(0);
    for (int k : here) runHere(k);
    for (auto& [worker, k] : posted) errors[size_t(k)] = worker->wait();
    for (const std::exception_ptr& e : errors)
        if (e) std::rethrow_exception(e);
}

}  // namespace attnviz
