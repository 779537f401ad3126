// The bahdanau step of nn/decoder.h with the context folded into per-sentence products: the same results to float32
// round-off (the same sums in another order), and bit for bit the same whichever threads, tables or chaining it uses.
// The context c = Hᵀa enters the GRU input and the output layer through the context columns W_c of
// decoder.rnn.weight_ih and fc_out: W_c c = (W_c Hᵀ) a. W_c Hᵀ is computed once per sentence, so a step reads the
// (V, S) product instead of fc_out's (V, 2H_e) context columns, which pays when S is short and fc_out does not stay
// in cache (foldingPays; docs/performance.md, "Folded context"). The products of the previous token's embedding
// (fc_out's and W_ih's x columns) depend on the token alone and are kept per token in TokenTables.
// Legend: S source length, S' = paddedColumns(S), E emb_dim, H_e enc_hid_dim, H_d dec_hid_dim, V target vocabulary.
#pragma once
#include "base/tensor.h"
#include "fast/token_tables.h"
#include "kernels/gemv_terms.h"
#include "kernels/thread_pool.h"
#include "model/model.h"
#include "nn/attention.h"
#include "nn/decoder.h"
#include "nn/encoder.h"

namespace attnviz {

// Which bahdanau step a decode uses: Auto folds when it pays (foldingPays); Always and Never let tests compare both
// ways with the reference and benchmarks measure both.
enum class Folding { Auto, Always, Never };

// Whether the folded step pays for a sentence of S tokens: a bahdanau model whose (V, S) product is at most a quarter
// of the columns it replaces (4·S ≤ 2H_e) and whose fc_out is larger than a core's L2, so that reading it is what
// bounds the step. A model whose weights stay in cache gains nothing and pays for the per-sentence products.
bool foldingPays(const Model& model, int S);

// The step in three phases:
//   1. both cores: the products that need only s_prev and y_prev and are not at hand: W_hh s_prev and the additive
//      attention's query W_s s_prev (unless carried from the last step), W_ih's x columns times x (unless kept in
//      the token tables); then (this thread) the rest of the attention;
//   2. this thread: gi = W_x x + (W_c Hᵀ) a + b_ih and the GRU gates;
//   3. both cores: logits = fc_out's s columns · s + (W_c Hᵀ) a, one pass over fc_out's rows, + its x columns · x
//      (kept, or computed apart in the same pass) + b.
// Owns the per-step scratch: after begin(), step() allocates nothing.
class FoldedDecoder {
public:
    // A bahdanau model (InputError otherwise). `tables` (optional, for this very model object; InputError otherwise)
    // keep the per-token products across steps and sentences; `pool` as in Decoder. Only speed depends on either.
    FoldedDecoder(const Model& model, TokenTables* tables, ThreadPool* pool);
    // Attention::setInterventions; before begin(). The folded products read the step's (intervened) row a, so an
    // intervention reaches the GRU input and the logits exactly as in the plain step.
    void setInterventions(const Interventions* iv) { attention_.setInterventions(iv); }

    // As Decoder::begin; also computes W_ih's context columns times each h_j.
    void begin(const EncoderState& enc, DecoderState& initial, StepOutput& out);
    // Tells step() that until step `last_t`, the next step will most likely continue from the state it returns
    // (greedy decoding and the session do; beam search steps several states in turn and does not call this). A
    // step t < last_t then also computes the next step's products of its new state while fc_out streams.
    // Only speed depends on it: a step from any other state computes them itself. begin() resets it.
    void chainSteps(int last_t) { chain_until_ = last_t; }
    // As Decoder::step and Decoder::stepFeatures (phases 1 and 2 are shared, so both give the same rows).
    void step(const EncoderState& enc, int y_prev, int t, const DecoderState& prev, DecoderState& next,
              StepOutput& out);
    void stepFeatures(const EncoderState& enc, int y_prev, int t, const DecoderState& prev, DecoderState& next,
                      AttentionStep& attn, float* features);

private:
    // Phases 1 and 2: the attention and the new state.
    void foldedState(const EncoderState& enc, int y_prev, int t, const DecoderState& prev, DecoderState& next,
                     AttentionStep& attn);
    // Phase 3 after the first step: the logits, and (chaining) the next step's products of s.
    void outputPass(int t, const DecoderState& next, std::span<const GemvTerm> terms,
                    std::span<const GemvTerm> fc_x_apart, float* fc_x_out, StepOutput& out);
    // The jobs that compute W_hh s into gh_ and the attention's query W_s s into query_ (when it has one); returns
    // how many.
    size_t stateJobs(const Vec& s, GemvTerm& hh, GemvTerm& query, GemvJob* jobs);

    // The per-token products of y_prev (TokenTables): the kept row, or computed into x_rows_[part] (and kept).
    const float* tokenRow(TokenTables::Part part, int y) const;
    void keepRow(TokenTables::Part part, int y);

    const Model* model_;
    TokenTables* tables_ = nullptr;  // nullptr, or enabled tables of *model_
    ThreadPool* pool_;
    Attention attention_;
    Vec query_;  // (H_d) the additive score's query W_s s_prev
    Vec gi_;     // (3H_d) W_ih [x ; c] + b_ih
    Vec gh_;     // (3H_d) W_hh s_prev, then the cell's gates
    bool fold_fc_ready_ =
        false;       // fold_fc_ is computed in the first step()'s output pass (forced decoding never needs it)
    Mat fold_ih_;    // (3H_d, S') W_ih's context columns times each h_j, zeros past S
    Mat fold_fc_;    // (V, S') fc_out's context columns times each h_j
    Vec weights_;    // (S') this step's attention row a, zeros past S
    Vec x_rows_[2];  // y_prev's products when not kept: (V) fc_out's x columns · x, (3H_d) W_ih's · x
    // A step t < chain_until_ computes W_hh s and the attention's query for its new state s in its output pass, so
    // that they stream with fc_out rather than in a phase of their own; carried_: gh_ and query_ hold them, for the
    // state carried_s_. cursor_: where the two cores met in the last output pass (shareChunks).
    int chain_until_ = 0;
    bool carried_ = false;
    Vec carried_s_;  // (H_d)
    ChunkCursor cursor_;
};

}  // namespace attnviz
