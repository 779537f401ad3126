#include "fast/token_tables.h"

#include <algorithm>
#include <cstring>
#include <new>

namespace attnviz {
namespace {
enum : std::uint8_t { kEmpty = 0, kWriting = 1, kReady = 2 };
}  // namespace

GemvTerm TokenTables::block(const Model& m, Part part, const float* x) {
    const ModelConfig& c = m.config;  // fc_out's columns are [s ; c ; x], W_ih's [x ; c]
    if (part == Output) return columnsOf(m.params.fc_out_w, c.dec_hid_dim + 2 * c.enc_hid_dim, c.emb_dim, x);
    return columnsOf(m.params.dec_rnn.w_ih, 0, c.emb_dim, x);
}

TokenTables::TokenTables(const Model& model, std::int64_t max_bytes) : model_(&model) {
    const Model& m = model;
    if (m.config.decoder != DecoderKind::Bahdanau) return;
    const Eigen::Index V = m.params.fc_out_w.rows();
    width_[Output] = V;
    width_[Input] = m.params.dec_rnn.w_ih.rows();
    const std::int64_t full = std::int64_t(V) * (width_[Output] + width_[Input]) * std::int64_t(sizeof(float));
    if (full > max_bytes) return;
    try {
        for (int p = 0; p < 2; ++p) {
            rows_[p].reset(
                new float[size_t(V) * size_t(width_[p])]);  // not value-initialised: untouched pages stay free
            state_[p].reset(new std::atomic<std::uint8_t>[size_t(V)]);
            for (Eigen::Index y = 0; y < V; ++y) state_[p][size_t(y)].store(kEmpty, std::memory_order_relaxed);
        }
    } catch (const std::bad_alloc&) {  // a system that refuses the address space (no overcommit): decode without
        for (int p = 0; p < 2; ++p) {
            rows_[p].reset();
            state_[p].reset();
        }
        return;
    }
    enabled_ = true;
}

TokenTables::~TokenTables() = default;

const float* TokenTables::find(Part part, int y) const {
    eigen_assert(y >= 0 && y < model_->params.fc_out_w.rows());
    if (!enabled_ || state_[part][size_t(y)].load(std::memory_order_acquire) != kReady) return nullptr;
    return rows_[part].get() + size_t(y) * size_t(width_[part]);
}

void TokenTables::keep(Part part, int y, const float* row) {
    eigen_assert(y >= 0 && y < model_->params.fc_out_w.rows());
    if (!enabled_) return;
    std::uint8_t expected = kEmpty;
    if (!state_[part][size_t(y)].compare_exchange_strong(expected, kWriting, std::memory_order_acq_rel)) return;
    std::memcpy(rows_[part].get() + size_t(y) * size_t(width_[part]), row, size_t(width_[part]) * sizeof(float));
    state_[part][size_t(y)].store(kReady, std::memory_order_release);
    kept_[part].fetch_add(1, std::memory_order_relaxed);
}

void TokenTables::computeAll(ThreadPool* pool) {
    if (!enabled_) return;
    const Mat& E = model_->params.dec_embedding;  // (V, E)
    constexpr Eigen::Index kBlock = 512;          // tokens per gemvMany call: a 16 MB scratch for the large model
    Mat scratch;
    for (Part part : {Output, Input}) {
        const GemvTerm term = block(*model_, part, nullptr);
        scratch.resize(std::min<Eigen::Index>(kBlock, E.rows()), width_[part]);
        for (Eigen::Index y0 = 0; y0 < E.rows(); y0 += kBlock) {
            const Eigen::Index n = std::min(kBlock, E.rows() - y0);
            gemvMany(term, width_[part], E.middleRows(y0, n), scratch.data(), scratch.outerStride(), pool);
            for (Eigen::Index k = 0; k < n; ++k) keep(part, int(y0 + k), scratch.row(k).data());
        }
    }
}

std::int64_t TokenTables::bytesKept() const {
    return (std::int64_t(kept(Output)) * width_[Output] + std::int64_t(kept(Input)) * width_[Input]) *
           std::int64_t(sizeof(float));
}

}  // namespace attnviz
