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

namespace {

// InputError, named after `what`, unless the text has tokens, as many spellings as ids (or none), and ids inside
// the `side` vocabulary of size V. `expected`: the least a text holds, for the message.
void checkTokens(const TokenizedText& text, int V, const char* what, const char* side, const char* expected) {
    if (text.ids.empty()) throw InputError(std::string(what) + ": no tokens (expected at least " + expected + ")");
    if (!text.tokens.empty() && text.tokens.size() != text.ids.size())
        throw InputError(std::string(what) + ": " + std::to_string(text.tokens.size()) + " tokens but " +
                         std::to_string(text.ids.size()) + " ids");
    for (size_t j = 0; j < text.ids.size(); ++j)
        if (text.ids[j] < 0 || text.ids[j] >= V)
            throw InputError(std::string(what) + ": token id " + std::to_string(text.ids[j]) + " at position " +
                             std::to_string(j) + " is outside the " + side + " vocabulary (size " + std::to_string(V) +
                             ")");
}

}  // namespace

TokenizedText checkedSource(const Model& model, const TokenizedText& source) {
    checkTokens(source, model.source_vocab.size(), "source sentence", "source", "<sos> and <eos>");
    TokenizedText checked = source;
    if (checked.tokens.empty())
        for (int id : checked.ids) checked.tokens.push_back(model.source_vocab.token(id));
    return checked;
}

void checkReference(const Model& model, const TokenizedText& reference) {
    checkTokens(reference, model.target_vocab.size(), "reference", "target", "<eos>");
}

}  // namespace detail
}  // namespace attnviz
