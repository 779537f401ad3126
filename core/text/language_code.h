// The target-language code a multilingual Marian model reads first (docs/marian.md "Tokenization"): source text
// "`>>fra<< Hello`" asks for French. The code is one token of the vocabulary and never goes through SentencePiece.
#pragma once
#include <string_view>

namespace attnviz {

struct LanguageCodeSplit {
    std::string_view code;  // ">>fra<<", or empty when the text does not start with one
    std::string_view rest;  // the text after it, to be encoded into pieces
};

// As transformers' MarianTokenizer.remove_language_code: text starting with ">>" and containing "<<" is cut after
// the first "<<"; anything else is all rest. Views into `text`.
LanguageCodeSplit splitLanguageCode(std::string_view text);

// Whether a token is a language code (">>fra<<"): a special token, a word of its own, left out of a translation's text.
bool isLanguageCode(std::string_view token);

}  // namespace attnviz
