#include "kernels/row_split.h"

#include <atomic>
#include <exception>
#include <thread>

namespace attnviz {
namespace {

// Below this many bytes read, the hand-off costs more than the second core saves (bench_decode: splitting from 1 MB
// rather than 4 MB took the large luong model from 8.3 to 7.3 ms per sentence; small models never split).
constexpr std::int64_t kMinSplitBytes = std::int64_t(1) << 20;

std::atomic<bool> g_enabled{std::thread::hardware_concurrency() > 1};

// One helper thread, started on first use. The caller publishes a job by bumping `posted`; the helper runs it and
// copies the number into `finished`. Both sides spin briefly before sleeping on the atomic (a futex), because a
// greedy decode posts a job every few hundred microseconds.
class Helper {
public:
    static Helper& instance() {
        static Helper helper;
        return helper;
    }

    // Returns false when the helper is taken: by another thread, or by this one further up its stack (work that
    // itself splits), or when called from the helper thread. The caller then does all the work itself.
    bool tryRun(RowWork work, void* context, Eigen::Index begin, Eigen::Index end) {
        if (busy_.exchange(true, std::memory_order_acquire)) return false;
        work_ = work;
        context_ = context;
        begin_ = begin;
        end_ = end;
        const std::uint32_t job = posted_.load(std::memory_order_relaxed) + 1;
        posted_.store(job, std::memory_order_release);
        posted_.notify_one();
        return true;  // busy_ stays set until wait()
    }

    // Waits for the posted job; returns what it threw, if anything (the caller rethrows or, already unwinding,
    // drops it).
    std::exception_ptr wait() {
        const std::uint32_t job = posted_.load(std::memory_order_relaxed);
        waitFor(finished_, job);
        std::exception_ptr error = std::move(error_);
        error_ = nullptr;
        busy_.store(false, std::memory_order_release);
        return error;
    }

    ~Helper() {
        while (busy_.exchange(true, std::memory_order_acquire)) std::this_thread::yield();
        quit_.store(true, std::memory_order_relaxed);
        posted_.fetch_add(1, std::memory_order_release);
        posted_.notify_one();
        thread_.join();
    }

private:
    Helper() : thread_([this] { loop(); }) {}

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
                work_(context_, begin_, end_);
            } catch (...) {  // (bad_alloc, an InputError...): handed to the caller, which rethrows it
                error_ = std::current_exception();
            }
            finished_.store(done, std::memory_order_release);
            finished_.notify_one();
        }
    }

    std::atomic<bool> busy_{false};  // set from tryRun() to wait(): one job at a time
    RowWork work_ = nullptr;
    void* context_ = nullptr;
    Eigen::Index begin_ = 0, end_ = 0;
    std::exception_ptr error_;  // what the last job threw; written before `finished`, read after it
    std::atomic<std::uint32_t> posted_{0}, finished_{0};
    std::atomic<bool> quit_{false};
    std::thread thread_;  // last: started after every other member exists
};

// Posts `work` to the helper if it is free, and always waits for it before leaving scope, even when this thread's
// own share throws (the helper's work refers to the caller's stack). join() rethrows what the helper threw.
class HelperJob {
public:
    HelperJob(RowWork work, void* context, Eigen::Index begin, Eigen::Index end)
        : posted_(rowSplitting() && Helper::instance().tryRun(work, context, begin, end)) {}
    HelperJob(const HelperJob&) = delete;
    HelperJob& operator=(const HelperJob&) = delete;
    ~HelperJob() {
        if (posted_) Helper::instance().wait();  // unwinding: this thread's exception wins
    }
    bool posted() const { return posted_; }
    void join() {
        if (!posted_) return;
        posted_ = false;
        if (std::exception_ptr error = Helper::instance().wait()) std::rethrow_exception(error);
    }

private:
    bool posted_;
};

}  // namespace

void setRowSplitting(bool enabled) { g_enabled.store(enabled, std::memory_order_relaxed); }
bool rowSplitting() { return g_enabled.load(std::memory_order_relaxed); }

bool splitPays(std::int64_t bytes) { return bytes >= kMinSplitBytes && rowSplitting(); }

void splitRows(Eigen::Index rows, std::int64_t bytes, RowWork work, void* context) {
    if (rows < 32 || !splitPays(bytes)) {
        work(context, 0, rows);
        return;
    }
    const Eigen::Index half = rows / 2 / 16 * 16;  // same row blocking as unsplit
    HelperJob helper(work, context, half, rows);
    if (!helper.posted()) {
        work(context, 0, rows);
        return;
    }
    work(context, 0, half);
    helper.join();
}

void runBoth(Task mine, void* mine_context, Task other, void* other_context) {
    struct Other {
        Task task;
        void* context;
    } o{other, other_context};
    auto run = [](void* c, Eigen::Index, Eigen::Index) {
        static_cast<Other*>(c)->task(static_cast<Other*>(c)->context);
    };
    HelperJob helper(run, &o, 0, 0);
    mine(mine_context);
    if (helper.posted())
        helper.join();
    else
        other(other_context);
}

void shareChunks(Eigen::Index chunks, ChunkWork work, void* context) {
    ChunkCursor from_the_start;  // this thread forwards from chunk 0, the helper backwards from the last
    shareChunks(chunks, work, context, from_the_start);
}

void shareChunks(Eigen::Index chunks, ChunkWork work, void* context, ChunkCursor& cursor) {
    if (chunks < 2 || chunks >= (Eigen::Index(1) << 31)) {
        for (Eigen::Index i = 0; i < chunks; ++i) work(context, i);
        return;
    }
    const Eigen::Index pivot = cursor.pivot % chunks;
    // The chunks not taken yet are offsets [lo, hi) from the pivot, packed in one word so that either end is taken
    // with one compare-and-swap: lo in the low 32 bits, hi in the high.
    std::atomic<std::uint64_t> range{std::uint64_t(chunks) << 32};
    struct Side {
        std::atomic<std::uint64_t>* range;
        Eigen::Index chunks, pivot;
        bool forward;
        ChunkWork work;
        void* context;
        void drain() const {
            std::uint64_t r = range->load(std::memory_order_relaxed);
            for (;;) {
                const std::uint64_t lo = r & 0xffffffffu, hi = r >> 32;
                if (lo >= hi) return;
                const std::uint64_t taken = forward ? lo : hi - 1;
                const std::uint64_t rest = forward ? (hi << 32 | (lo + 1)) : ((hi - 1) << 32 | lo);
                if (!range->compare_exchange_weak(r, rest, std::memory_order_relaxed)) continue;
                work(context, (pivot + Eigen::Index(taken)) % chunks);
                r = rest;
            }
        }
    };
    const Side mine{&range, chunks, pivot, cursor.caller_forward, work, context},
        other{&range, chunks, pivot, !cursor.caller_forward, work, context};
    auto drain_mine = [&] { mine.drain(); };
    auto drain_other = [&] { other.drain(); };
    runBoth(drain_mine, drain_other);
    // The backward side's last chunk is where the two met: next time it goes forwards from there, the other side
    // backwards from the chunk before.
    cursor.pivot = (pivot + Eigen::Index(range.load() & 0xffffffffu)) % chunks;
    cursor.caller_forward = !cursor.caller_forward;
}

void splitGemv(const Mat& W, const float* x, float* y) {
    auto rowsOf = [&](Eigen::Index begin, Eigen::Index end) {
        VecMap(y + begin, end - begin).noalias() = W.middleRows(begin, end - begin) * ConstVecMap(x, W.cols());
    };
    splitRows(W.rows(), std::int64_t(W.size()) * std::int64_t(sizeof(float)), rowsOf);
}

}  // namespace attnviz
