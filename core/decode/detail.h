// Helpers shared by the decoding session, greedy, forced and beam decoding (not part of the public API), and the
// decode functions with the engine's path chosen by the caller (tests and benchmarks compare the paths).
// Legend: S source length with <sos>/<eos>, V target vocabulary size.
#pragma once
#include "decode/decoding.h"
#include "decode/step_decoder.h"
#include "nn/decoder.h"

#include <memory>
#include <vector>

namespace attnviz::detail {

class KindSteps;

// A token decoding may produce: anything but <pad> and <sos>.
inline bool producible(int id) { return id != kPad && id != kSos; }
// The most probable producible token; ties go to the lowest id.
int bestToken(const Vec& log_probs);
// The k most probable producible tokens, descending, ties lower id first. `out` is overwritten.
void topCandidates(const Vec& log_probs, int k, std::vector<Candidate>& out);
// The row of a step: everything but token/token_text/log_prob/forced.
void fillRecord(const StepOutput& out, int top_k, StepRecord& rec);
// max_len of the options for a source of length S (0 = defaultMaxLength(S)); throws InputError if negative.
int resolveMaxLength(const DecodeOptions& options, int S);
// Checks source ids against the source vocabulary and that the sentence is not empty (InputError); returns the
// source with its token spellings filled in from the vocabulary when it has none.
TokenizedText checkedSource(const Model& model, const TokenizedText& source);

// A DecodingSession that computes its steps on `path` instead of defaultPath's.
struct SessionAccess {
    static DecodingSession session(std::shared_ptr<const Model> model, TokenizedText source, DecodeOptions options,
                                   const StepPath& path);
    // How the session steps its sentence.
    static const KindSteps& steps(const DecodingSession& session);
};
DecodeResult greedyDecode(const Model& model, const TokenizedText& source, const DecodeOptions& options,
                          const StepPath& path);
DecodeResult forcedDecode(const Model& model, const TokenizedText& source, const TokenizedText& reference,
                          const StepPath& path, const Interventions& iv = {});
BeamResult beamSearch(const Model& model, const TokenizedText& source, int beam_width, const DecodeOptions& options,
                      const StepPath& path, std::vector<int> prefix = {});

}  // namespace attnviz::detail
