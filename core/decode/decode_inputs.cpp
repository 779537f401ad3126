#include "decode/decode_inputs.h"

#include "base/errors.h"

#include <string>

namespace attnviz {

int defaultMaxLength(int S) { return 2 * S + 10; }

namespace detail {

int resolveMaxLength(const DecodeOptions& options, int S) {
    if (options.max_len < 0)
        throw InputError("max_len must be at least 1 (0 for the default 2 * S + 10), got " +
                         std::to_string(options.max_len));
    return options.max_len == 0 ? defaultMaxLength(S) : options.max_len;
}

TokenizedText checkedSource(const Model& model, const TokenizedText& source) {
    if (source.ids.empty()) throw InputError("source sentence: no tokens (expected at least <sos> and <eos>)");
    if (!source.tokens.empty() && source.tokens.size() != source.ids.size())
        throw InputError("source sentence: " + std::to_string(source.tokens.size()) + " tokens but " +
                         std::to_string(source.ids.size()) + " ids");
    const int Vs = model.source_vocab.size();
    for (size_t j = 0; j < source.ids.size(); ++j)
        if (source.ids[j] < 0 || source.ids[j] >= Vs)
            throw InputError("source sentence: token id " + std::to_string(source.ids[j]) + " at position " +
                             std::to_string(j) + " is outside the source vocabulary (size " + std::to_string(Vs) + ")");
    TokenizedText checked = source;
    if (checked.tokens.empty())
        for (int id : checked.ids) checked.tokens.push_back(model.source_vocab.token(id));
    return checked;
}

}  // namespace detail
}  // namespace attnviz
