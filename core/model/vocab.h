// A vocabulary: the index of a token is its id. Ids 0..3 are <pad>, <unk>, <sos>, <eos> in both vocabularies.
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

class Vocabulary {
public:
    Vocabulary() = default;
    // Throws ModelError (prefixed with `what`, e.g. "source_vocab") if the first four entries are not the
    // specials, an entry is empty, not valid UTF-8, or appears twice.
    explicit Vocabulary(std::vector<std::string> tokens, std::string_view what = "vocabulary");

    int size() const { return static_cast<int>(tokens_.size()); }
    const std::string& token(int id) const { return tokens_.at(static_cast<size_t>(id)); }
    const std::vector<std::string>& tokens() const { return tokens_; }
    // The id of a token, or kUnk (1) if it is not in the vocabulary.
    int id(std::string_view token) const;
    bool contains(std::string_view token) const;
    bool operator==(const Vocabulary& o) const { return tokens_ == o.tokens_; }

private:
    std::vector<std::string> tokens_;
    std::unordered_map<std::string, int> index_;
};

}  // namespace attnviz
