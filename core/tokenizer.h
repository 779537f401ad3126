// The three tokenizers of spec/model-format.md over UTF-8 text (ICU for Unicode categories and case mapping).
#pragma once
#include "config.h"

#include <string>
#include <string_view>
#include <vector>

namespace attnviz {

struct Model;
class Vocabulary;

// Splits text into tokens. whitespace: on Unicode whitespace only; word: also every P* / S* code point is a token
// of its own; char: every code point a token, each whitespace run one "▁" (U+2581; leading/trailing runs
// dropped). lowercase: simple (one-to-one) Unicode lower-case mapping first. Throws InputError on invalid UTF-8.
std::vector<std::string> tokenize(std::string_view text, TokenizerKind kind, bool lowercase);

// Tokens with their ids; unknown tokens keep their spelling and get id 1 (<unk>).
struct TokenizedText {
    std::vector<std::string> tokens;
    std::vector<int> ids;
};

// [<sos>] + tokens + [<eos>] with the model's source tokenizer and vocabulary.
TokenizedText tokenizeSource(const Model& model, std::string_view text);
// Target tokens with the target tokenizer, then <eos> (no <sos>): the reference of forced decoding.
TokenizedText tokenizeTarget(const Model& model, std::string_view text);

// Joins target tokens for display: with spaces for whitespace/word tokenizers; for char, concatenated with
// "▁" turned back into a space. Specials are left out.
std::string detokenize(const std::vector<std::string>& tokens, TokenizerKind kind);

} // namespace attnviz
