// Greedy decoding (a session run to its end) and forced decoding (teacher forcing on a reference).
// Legend: S source length with <sos>/<eos>, T reference length with <eos>, V target vocabulary size.
#include "decode/decoding.h"

#include "base/errors.h"
#include "decode/detail.h"
#include "decode/step_decoder.h"
#include "decode/transformer_steps.h"
#include "nn/encoder.h"
#include "text/tokenizer.h"

#include <string>

namespace attnviz {
namespace {

// InputError unless the reference has tokens, matching spellings (if any) and target ids.
void checkReference(const Model& model, const TokenizedText& reference) {
    if (reference.ids.empty()) throw InputError("reference: no tokens (expected at least <eos>)");
    if (!reference.tokens.empty() && reference.tokens.size() != reference.ids.size())
        throw InputError("reference: " + std::to_string(reference.tokens.size()) + " tokens but " +
                         std::to_string(reference.ids.size()) + " ids");
    const int V = model.target_vocab.size();
    for (size_t i = 0; i < reference.ids.size(); ++i)
        if (reference.ids[i] < 0 || reference.ids[i] >= V)
            throw InputError("reference: token id " + std::to_string(reference.ids[i]) + " at position " +
                             std::to_string(i) + " is outside the target vocabulary (size " + std::to_string(V) + ")");
}

}  // namespace

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
    if (model.config.isTransformer()) return forcedTransformerDecode(model, src, reference, &iv);
    DecodeResult r;
    r.source_tokens = src.tokens;
    r.source_ids = src.ids;

    EncoderState enc;
    encode(model, src.ids, enc, path.pool);
    StepDecoder decoder(model, path, &iv);
    DecoderState prev, next;
    StepOutput out;
    decoder.begin(enc, prev, out);
    // Teacher forcing: step i is fed reference token i-1 (<sos> first) and scored on reference token i. Every input
    // is known, so the output layer runs once for all steps (Decoder::logProbs).
    const int T = int(reference.ids.size());
    Mat features(T, decoder.featureSize());  // (T, fc_out input)
    for (int i = 0; i < T; ++i) {
        const int id = reference.ids[size_t(i)];
        decoder.stepFeatures(enc, i == 0 ? kSos : reference.ids[size_t(i) - 1], i + 1, prev, next, out.attn,
                             features.row(i).data());
        std::swap(prev, next);
        r.target_tokens.push_back(reference.tokens.empty() ? model.target_vocab.token(id)
                                                           : reference.tokens[size_t(i)]);
        r.target_ids.push_back(id);
        const Vec& w = out.attn.weights;
        r.attention.emplace_back(w.data(), w.data() + w.size());
        const Vec& e = out.attn.scores;
        r.scores.emplace_back(e.data(), e.data() + e.size());
    }
    Mat log_probs;  // (T, V)
    decoder.logProbs(features, log_probs);
    for (int i = 0; i < T; ++i) {
        const float lp = log_probs(i, reference.ids[size_t(i)]);
        r.log_probs.push_back(lp);
        r.total_log_prob += double(lp);
    }
    return r;
}

}  // namespace detail
}  // namespace attnviz
