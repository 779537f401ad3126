// Splitting a large matrix-vector product between the calling thread and one helper of a ThreadPool.
// A greedy decoder step is bounded by the memory bandwidth of reading its weights, and two cores draw more of it than
// one; small products stay on one thread, where the hand-off would cost more than it saves (docs/performance.md).
// Every function takes the pool to share with: nullptr keeps all the work on the calling thread.
#pragma once
#include "base/tensor.h"
#include "kernels/thread_pool.h"

#include <cstdint>

namespace attnviz {

// y (rows) = W (rows, cols) · x (cols). W row-major; x and y must not overlap. The split falls on a multiple of 16
// rows, so Eigen groups the rows of each dot product as it does unsplit.
void splitGemv(const Mat& W, const float* x, float* y, ThreadPool* pool);

// Runs work(begin, end) over [0, rows) in at most two contiguous pieces, the second on a helper of `pool`, when
// `bytes` (what the work reads) is large enough to pay for the hand-off; otherwise work(0, rows) on this thread.
// Allocates nothing: `work` is called through a pointer, not copied into a std::function.
using RowWork = void (*)(void* context, Eigen::Index begin, Eigen::Index end);
void splitRows(Eigen::Index rows, std::int64_t bytes, RowWork work, void* context, ThreadPool* pool);

template <class F>
void splitRows(Eigen::Index rows, std::int64_t bytes, F& work, ThreadPool* pool) {
    splitRows(
        rows, bytes, [](void* c, Eigen::Index b, Eigen::Index e) { (*static_cast<F*>(c))(b, e); }, &work, pool);
}

// Whether work reading `bytes` gains from a second core: there is a pool with a helper and the work is not so small
// that the hand-off costs more.
bool splitPays(std::int64_t bytes, const ThreadPool* pool);

// ThreadPool::runBoth, or both tasks here (mine() first) without a pool. Exceptions as in ThreadPool::runBoth; the
// same holds for splitRows and shareChunks.
template <class A, class B>
void runBoth(A& mine, B& other, ThreadPool* pool) {
    if (pool) return pool->runBoth(mine, other);
    mine();
    other();
}

// work(i) for every chunk i in [0, chunks), shared between this thread and a helper: this thread takes them from
// the first onwards and the helper from the last backwards, one at a time, until they meet, so neither waits on the
// other for long, whatever else the machine is doing. Chunk i's work must not depend on which thread runs it.
using ChunkWork = void (*)(void* context, Eigen::Index chunk);
void shareChunks(Eigen::Index chunks, ChunkWork work, void* context, ThreadPool* pool);

// Where the last shareChunks(..., cursor) over the same chunks stopped: the chunk where the two cores met, and which
// way each went.
struct ChunkCursor {
    Eigen::Index pivot = 0;
    bool caller_forward = true;
};

// shareChunks for work that reads the same data call after call (a greedy decoder's steps): the chunks form a ring,
// one core takes them forwards from cursor.pivot and the other backwards from the chunk before, until they meet
// (a fresh cursor: as above).
// The next call reverses both directions from the meeting point, so each core starts on the chunks it read last,
// which are still in its L2; with plain shareChunks those are the ones read first next time, long evicted.
// Chunk i's work must not depend on which thread runs it.
void shareChunks(Eigen::Index chunks, ChunkWork work, void* context, ChunkCursor& cursor, ThreadPool* pool);

}  // namespace attnviz
