// Decoding as the window asks for it: a source cut to a length, a prefix of target tokens forced (the user's
// "what if" tokens or a reference translation), then greedy decoding to <eos>; a caller can stop it between steps.
// Legend: S source length with <sos>/<eos>.
#pragma once
#include "decode/decoding.h"
#include "text/tokenizer.h"

#include <functional>
#include <memory>
#include <vector>

namespace attnviz {

// In PrefixDecodeInput::forced: no forcing at this step, the model's own greedy choice (a "what if" carried to a
// sibling keeps only the steps the user forced).
inline constexpr int kModelsChoice = -1;

struct PrefixDecodeInput {
    TokenizedText source;       // <sos> tokens <eos>, as tokenizeSource gives it
    std::vector<int> forced;    // target ids forced at steps 0, 1, ... or kModelsChoice (a forced <eos> ends the
                                // output); empty: the reference's ids are forced
    TokenizedText reference;    // optional target tokens + <eos> (tokenizeTarget); where a step outputs the
                                // reference's id at the same position, the result keeps the reference's spelling
                                // (an unknown word stays readable instead of "<unk>")
    int max_source_tokens = 0;  // > 0: a longer source keeps its first this many tokens, then <eos>
    DecodeOptions options;      // max_len 0: 2 S + 10 (S after the cut); raised to the forced prefix's length
};

struct PrefixDecoding {
    TokenizedText source;           // what was decoded: <sos> tokens <eos>, after the cut
    int source_tokens_cut = 0;      // tokens dropped by max_source_tokens (0: none)
    std::vector<StepRecord> steps;  // every step, to <eos> or the length limit
    DecodeResult result;            // every step as a decode object, target tokens spelt as described above
    bool stopped = false;           // `stop` returned true: steps and result are empty
    Interventions interventions;    // what the decode was made with (input.options.interventions)
};

// `stop` (may be empty) is asked before each forced step and after each greedy one, e.g. "has a newer request come
// in?". Throws InputError for an invalid id in the source, prefix or reference (DecodingSession's checks).
PrefixDecoding prefixDecode(const std::shared_ptr<const Model>& model, PrefixDecodeInput input,
                            const std::function<bool()>& stop = {});

}  // namespace attnviz
