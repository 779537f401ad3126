// How decode/ runs a Transformer model (docs/transformer.md): the sentence encoded once, then one decoder step per
// target position through nn/transformer's key/value cache, so a step costs O(t). Internal to decode/ (the public
// API is decode/decoding.h, the same for every model kind).
// Legend: S source length with <sos>/<eos>, T target length, L layers, nhead heads, V target vocabulary size.
#pragma once
#include "decode/decoding.h"
#include "nn/transformer.h"

#include <vector>

namespace attnviz::detail {

// One sentence of a Transformer model. The model must outlive it.
class TransformerSteps {
public:
    // Encodes source ids ([<sos>] + tokens + [<eos>], already checked against the vocabulary). Throws InputError
    // when the source is longer than a stored positional table.
    // `iv` (nullptr: none): the decode's knockout and heads off, already checked (checkInterventions).
    // `pool`: the step path's (nullptr: one thread).
    TransformerSteps(const Model& model, const std::vector<int>& source_ids, const Interventions* iv = nullptr,
                     ThreadPool* pool = &ThreadPool::engine());

    const TransformerEncoding& encoding() const { return encoding_; }
    // Feeds `token` at position state.length; `out` gets the next token's distribution and every attention.
    void step(TransformerDecoderState& state, int token, TransformerStep& out) const;
    // The largest target length the positional table allows (no limit when PE is computed).
    int lengthLimit(int max_len) const;

private:
    Transformer net_;
    TransformerEncoding encoding_;
};

// The row of a step: everything but token/token_text/log_prob/forced. `attention` is the last decoder layer's
// cross-attention averaged over its heads; `scores` has no single meaning for several heads and is NaN; `context`
// is empty; entropy is that of `attention`.
// `target`: the target vocabulary's specials (what may be a candidate).
void fillTransformerRecord(const TransformerStep& out, int top_k, const SpecialIds& target, StepRecord& rec);

// The three attentions of docs/transformer.md's decode object, from the encoder and the records of the T steps
// (rows[i] the record of target token i): fills r.cross_attention, r.encoder_self_attention and
// r.decoder_self_attention.
void addTransformerAttention(DecodeResult& r, const std::vector<std::vector<Mat>>& encoder_self,
                             const std::vector<const StepRecord*>& rows);

}  // namespace attnviz::detail
