// The decodes with the engine's path (decode/step_decoder.h's StepPath: folding, token tables, threads) chosen by the
// caller, not by defaultPath: tests and benchmarks compare the paths. Not part of the public API.
// Legend: S source length with <sos>/<eos>, V target vocabulary size.
#pragma once
#include "decode/decoding.h"
#include "decode/step_decoder.h"

#include <memory>
#include <vector>

namespace attnviz::detail {

class KindSteps;

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
