// Splitting a large matrix-vector product between the calling thread and one helper thread.
// A greedy decoder step reads every output weight once (fc_out of the large model is 41 MB): that read is bounded by
// memory bandwidth, and one core draws about half of what two can. Small products are not split: the hand-off
// (a few microseconds) would cost more than it saves.
#pragma once
#include "base/tensor.h"

#include <cstdint>

namespace attnviz {

// y (rows) = W (rows, cols) · x (cols). W row-major; x and y must not overlap. The split falls on a multiple of 16
// rows, so Eigen groups the rows of each dot product as it does unsplit.
void splitGemv(const Mat& W, const float* x, float* y);

// Runs work(begin, end) over [0, rows) in at most two contiguous pieces, the second on the helper thread, when
// `bytes` (what the work reads) is large enough to pay for the hand-off; otherwise work(0, rows) on this thread.
// Allocates nothing: `work` is called through a pointer, not copied into a std::function.
using RowWork = void (*)(void* context, Eigen::Index begin, Eigen::Index end);
void splitRows(Eigen::Index rows, std::int64_t bytes, RowWork work, void* context);

template <class F>
void splitRows(Eigen::Index rows, std::int64_t bytes, F& work) {
    splitRows(
        rows, bytes, [](void* c, Eigen::Index b, Eigen::Index e) { (*static_cast<F*>(c))(b, e); }, &work);
}

// Whether work reading `bytes` gains from the second core: splitting is on and the work is not so small that the
// hand-off costs more.
bool splitPays(std::int64_t bytes);

// Runs mine() on this thread and other() on the helper at the same time; returns when both are done. When the
// helper is taken or splitting is off, runs both here, mine() first. If either throws, the exception reaches the
// caller once both have stopped (this thread's, when both throw). The same holds for splitRows and shareChunks.
using Task = void (*)(void* context);
void runBoth(Task mine, void* mine_context, Task other, void* other_context);

template <class A, class B>
void runBoth(A& mine, B& other) {
    runBoth([](void* c) { (*static_cast<A*>(c))(); }, &mine, [](void* c) { (*static_cast<B*>(c))(); }, &other);
}

// work(i) for every chunk i in [0, chunks), shared between this thread and the helper: this thread takes them from
// the first onwards and the helper from the last backwards, one at a time, until they meet, so neither waits on the
// other for long, whatever else the machine is doing. Chunk i's work must not depend on which thread runs it.
using ChunkWork = void (*)(void* context, Eigen::Index chunk);
void shareChunks(Eigen::Index chunks, ChunkWork work, void* context);

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
// which are still in its L2 (2 MB per core here); with plain shareChunks those are the ones read first next time,
// long evicted. Chunk i's work must not depend on which thread runs it.
void shareChunks(Eigen::Index chunks, ChunkWork work, void* context, ChunkCursor& cursor);

// Off for callers that already keep every core busy (a file decoded sentence-parallel); on by default on machines
// with more than one core. Process-wide.
void setRowSplitting(bool enabled);
bool rowSplitting();

}  // namespace attnviz
