// A vocabulary: the index of a token is its id. An attnviz model's vocabularies start with the four specials
// <pad>, <unk>, <sos>, <eos> (ids 0..3); a vocabulary read from elsewhere (a Marian folder: </s> 0, <unk> 1, <pad>
// last) names its own special ids (SpecialIds).
#pragma once
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace attnviz {

inline constexpr int kPad = 0;
inline constexpr int kUnk = 1;
inline constexpr int kSos = 2;
inline constexpr int kEos = 3;
inline constexpr const char* kSpecialTokens[4] = {"<pad>", "<unk>", "<sos>", "<eos>"};

// The special tokens' ids in one vocabulary. sos −1: the side has none (a Marian source is tokens + </s>).
// start: the decoder's first input (the target side's <sos>; a Marian model's decoder_start_token_id, its <pad>).
struct SpecialIds {
    int pad = kPad;
    int unk = kUnk;
    int sos = kSos;
    int eos = kEos;
    int start = kSos;
    bool operator==(const SpecialIds&) const = default;
};

class Vocabulary {
public:
    Vocabulary() = default;
    // Throws ModelError (prefixed with `what`, e.g. "source_vocab") if the first four entries are not the
    // specials, an entry is empty, not valid UTF-8, or appears twice.
    explicit Vocabulary(std::vector<std::string> tokens, std::string_view what = "vocabulary");
    // A vocabulary whose specials are at the given ids (each inside it; pad, unk and eos distinct). Same entry checks.
    Vocabulary(std::vector<std::string> tokens, const SpecialIds& specials, std::string_view what);

    int size() const { return static_cast<int>(tokens_.size()); }
    const std::string& token(int id) const { return tokens_.at(static_cast<size_t>(id)); }
    const std::vector<std::string>& tokens() const { return tokens_; }
    const SpecialIds& specials() const { return specials_; }
    // pad, sos, eos or start: ids that are never text (unk is: it keeps a spelling).
    bool isControl(int id) const {
        return id == specials_.pad || id == specials_.sos || id == specials_.eos || id == specials_.start;
    }
    // The id of a token, or specials().unk if it is not in the vocabulary.
    int id(std::string_view token) const;
    bool contains(std::string_view token) const;
    bool operator==(const Vocabulary& o) const { return tokens_ == o.tokens_ && specials_ == o.specials_; }

private:
    void index(const std::string& what);
    std::vector<std::string> tokens_;
    std::unordered_map<std::string, int> index_;
    SpecialIds specials_;
};

}  // namespace attnviz
