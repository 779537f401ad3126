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
    index(w);
}

Vocabulary::Vocabulary(std::vector<std::string> tokens, const SpecialIds& specials, std::string_view what)
    : tokens_(std::move(tokens)), specials_(specials) {
    const std::string w(what);
    const int n = size();
    auto check = [&](int id, const char* name, bool optional) {
        if (optional && id == -1) return;
        if (id < 0 || id >= n)
            throw ModelError(w + ": the " + name + " id " + std::to_string(id) + " is outside the vocabulary (" +
                             std::to_string(n) + " entries)");
    };
    check(specials.pad, "pad", false);
    check(specials.unk, "unknown-token", false);
    check(specials.eos, "end-of-sentence", false);
    check(specials.sos, "start-of-sentence", true);
    check(specials.start, "decoder start", true);
    if (specials.pad == specials.unk || specials.pad == specials.eos || specials.unk == specials.eos)
        throw ModelError(w + ": the pad (" + std::to_string(specials.pad) + "), unknown-token (" +
                         std::to_string(specials.unk) + ") and end-of-sentence (" + std::to_string(specials.eos) +
                         ") ids must differ");
    index(w);
}

void Vocabulary::index(const std::string& w) {
    index_.reserve(tokens_.size());
    for (size_t i = 0; i < tokens_.size(); ++i) {
        const std::string& t = tokens_[i];
        if (t.empty()) throw ModelError(w + ": entry " + std::to_string(i) + " is empty");
        if (!isValidUtf8(t)) throw ModelError(w + ": entry " + std::to_string(i) + " is not valid UTF-8");
        if (!index_.emplace(t, static_cast<int>(i)).second)
            throw ModelError(w + ": token \"" + printable(t) + "\" appears twice (entries " +
                             std::to_string(index_[t]) + " and " + std::to_string(i) + ")");
    }
}

int Vocabulary::id(std::string_view token) const {
    auto it = index_.find(std::string(token));
    return it == index_.end() ? specials_.unk : it->second;
}

bool Vocabulary::contains(std::string_view token) const { return index_.count(std::string(token)) != 0; }

}  // namespace attnviz
