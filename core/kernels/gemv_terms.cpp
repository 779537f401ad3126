#include "kernels/gemv_terms.h"

#include "kernels/row_split.h"

#include <algorithm>
#include <stdexcept>

namespace attnviz {
namespace {

using Index = Eigen::Index;
// Eigen's SIMD packet for float on the target CPU (16 lanes with AVX-512, 8 with AVX, 4 with SSE or NEON).
using Packet = Eigen::internal::packet_traits<float>::type;
// (GCC notes that a vector type's alignment attribute is dropped as a template argument; Eigen's own code does this.)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"
constexpr Index kLanes = Eigen::internal::unpacket_traits<Packet>::size;
#pragma GCC diagnostic pop

// Four consecutive rows from `r` of every term: out[i] = Σ_k row (r + i) of term k · x_k.
// Two packet accumulators per row (eight independent FMA chains: from L2, one chain per row waits on FMA latency);
// the columns past the last whole packet are summed in scalars.
void fourRows(std::span<const GemvTerm> terms, Index r, float out[4]) {
    using namespace Eigen::internal;
    Packet a0 = pset1<Packet>(0.0f), a1 = a0, a2 = a0, a3 = a0, b0 = a0, b1 = a0, b2 = a0, b3 = a0;
    float t0 = 0.0f, t1 = 0.0f, t2 = 0.0f, t3 = 0.0f;
    for (const GemvTerm& term : terms) {
        const float* w0 = term.w + r * term.stride;
        const float* w1 = w0 + term.stride;
        const float* w2 = w1 + term.stride;
        const float* w3 = w2 + term.stride;
        const float* x = term.x;
        Index c = 0;
        for (; c + 2 * kLanes <= term.cols; c += 2 * kLanes) {
            const Packet xa = ploadu<Packet>(x + c), xb = ploadu<Packet>(x + c + kLanes);
            a0 = pmadd(ploadu<Packet>(w0 + c), xa, a0);
            a1 = pmadd(ploadu<Packet>(w1 + c), xa, a1);
            a2 = pmadd(ploadu<Packet>(w2 + c), xa, a2);
            a3 = pmadd(ploadu<Packet>(w3 + c), xa, a3);
            b0 = pmadd(ploadu<Packet>(w0 + c + kLanes), xb, b0);
            b1 = pmadd(ploadu<Packet>(w1 + c + kLanes), xb, b1);
            b2 = pmadd(ploadu<Packet>(w2 + c + kLanes), xb, b2);
            b3 = pmadd(ploadu<Packet>(w3 + c + kLanes), xb, b3);
        }
        for (; c + kLanes <= term.cols; c += kLanes) {
            const Packet xa = ploadu<Packet>(x + c);
            a0 = pmadd(ploadu<Packet>(w0 + c), xa, a0);
            a1 = pmadd(ploadu<Packet>(w1 + c), xa, a1);
            a2 = pmadd(ploadu<Packet>(w2 + c), xa, a2);
            a3 = pmadd(ploadu<Packet>(w3 + c), xa, a3);
        }
        for (; c < term.cols; ++c) {
            t0 += w0[c] * x[c];
            t1 += w1[c] * x[c];
            t2 += w2[c] * x[c];
            t3 += w3[c] * x[c];
        }
    }
    out[0] = predux(padd(a0, b0)) + t0;
    out[1] = predux(padd(a1, b1)) + t1;
    out[2] = predux(padd(a2, b2)) + t2;
    out[3] = predux(padd(a3, b3)) + t3;
}

// The projection's inner block: four rows of `block` times J vectors xs[j] (J·4 independent chains, and each
// loaded packet of the rows is used J times). out[i][j] = row (r + i) · xs[j].
template <int J>
void fourRowsTimes(const GemvTerm& block, Index r, const float* const* xs, float out[4][J]) {
    using namespace Eigen::internal;
    Packet acc[4][J];
    for (auto& row : acc)
        for (Packet& a : row) a = pset1<Packet>(0.0f);
    float tail[4][J] = {};
    const float* w[4] = {block.w + r * block.stride, block.w + (r + 1) * block.stride, block.w + (r + 2) * block.stride,
                         block.w + (r + 3) * block.stride};
    Index c = 0;
    for (; c + kLanes <= block.cols; c += kLanes) {
        Packet xv[J];
        for (int j = 0; j < J; ++j) xv[j] = ploadu<Packet>(xs[j] + c);
        for (int i = 0; i < 4; ++i) {
            const Packet wv = ploadu<Packet>(w[i] + c);
            for (int j = 0; j < J; ++j) acc[i][j] = pmadd(wv, xv[j], acc[i][j]);
        }
    }
    for (; c < block.cols; ++c)
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < J; ++j) tail[i][j] += w[i][c] * xs[j][c];
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < J; ++j) out[i][j] = predux(acc[i][j]) + tail[i][j];
}

float oneRow(std::span<const GemvTerm> terms, Index r) {
    using namespace Eigen::internal;
    Packet a = pset1<Packet>(0.0f);
    float t = 0.0f;
    for (const GemvTerm& term : terms) {
        const float* w = term.w + r * term.stride;
        Index c = 0;
        for (; c + kLanes <= term.cols; c += kLanes) a = pmadd(ploadu<Packet>(w + c), ploadu<Packet>(term.x + c), a);
        for (; c < term.cols; ++c) t += w[c] * term.x[c];
    }
    return predux(a) + t;
}

// Four rows from r (a multiple of 4), or one row r: y = Σ terms and, with `apart`, apart_y = Σ apart, summed on its own.
void sumFour(std::span<const GemvTerm> terms, std::span<const GemvTerm> apart, Index r, float* y, float* apart_y) {
    fourRows(terms, r, y + r);
    if (!apart.empty()) fourRows(apart, r, apart_y + r);
}
void sumOne(std::span<const GemvTerm> terms, std::span<const GemvTerm> apart, Index r, float* y, float* apart_y) {
    y[r] = oneRow(terms, r);
    if (!apart.empty()) apart_y[r] = oneRow(apart, r);
}

// Rows [begin, end) where begin is a multiple of 4 (splitRows splits on multiples of 16); apart_y as in GemvJob.
void gemvRows(std::span<const GemvTerm> terms, Index begin, Index end, float* y, std::span<const GemvTerm> apart = {},
              float* apart_y = nullptr) {
    Index r = begin;
    for (; r + 4 <= end; r += 4) sumFour(terms, apart, r, y, apart_y);
    for (; r < end; ++r) sumOne(terms, apart, r, y, apart_y);
}

std::int64_t bytesRead(std::span<const GemvTerm> terms, Index rows) {
    std::int64_t n = 0;
    for (const GemvTerm& t : terms) n += std::int64_t(t.cols) * rows;
    return n * std::int64_t(sizeof(float));
}

}  // namespace

void gemvTerms(std::span<const GemvTerm> terms, Index rows, float* y, ThreadPool* pool) {
    auto work = [&](Index begin, Index end) { gemvRows(terms, begin, end, y); };
    splitRows(rows, bytesRead(terms, rows), work, pool);
}

void gemvJobs(std::span<const GemvJob> jobs, ThreadPool* pool, ChunkCursor* cursor) {
    constexpr std::int64_t kChunkBytes = 256 << 10;
    constexpr size_t kMaxJobs = 8;
    if (jobs.size() > kMaxJobs) {              // (no caller has more; the plan below has room for 8)
        gemvJobs(jobs.first(kMaxJobs), pool);  // (a cursor belongs to one list of chunks, not to its pieces)
        gemvJobs(jobs.subspan(kMaxJobs), pool);
        return;
    }
    auto jobBytes = [](const GemvJob& j, Index rows) { return bytesRead(j.terms, rows) + bytesRead(j.apart, rows); };
    std::int64_t total = 0;
    for (const GemvJob& j : jobs) total += jobBytes(j, j.rows);
    if (!splitPays(total, pool)) {
        for (const GemvJob& j : jobs) gemvRows(j.terms, 0, j.rows, j.y, j.apart, j.apart_y);
        return;
    }
    // Chunk c of the whole list is chunk c - start[k] of job k, rows [(c - start[k]) * step[k], ...).
    struct Plan {
        std::span<const GemvJob> jobs;
        Index step[kMaxJobs], start[kMaxJobs + 1];
    } plan{jobs, {}, {}};
    for (size_t k = 0; k < jobs.size(); ++k) {
        // (Sized by the terms alone: a job whose `apart` comes and goes between calls keeps its chunks, so a cursor
        // still points at the same rows.)
        const std::int64_t row_bytes = std::max<std::int64_t>(1, bytesRead(jobs[k].terms, 1));
        plan.step[k] = std::max<Index>(16, kChunkBytes / row_bytes / 4 * 4);
        plan.start[k + 1] = plan.start[k] + (jobs[k].rows + plan.step[k] - 1) / plan.step[k];
    }
    auto work = [](void* c, Index chunk) {
        const Plan& p = *static_cast<const Plan*>(c);
        size_t k = 0;
        while (chunk >= p.start[k + 1]) ++k;
        const GemvJob& j = p.jobs[k];
        const Index begin = (chunk - p.start[k]) * p.step[k];
        gemvRows(j.terms, begin, std::min(j.rows, begin + p.step[k]), j.y, j.apart, j.apart_y);
    };
    ChunkCursor from_the_start;
    shareChunks(plan.start[jobs.size()], work, &plan, cursor ? *cursor : from_the_start, pool);
}

void gemvMany(const GemvTerm& block, Index rows, const Eigen::Ref<const Mat>& X, float* out, Index out_stride,
              ThreadPool* pool) {
    eigen_assert(X.cols() == block.cols);
    // 32 rows of a 256-column block (32 KB) stay in L1 while 512 vectors (512 KB) pass from L2. Row blocks start on
    // multiples of 4, so gemvRows groups the rows as gemvTerms does.
    constexpr Index kRowBlock = 32, kVectorBlock = 512;
    auto work = [&](Index begin, Index end) {
        GemvTerm term = block;
        for (Index v0 = begin; v0 < end; v0 += kVectorBlock) {
            const Index v1 = std::min(end, v0 + kVectorBlock);
            for (Index r0 = 0; r0 < rows; r0 += kRowBlock)
                for (Index k = v0; k < v1; ++k) {
                    term.x = X.row(k).data();
                    gemvRows({&term, 1}, r0, std::min(rows, r0 + kRowBlock), out + k * out_stride);
                }
        }
    };
    splitRows(X.rows(), bytesRead({&block, 1}, rows) * X.rows(), work, pool);
}

// Columns j.. of out for rows r..r+3, J at a time while J of them are left; returns the first column not done.
template <int J>
Index projectFour(const GemvTerm& block, Index r, const Eigen::Ref<const Mat>& H, Index j, Mat& out) {
    for (; j + J <= H.rows(); j += J) {
        const float* xs[J];
        for (int k = 0; k < J; ++k) xs[k] = H.row(j + k).data();
        float four[4][J];
        fourRowsTimes<J>(block, r, xs, four);
        for (int i = 0; i < 4; ++i)
            for (int k = 0; k < J; ++k) out(r + i, j + k) = four[i][k];
    }
    return j;
}

Index paddedColumns(Index n) { return (n + kLanes - 1) / kLanes * kLanes; }

// Rows r..r+3 of out = block · Hᵀ: the four rows stay in L1 while every h_j passes.
void projectFourRows(const GemvTerm& block, Index r, const Eigen::Ref<const Mat>& H, Mat& out) {
    Index j = 0;
    j = projectFour<6>(block, r, H, j, out);  // 24 accumulators: most of AVX-512's 32 registers
    j = projectFour<3>(block, r, H, j, out);
    projectFour<1>(block, r, H, j, out);
}

void projectOneRow(const GemvTerm& block, Index r, const Eigen::Ref<const Mat>& H, Mat& out) {
    GemvTerm t = block;
    for (Index j = 0; j < H.rows(); ++j) {
        t.x = H.row(j).data();
        out(r, j) = oneRow({&t, 1}, r);
    }
}

void projectRows(const GemvTerm& block, Index rows, const Eigen::Ref<const Mat>& H, Mat& out, ThreadPool* pool) {
    eigen_assert(H.cols() == block.cols);
    out.setZero(rows, paddedColumns(H.rows()));
    auto work = [&](Index begin, Index end) {
        Index r = begin;
        for (; r + 4 <= end; r += 4) projectFourRows(block, r, H, out);
        for (; r < end; ++r) projectOneRow(block, r, H, out);
    };
    splitRows(rows, bytesRead({&block, 1}, rows), work, pool);
}

void gemvTermsProjecting(std::span<const GemvTerm> terms, const GemvTerm& block, const Eigen::Ref<const Mat>& H,
                         const float* a, Index rows, Mat& projection, float* y, ThreadPool* pool,
                         std::span<const GemvTerm> apart, float* apart_y) {
    eigen_assert(H.cols() == block.cols);
    constexpr size_t kMaxTerms = 7;
    if (terms.size() > kMaxTerms) throw std::invalid_argument("gemvTermsProjecting: more than 7 terms");
    projection.setZero(rows, paddedColumns(H.rows()));
    GemvTerm all[kMaxTerms + 1];
    std::copy(terms.begin(), terms.end(), all);
    all[terms.size()] = {projection.data(), projection.outerStride(), projection.cols(), a};
    const std::span<const GemvTerm> with_projection(all, terms.size() + 1);
    auto work = [&](Index begin, Index end) {
        Index r = begin;
        for (; r + 4 <= end; r += 4) {  // the projection's rows are still in L1 when the sum reads them
            projectFourRows(block, r, H, projection);
            sumFour(with_projection, apart, r, y, apart_y);
        }
        for (; r < end; ++r) {
            projectOneRow(block, r, H, projection);
            sumOne(with_projection, apart, r, y, apart_y);
        }
    };
    splitRows(rows, bytesRead(terms, rows) + bytesRead({&block, 1}, rows) + bytesRead(apart, rows), work, pool);
}

void projectVectors(const GemvTerm& block, Index rows, const Eigen::Ref<const Mat>& H, Mat& out, ThreadPool* pool) {
    Mat by_row;  // (rows, S')
    projectRows(block, rows, H, by_row, pool);
    out = by_row.leftCols(H.rows()).transpose();
}

}  // namespace attnviz
