// The three tokenizers of docs/model-format.md ("Tokenizers"): whitespace, word and char, with optional simple
// lower-casing first. base/utf8.h's UTF-8 decoder (exact byte offsets in errors) and ICU's character
// properties: u_isUWhiteSpace (the Unicode White_Space property), the general category for P* / S*, u_tolower.
// ASCII takes a fast path that needs no ICU call; there is no regex and no per-code-point allocation beyond the
// tokens themselves (short tokens stay in std::string's small buffer).
#include "text/tokenizer.h"

#include "base/errors.h"
#include "base/utf8.h"
#include "model/model.h"
#include "model/vocab.h"
#include "text/language_code.h"
#include "text/sentencepiece_model.h"

#include <unicode/uchar.h>

#include <array>
#include <cstdio>

namespace attnviz {

namespace {

constexpr std::string_view kSpaceMark = "\xE2\x96\x81";  // "▁" U+2581, the char tokenizer's whitespace token

[[noreturn]] void throwBadUtf8(size_t offset, unsigned char byte, const char* what) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02X", byte);
    throw InputError("input text: invalid UTF-8 at byte " + std::to_string(offset) + " (" + hex + ": " + what + ")");
}

// Decodes the code point starting at s[i] and moves i past it; throws on invalid UTF-8 with the offset of the first
// byte of the bad sequence (0-based).
char32_t decodeNext(std::string_view s, size_t& i) {
    const Utf8Char ch = decodeUtf8(s, i);
    if (ch.length == 0) throwBadUtf8(i, static_cast<unsigned char>(s[i]), ch.error);
    i += ch.length;
    return ch.cp;
}

// ASCII classes, precomputed. Every printable ASCII character that is not a letter or digit is in P* or S*.
enum : unsigned char { kAsciiOther = 0, kAsciiSpace = 1, kAsciiPunct = 2 };
constexpr std::array<unsigned char, 128> makeAsciiClass() {
    std::array<unsigned char, 128> t{};
    for (int c = 0x09; c <= 0x0D; ++c) t[c] = kAsciiSpace;  // TAB LF VT FF CR (White_Space)
    t[0x20] = kAsciiSpace;
    for (int c = 0x21; c <= 0x7E; ++c)
        if (!((c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))) t[c] = kAsciiPunct;
    return t;
}
constexpr auto kAsciiClass = makeAsciiClass();

bool isSpace(char32_t c) {
    if (c < 0x80) return kAsciiClass[c] == kAsciiSpace;
    return u_isUWhiteSpace(static_cast<UChar32>(c));  // NBSP, U+3000, U+2000..U+200A, U+2028, U+0085, ...
}

bool isPunctOrSymbol(char32_t c) {
    if (c < 0x80) return kAsciiClass[c] == kAsciiPunct;
    return (U_GET_GC_MASK(static_cast<UChar32>(c)) & (U_GC_P_MASK | U_GC_S_MASK)) != 0;
}

char32_t toLower(char32_t c) {
    if (c < 0x80) return (c >= 'A' && c <= 'Z') ? c + 32 : c;
    return static_cast<char32_t>(u_tolower(static_cast<UChar32>(c)));  // simple (one-to-one) mapping
}

// [<sos>] (when the side has one) + tokens + [<eos>] with their ids.
TokenizedText withIds(std::vector<std::string> tokens, const Vocabulary& vocab, bool add_sos) {
    const SpecialIds& sp = vocab.specials();
    TokenizedText out;
    out.tokens.reserve(tokens.size() + 2);
    out.ids.reserve(tokens.size() + 2);
    if (add_sos && sp.sos >= 0) {
        out.tokens.push_back(vocab.token(sp.sos));
        out.ids.push_back(sp.sos);
    }
    for (auto& t : tokens) {
        // A control token typed by the user ("<eos>" in whitespace mode) must not act as one: it is unknown text.
        const int id = vocab.id(t);
        out.ids.push_back(vocab.isControl(id) ? sp.unk : id);
        out.tokens.push_back(std::move(t));
    }
    out.tokens.push_back(vocab.token(sp.eos));
    out.ids.push_back(sp.eos);
    return out;
}

// The text's tokens on one side: SentencePiece pieces (after a leading >>lang<< code, kept whole), or the
// whitespace / word / char tokenizer's.
std::vector<std::string> sideTokens(const Model& model, std::string_view text, bool source) {
    const TokenizerConfig& tc = model.config.tokenizer;
    const TokenizerKind kind = source ? tc.source : tc.target;
    if (kind != TokenizerKind::SentencePiece) return tokenize(text, kind, tc.lowercase);
    const SentencePieceModel* spm = source ? model.source_spm.get() : model.target_spm.get();
    if (!spm)
        throw ModelError("the model has no SentencePiece model for its " + std::string(source ? "source" : "target"));
    std::vector<std::string> tokens;
    std::string_view rest = text;
    if (source) {
        const LanguageCodeSplit split = splitLanguageCode(text);
        if (!split.code.empty()) tokens.emplace_back(split.code);
        rest = split.rest;
    }
    std::vector<std::string> pieces = spm->encode(rest);
    tokens.insert(tokens.end(), std::make_move_iterator(pieces.begin()), std::make_move_iterator(pieces.end()));
    return tokens;
}

}  // namespace

void checkInputText(std::string_view text) {
    const size_t bad = firstInvalidUtf8(text);
    if (bad != std::string_view::npos)
        throwBadUtf8(bad, static_cast<unsigned char>(text[bad]), decodeUtf8(text, bad).error);
}

std::vector<std::string> tokenize(std::string_view text, TokenizerKind kind, bool lowercase) {
    std::vector<std::string> tokens;
    tokens.reserve(kind == TokenizerKind::Char ? text.size() : text.size() / 4 + 1);
    std::string current;         // the word being built (whitespace / word)
    bool pending_space = false;  // char: a whitespace run seen since the last token
    auto flush = [&] {
        if (!current.empty()) {
            tokens.push_back(std::move(current));
            current.clear();
        }
    };
    size_t i = 0;
    while (i < text.size()) {
        const size_t start = i;
        char32_t cp = decodeNext(text, i);
        if (lowercase) cp = toLower(cp);  // before any splitting decision
        // Appends the (possibly lower-cased) code point: raw bytes when unchanged, re-encoded otherwise.
        auto append = [&](std::string& out) {
            if (!lowercase)
                out.append(text.data() + start, i - start);
            else
                appendUtf8(out, cp);
        };
        if (isSpace(cp)) {
            if (kind == TokenizerKind::Char)
                pending_space = true;
            else
                flush();
            continue;
        }
        switch (kind) {
        case TokenizerKind::Whitespace:
        case TokenizerKind::SentencePiece:  // sideTokens gives it to its model; here it splits as whitespace
            append(current);
            break;
        case TokenizerKind::Word:
            if (isPunctOrSymbol(cp)) {
                flush();
                append(tokens.emplace_back());
            } else {
                append(current);
            }
            break;
        case TokenizerKind::Char:
            if (pending_space && !tokens.empty()) tokens.emplace_back(kSpaceMark);  // leading runs dropped
            pending_space = false;                                                  // trailing: never emitted
            append(tokens.emplace_back());
            break;
        }
    }
    flush();
    return tokens;
}

TokenizedText tokenizeSource(const Model& model, std::string_view text) {
    return withIds(sideTokens(model, text, true), model.source_vocab, true);
}

TokenizedText tokenizeTarget(const Model& model, std::string_view text) {
    return withIds(sideTokens(model, text, false), model.target_vocab, false);
}

std::string detokenizeTarget(const Model& model, const std::vector<std::string>& tokens) {
    if (model.config.tokenizer.target != TokenizerKind::SentencePiece || !model.target_spm)
        return detokenize(tokens, model.config.tokenizer.target);
    const Vocabulary& v = model.target_vocab;
    std::vector<std::string> pieces;  // up to </s>, the control tokens left out
    for (const std::string& t : tokens) {
        const int id = v.contains(t) ? v.id(t) : -1;
        if (id == v.specials().eos) break;
        if ((id >= 0 && (v.isControl(id) || id == v.specials().unk)) || isLanguageCode(t)) continue;  // specials
        pieces.push_back(t);
    }
    return model.target_spm->decode(pieces);
}

std::string detokenize(const std::vector<std::string>& tokens, TokenizerKind kind) {
    std::string out;
    size_t bytes = 0;
    for (const auto& t : tokens) bytes += t.size() + 1;
    out.reserve(bytes);
    for (const auto& t : tokens) {
        if (t == kSpecialTokens[kPad] || t == kSpecialTokens[kSos] || t == kSpecialTokens[kEos]) continue;
        if (kind == TokenizerKind::Char) {
            // Every "▁" becomes a space (also inside a longer token, as in SentencePiece-style vocabularies).
            size_t pos = 0;
            for (size_t hit; (hit = t.find(kSpaceMark, pos)) != std::string::npos; pos = hit + kSpaceMark.size()) {
                out.append(t, pos, hit - pos);
                out.push_back(' ');
            }
            out.append(t, pos, std::string::npos);
        } else {
            if (!out.empty()) out.push_back(' ');
            out += t;
        }
    }
    return out;
}

}  // namespace attnviz
