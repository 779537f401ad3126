// The three tokenizers of docs/model-format.md over UTF-8 text (ICU for Unicode categories and case mapping).
#pragma once
#include "model/config.h"

#include <string>
#include <string_view>
#include <vector>

namespace attnviz {

struct Model;
class Vocabulary;

// Splits text into tokens. whitespace: on Unicode whitespace only; word: also every P* / S* code point is a token
// of its own; char: every code point a token, each whitespace run one "▁" (U+2581; leading/trailing runs
// dropped). lowercase: simple (one-to-one) Unicode lower-case mapping first (u_tolower: no locale, no context:
// "İ" -> "i", final "Σ" -> "σ"). Whitespace = the Unicode White_Space property (NBSP and U+3000 included; U+200B
// ZWSP and a BOM are not). In word mode a ZWJ or variation selector (Cf/Mn) is not P/S, so "👨‍👩‍👧" gives
// 👨, ZWJ, 👩, ZWJ, 👧. In char mode a literal "▁" in the text is indistinguishable from whitespace.
// Throws InputError "input text: invalid UTF-8 at byte N (0xXX: reason)" on invalid UTF-8, N the 0-based offset
// of the first byte of the bad sequence (stray continuation, truncated, overlong, surrogate, > U+10FFFF).
std::vector<std::string> tokenize(std::string_view text, TokenizerKind kind, bool lowercase);

// Throws the InputError above when `text` is not valid UTF-8: the message of every encoder of user text (the
// tokenizers here, text/sentencepiece_model's encode).
void checkInputText(std::string_view text);

// Tokens with their ids; unknown tokens keep their spelling and get id 1 (<unk>).
struct TokenizedText {
    std::vector<std::string> tokens;
    std::vector<int> ids;
};

// [<sos>] + tokens + [<eos>] with the model's source tokenizer and vocabulary (no <sos> when the source vocabulary has
// none: a Marian model's source is its pieces + </s>, after a leading >>lang<< code kept as one token). A special spelled in the text
// ("<eos>" typed by a user, a whole token in whitespace mode) keeps its spelling but gets id 1 (<unk>): user
// text can never inject <sos>/<eos>/<pad>.
TokenizedText tokenizeSource(const Model& model, std::string_view text);
// Target tokens with the target tokenizer, then <eos> (no <sos>): the reference of forced decoding.
TokenizedText tokenizeTarget(const Model& model, std::string_view text);

// The translation as text: a SentencePiece target's pieces decoded by its model up to </s> (the specials </s>,
// <pad>, <unk> and a >>lang<< code left out);
// otherwise detokenize with the target tokenizer.
std::string detokenizeTarget(const Model& model, const std::vector<std::string>& tokens);

// Joins target tokens for display: with spaces for whitespace/word tokenizers; for char, concatenated with
// "▁" turned back into a space (also inside longer tokens). <pad>, <sos>, <eos> are left out; <unk> is shown.
std::string detokenize(const std::vector<std::string>& tokens, TokenizerKind kind);

}  // namespace attnviz
