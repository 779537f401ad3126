#include "model/vocab.h"
#include "base/errors.h"
#include "base/utf8.h"

namespace attnviz {

Vocabulary::Vocabulary(std::vector<std::string> tokens, std::string_view what) : tokens_(std::move(tokens)) {
    const std::string w(what);
    if (tokens_.size() < 4)
        throw ModelError(w + ": has " + std::to_string(tokens_.size()) +
                         " entries; needs at least the four specials <pad> <unk> <sos> <eos>");
    for (int i = 0; i < 4; ++i)
        if (tokens_[i] != kSpecialTokens[i])
            throw ModelError(w + ": entry " + std::to_string(i) + " is \"" + tokens_[i] + "\"; expected \"" +
                             kSpecialTokens[i] + "\"");
    index_.reserve(tokens_.size());
    for (size_t i = 0; i < tokens_.size(); ++i) {
        const std::string& t = tokens_[i];
        if (t.empty()) throw ModelError(w + ": entry " + std::to_string(i) + " is empty");
        if (!isValidUtf8(t)) throw ModelError(w + ": entry " + std::to_string(i) + " is not valid UTF-8");
        if (!index_.emplace(t, static_cast<int>(i)).second)
            throw ModelError(w + ": token \"" + t + "\" appears twice (entries " + std::to_string(index_[t]) + " and " +
                             std::to_string(i) + ")");
    }
}

int Vocabulary::id(std::string_view token) const {
    auto it = index_.find(std::string(token));
    return it == index_.end() ? kUnk : it->second;
}

bool Vocabulary::contains(std::string_view token) const { return index_.count(std::string(token)) != 0; }

}  // namespace attnviz
