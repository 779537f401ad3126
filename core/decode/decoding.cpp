// The text entry points of decoding: tokenize with the model's tokenizers, then decode (decoding_session.cpp, beam.cpp).
#include "decode/decoding.h"

#include "text/tokenizer.h"

namespace attnviz {

DecodingSession::DecodingSession(std::shared_ptr<const Model> model, std::string_view source_text,
                                 DecodeOptions options)
    : DecodingSession(model, model ? tokenizeSource(*model, source_text) : TokenizedText{}, options) {}

DecodeResult greedyDecode(const Model& model, std::string_view source_text, const DecodeOptions& options) {
    return greedyDecode(model, tokenizeSource(model, source_text), options);
}

DecodeResult forcedDecode(const Model& model, std::string_view source_text, std::string_view reference_text) {
    return forcedDecode(model, tokenizeSource(model, source_text), tokenizeTarget(model, reference_text));
}

BeamResult beamSearch(const Model& model, std::string_view source_text, int beam_width, const DecodeOptions& options) {
    return beamSearch(model, tokenizeSource(model, source_text), beam_width, options);
}

}  // namespace attnviz
