#include "model/vocab.h"
#include "base/errors.h"

namespace attnviz {

bool isValidUtf8(std::string_view s) {
    size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        int n;
        char32_t cp;
        if (c < 0x80) {
            ++i;
            continue;
        }
        if ((c & 0xE0) == 0xC0) {
            n = 1;
            cp = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            n = 2;
            cp = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            n = 3;
            cp = c & 0x07;
        } else
            return false;
        if (i + static_cast<size_t>(n) >= s.size()) return false;  // truncated sequence
        for (int k = 1; k <= n; ++k) {
            const auto cc = static_cast<unsigned char>(s[i + k]);
            if ((cc & 0xC0) != 0x80) return false;
            cp = (cp << 6) | (cc & 0x3F);
        }
        // overlong forms, surrogates, beyond U+10FFFF
        if ((n == 1 && cp < 0x80) || (n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000)) return false;
        if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
        i += n + 1;
    }
    return true;
}

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
