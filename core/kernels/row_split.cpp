#include "kernels/row_split.h"

#include <atomic>
#include <cstdint>

namespace attnviz {
namespace {

// Below this many bytes read, the hand-off costs more than the second core saves (docs/performance.md).
constexpr std::int64_t kMinSplitBytes = std::int64_t(1) << 20;

}  // namespace

bool splitPays(std::int64_t bytes, const ThreadPool* pool) {
    return bytes >= kMinSplitBytes && pool && pool->helpers() > 0;
}

void splitRows(Eigen::Index rows, std::int64_t bytes, RowWork work, void* context, ThreadPool* pool) {
    if (rows < 32 || !splitPays(bytes, pool)) {
        work(context, 0, rows);
        return;
    }
    const Eigen::Index half = rows / 2 / 16 * 16;  // same row blocking as unsplit
    auto first = [&] { work(context, 0, half); };
    auto second = [&] { work(context, half, rows); };
    pool->runBoth(first, second);
}

void shareChunks(Eigen::Index chunks, ChunkWork work, void* context, ThreadPool* pool) {
    ChunkCursor from_the_start;  // this thread forwards from chunk 0, the helper backwards from the last
    shareChunks(chunks, work, context, from_the_start, pool);
}

void shareChunks(Eigen::Index chunks, ChunkWork work, void* context, ChunkCursor& cursor, ThreadPool* pool) {
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
    runBoth(drain_mine, drain_other, pool);
    // The backward side's last chunk is where the two met: next time it goes forwards from there, the other side
    // backwards from the chunk before.
    cursor.pivot = (pivot + Eigen::Index(range.load() & 0xffffffffu)) % chunks;
    cursor.caller_forward = !cursor.caller_forward;
}

void splitGemv(const Mat& W, const float* x, float* y, ThreadPool* pool) {
    auto rowsOf = [&](Eigen::Index begin, Eigen::Index end) {
        VecMap(y + begin, end - begin).noalias() = W.middleRows(begin, end - begin) * ConstVecMap(x, W.cols());
    };
    splitRows(W.rows(), std::int64_t(W.size()) * std::int64_t(sizeof(float)), rowsOf, pool);
}

}  // namespace attnviz
