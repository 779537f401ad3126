// How decode/ steps through one sentence, whatever the model's kind: the one place the session, greedy, forced and
// beam decoding ask the kind. The RNN kinds step a decoder state of fixed size (decode/step_decoder.h: the plain or
// the folded step); the Transformer feeds a key/value cache one position per step (decode/transformer_steps.h).
// Internal to decode/ (the public API is decode/decoding.h).
// Legend: S source length with <sos>/<eos>, T target length, V target vocabulary size, H_d dec_hid_dim.
#pragma once
#include "decode/decoding.h"
#include "decode/step_decoder.h"
#include "decode/transformer_steps.h"
#include "nn/decoder.h"
#include "nn/encoder.h"
#include "nn/transformer.h"

#include <optional>
#include <vector>

namespace attnviz::detail {

// What the steps fed so far leave for the next step.
struct DecodePrefix {
    int steps = 0;  // target tokens fed
    // RNN kinds: the decoder state before each step from step `first_state` on, and the state after the last step
    // (a session keeps them all to go back; a branch keeps only the last).
    std::vector<DecoderState> states;
    int first_state = 0;
    // Transformer: the key/value cache of the positions fed (cut back to go back, as a position's cache does not
    // depend on later positions).
    TransformerDecoderState cache;
};

// One sentence of a model of either kind. The model, the interventions and the pool of `path` must outlive it.
class KindSteps {
public:
    // Encodes source ids ([<sos>] + tokens + [<eos>], checked against the vocabulary) and begins the decoder.
    // `iv` (nullptr: none): the decode's interventions, already checked (checkInterventions). Throws InputError when
    // the source is longer than a Transformer's stored positional table.
    KindSteps(const Model& model, const std::vector<int>& source_ids, const StepPath& path,
              const Interventions* iv = nullptr);

    // Nothing fed yet.
    DecodePrefix start() const { return start_; }
    // The longest target within max_len this sentence can have: a Transformer's stored positional table bounds it.
    int lengthLimit(int max_len) const;
    // A decode that only goes forward from one prefix ends by step last_t: the folded RNN step then continues
    // from the state a step returns (only speed depends on it).
    void chainSteps(int last_t);

    // Feeds y_prev as the next step of `prefix`, which grows by it. `rec` gets the step's row: everything but
    // token/token_text/log_prob/forced, with its top_k candidates. logProbs() is then that step's distribution.
    void step(DecodePrefix& prefix, int y_prev, int top_k, StepRecord& rec);
    const Vec& logProbs() const { return rnn_ ? out_.log_probs : transformer_out_.log_probs; }
    // `prefix` cut back to its first n steps (n ≤ prefix.steps, and not before a branch's first state).
    static void truncate(DecodePrefix& prefix, int n);
    // A copy of `prefix` that another hypothesis continues (beam search); it cannot be cut back before its end.
    static DecodePrefix branch(const DecodePrefix& prefix);

    // Teacher forcing on a checked reference (its ids in the target vocabulary): fills r's target side as
    // forcedDecode documents. Step i is fed reference token i − 1 (<sos> first) and scored on reference token i.
    void forced(const TokenizedText& reference, DecodeResult& r);
    // A Transformer's attentions of docs/transformer.md from the records of a decode's T steps (rows[i] of target
    // token i); nothing for the RNN kinds, whose decode object has only the attention rows.
    void addLayerAttention(DecodeResult& r, const std::vector<const StepRecord*>& rows) const;
    // [layer][head] (S, S) for a Transformer; empty for the RNN kinds.
    const std::vector<std::vector<Mat>>& encoderSelfAttention() const;

private:
    void forcedRnn(const TokenizedText& reference, DecodeResult& r);
    void forcedTransformer(const TokenizedText& reference, DecodeResult& r);

    const Model& model_;
    DecodePrefix start_;
    // RNN kinds
    std::optional<StepDecoder> rnn_;
    EncoderState enc_;
    StepOutput out_;
    // Transformer
    std::optional<TransformerSteps> transformer_;
    TransformerStep transformer_out_;
};

}  // namespace attnviz::detail
