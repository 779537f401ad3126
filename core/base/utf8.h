// UTF-8 as RFC 3629 defines it: the one decoder and validator of the engine (tokenizers, vocabularies, model files,
// corpora). Rejected: stray continuation bytes, truncated sequences, overlong forms, UTF-16 surrogates and values
// above U+10FFFF. Offsets are 0-based and point at the first byte of the bad sequence.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace attnviz {

// One decoded code point, or why the bytes at an offset are not UTF-8.
struct Utf8Char {
    char32_t cp = 0;
    size_t length = 0;            // bytes taken (1 to 4); 0 when invalid
    const char* error = nullptr;  // when invalid: "truncated 3-byte sequence", "overlong encoding", ...
};

Utf8Char decodeUtf8Sequence(std::string_view s, size_t i);  // the non-ASCII case of decodeUtf8

// The code point starting at s[i] (i < s.size()).
inline Utf8Char decodeUtf8(std::string_view s, size_t i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) return {c, 1, nullptr};
    return decodeUtf8Sequence(s, i);
}

// The offset of the first byte of the first invalid sequence, or npos if `s` is valid UTF-8.
size_t firstInvalidUtf8(std::string_view s);
inline bool isValidUtf8(std::string_view s) { return firstInvalidUtf8(s) == std::string_view::npos; }

// Appends the UTF-8 encoding of a valid code point.
void appendUtf8(std::string& out, char32_t cp);

// Text from a file, a corpus or a command line made safe to print on a terminal: C0 and C1 control characters and
// DEL become \xNN (\t, \n, \r and ESC spelled \t, \n, \r, \e), and so does each byte of invalid UTF-8; the rest is
// kept. The one escaper of every such string on its way to stdout or stderr (a model cannot retitle the terminal,
// clear it or hide a NUL-truncated rest of a line). Idempotent: its output has nothing left to escape.
std::string printable(std::string_view text);

}  // namespace attnviz
