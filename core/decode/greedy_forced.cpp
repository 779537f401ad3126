// Greedy decoding (a session run to its end) and forced decoding (teacher forcing on a reference).
// Legend: S source length with <sos>/<eos>, T reference length with <eos>, V target vocabulary size.
#include "decode/decoding.h"

#include "decode/decode_inputs.h"
#include "decode/kind_steps.h"
#include "decode/on_path.h"
#include "decode/subword_words.h"
#include "text/tokenizer.h"

#include <string>

namespace attnviz {

DecodeResult greedyDecode(const Model& model, std::string_view source_text, const DecodeOptions& options) {
    return greedyDecode(model, tokenizeSource(model, source_text), options);
}

DecodeResult greedyDecode(const Model& model, const TokenizedText& source, const DecodeOptions& options) {
    return detail::greedyDecode(model, source, options, detail::defaultPath(model, options));
}

DecodeResult forcedDecode(const Model& model, std::string_view source_text, std::string_view reference_text,
                          const DecodeOptions& options) {
    return forcedDecode(model, tokenizeSource(model, source_text), tokenizeTarget(model, reference_text), options);
}

DecodeResult forcedDecode(const Model& model, const TokenizedText& source, const TokenizedText& reference,
                          const DecodeOptions& options) {
    return detail::forcedDecode(model, source, reference, detail::defaultPath(model, options), options.interventions);
}

namespace detail {

DecodeResult greedyDecode(const Model& model, const TokenizedText& source, const DecodeOptions& options,
                          const StepPath& path) {
    // A non-owning shared_ptr: the session lives only inside this call.
    DecodeOptions opt = options;
    opt.top_k = 0;
    DecodingSession session =
        SessionAccess::session(std::shared_ptr<const Model>(&model, [](const Model*) {}), source, opt, path);
    session.runToEnd();
    return resultFromSession(session);
}

DecodeResult forcedDecode(const Model& model, const TokenizedText& source, const TokenizedText& reference,
                          const StepPath& path, const Interventions& iv) {
    checkReference(model, reference);
    const TokenizedText src = checkedSource(model, source);
    checkInterventions(model, iv, int(src.ids.size()), int(reference.ids.size()));
    DecodeResult r;
    r.source_tokens = src.tokens;
    r.source_ids = src.ids;
    r.decoder_start = model.target_vocab.token(model.target_vocab.specials().start);
    KindSteps(model, src.ids, path, &iv).forced(reference, r);
    describeSubwords(model, r);
    return r;
}

}  // namespace detail
}  // namespace attnviz
