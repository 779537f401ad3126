#include "decode/prefix_decode.h"

#include "decode/decode_inputs.h"

#include <algorithm>
#include <utility>

namespace attnviz {

namespace {

// Keeps <sos> (when the side has one) + the first `max_tokens` tokens, then <eos>; returns how many tokens were
// dropped.
int cutSource(TokenizedText& source, int max_tokens, const Vocabulary& vocab) {
    const int before = vocab.specials().sos >= 0 ? 1 : 0;
    const int words = int(source.tokens.size()) - before - 1;
    if (max_tokens <= 0 || words <= max_tokens) return 0;
    const std::string eos_text = source.tokens.back();
    source.tokens.resize(size_t(max_tokens + before));
    source.ids.resize(size_t(max_tokens + before));
    source.tokens.push_back(eos_text);
    source.ids.push_back(vocab.specials().eos);
    return words - max_tokens;
}

}  // namespace

PrefixDecoding prefixDecode(const std::shared_ptr<const Model>& model, PrefixDecodeInput input,
                            const std::function<bool()>& stop) {
    PrefixDecoding out;
    const auto stopped = [&] {
        out.stopped = stop && stop();
        return out.stopped;
    };
    out.source_tokens_cut = cutSource(input.source, input.max_source_tokens, model->source_vocab);
    out.source = input.source;
    out.interventions = input.options.interventions;
    const std::vector<int>& prefix = input.forced.empty() ? input.reference.ids : input.forced;
    DecodeOptions options = input.options;
    const int S = int(out.source.tokens.size());
    options.max_len = std::max(detail::resolveMaxLength(options, S), int(prefix.size()));

    DecodingSession session(model, std::move(input.source), options);
    for (size_t i = 0; i < prefix.size(); ++i) {
        if (stopped()) return out;
        if (prefix[i] != kModelsChoice)
            session.force(int(i), prefix[i]);
        else if (!session.forward())
            break;  // the model ended the output before the next forced step
        if (session.steps().back().token == model->target_vocab.specials().eos) break;
    }
    // Greedy from there (nothing to do when the prefix ended in <eos>).
    while (session.forward())
        if (stopped()) return out;
    session.seek(int(session.steps().size()));
    out.steps = session.steps();
    out.result = resultFromSession(session);
    const TokenizedText& reference = input.reference;
    for (size_t i = 0; i < out.steps.size() && i < reference.ids.size(); ++i)
        if (out.steps[i].token == reference.ids[i]) out.result.target_tokens[i] = reference.tokens[i];
    return out;
}

}  // namespace attnviz
