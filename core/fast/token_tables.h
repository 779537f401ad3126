// Per-token products of the folded bahdanau step (fast/folded_decoder.h), kept between steps and sentences (a memo
// shared by decoders; decode/ keeps one per model).
// A step's previous token y enters it only as x = E_t[y], through two weight blocks:
//   output: fc_out's x columns (V, E) · x       -> V floats, added to the logits
//   input:  decoder.rnn.weight_ih's x columns (3H_d, E) · x -> 3H_d floats, added to the GRU's input gates
// Both depend on y alone. A folded step computes them as separate products and, given tables, keeps them per token,
// so a later step from the same token reads two rows instead of two weight blocks (docs/performance.md, "Token
// tables"). Every row is the product a step computes (gemvTerms' order; computeAll uses gemvMany, which sums the
// same way), so results are bit for bit the same with tables, without them, and whoever filled a row.
// Memory grows with the distinct tokens a model is stepped from, up to V · (V + 3H_d) floats; a model whose full
// tables exceed the budget gets none (enabled() is false) and computes every step.
// Thread-safe: decoders on several threads may share one.
#pragma once
#include "kernels/gemv_terms.h"
#include "model/model.h"

#include <atomic>
#include <cstdint>
#include <memory>

namespace attnviz {

class TokenTables {
public:
    static constexpr std::int64_t kDefaultMaxBytes = std::int64_t(1) << 30;  // 1 GiB

    enum Part { Output = 0, Input = 1 };

    // `model` must outlive the tables, and its weights must not change while they exist (the model is shared as const).
    explicit TokenTables(const Model& model, std::int64_t max_bytes = kDefaultMaxBytes);
    ~TokenTables();
    TokenTables(const TokenTables&) = delete;
    TokenTables& operator=(const TokenTables&) = delete;

    const Model& model() const { return *model_; }
    // The weight block whose product with x a part holds, as a term times x (a bahdanau model's).
    static GemvTerm block(const Model& model, Part part, const float* x);

    // A bahdanau model whose full tables fit the budget.
    bool enabled() const { return enabled_; }
    // Floats per row: V (Output), 3H_d (Input).
    Eigen::Index width(Part part) const { return width_[part]; }
    // Token y's row, or nullptr when nobody has kept it yet (or the tables are off). y must be a target id.
    const float* find(Part part, int y) const;
    // Keeps a copy of `row` (width(part) floats) as token y's; does nothing if it is kept already or the tables
    // are off. The row must be the product described above: nothing checks it.
    void keep(Part part, int y, const float* row);
    // Computes every row (sharing the work with `pool`; nullptr: this thread) and keeps those not kept yet; for tests
    // and benchmarks that want every sentence to read kept rows from the first.
    void computeAll(ThreadPool* pool);
    // Rows kept, and the bytes they take.
    int kept(Part part) const { return kept_[part].load(std::memory_order_relaxed); }
    std::int64_t bytesKept() const;

private:
    const Model* model_;
    bool enabled_ = false;
    Eigen::Index width_[2] = {0, 0};
    // Per part: V rows of width() floats, allocated whole but written (and so taken from the system) row by row.
    std::unique_ptr<float[]> rows_[2];
    // Per part and token: 0 empty, 1 being written, 2 ready (released after the row is written).
    std::unique_ptr<std::atomic<std::uint8_t>[]> state_[2];
    std::atomic<int> kept_[2] = {0, 0};
};

}  // namespace attnviz
