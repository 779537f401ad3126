#include "base/utf8.h"

#include <cstdio>

namespace attnviz {

Utf8Char decodeUtf8Sequence(std::string_view s, size_t i) {
    const auto c = static_cast<unsigned char>(s[i]);
    int n;  // continuation bytes that follow
    char32_t cp;
    if (c < 0x80) return {c, 1, nullptr};
    if (c >= 0xC2 && c <= 0xDF) {
        n = 1;
        cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 2;
        cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 3;
        cp = c & 0x07;
    } else if (c <= 0xBF) {
        return {0, 0, "continuation byte without a lead byte"};
    } else if (c == 0xC0 || c == 0xC1) {
        return {0, 0, "overlong encoding"};
    } else {
        return {0, 0, "byte never used in UTF-8"};
    }
    static constexpr const char* kTruncated[4] = {"", "truncated 2-byte sequence", "truncated 3-byte sequence",
                                                  "truncated 4-byte sequence"};
    for (int k = 1; k <= n; ++k) {
        const size_t at = i + static_cast<size_t>(k);
        // end of text, or a byte that is not a continuation byte, before the sequence is complete
        if (at >= s.size() || (static_cast<unsigned char>(s[at]) & 0xC0) != 0x80) return {0, 0, kTruncated[n]};
        cp = (cp << 6) | (static_cast<unsigned char>(s[at]) & 0x3F);
    }
    if ((n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000)) return {0, 0, "overlong encoding"};
    if (cp >= 0xD800 && cp <= 0xDFFF) return {0, 0, "encodes a UTF-16 surrogate"};
    if (cp > 0x10FFFF) return {0, 0, "code point above U+10FFFF"};
    return {cp, static_cast<size_t>(n) + 1, nullptr};
}

size_t firstInvalidUtf8(std::string_view s) {
    size_t i = 0;
    while (i < s.size()) {
        const Utf8Char ch = decodeUtf8(s, i);
        if (ch.length == 0) return i;
        i += ch.length;
    }
    return std::string_view::npos;
}

void appendUtf8(std::string& out, char32_t cp) {
    if (cp < 0x80) {
        out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
}

namespace {

void appendHexByte(std::string& out, unsigned char c) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "\\x%02X", c);
    out += buf;
}

}  // namespace

std::string printable(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        const Utf8Char ch = decodeUtf8(text, i);
        if (ch.length == 0) {  // a byte that does not start valid UTF-8
            appendHexByte(out, c);
            ++i;
        } else if (c == '\t' || c == '\n' || c == '\r' || c == 0x1B) {
            out += c == '\t' ? "\\t" : c == '\n' ? "\\n" : c == '\r' ? "\\r" : "\\e";
            ++i;
        } else if (ch.cp < 0x20 || (ch.cp >= 0x7F && ch.cp <= 0x9F)) {  // C0, DEL, C1 (CSI U+009B among them)
            for (size_t k = 0; k < ch.length; ++k) appendHexByte(out, static_cast<unsigned char>(text[i + k]));
            i += ch.length;
        } else {
            out.append(text.substr(i, ch.length));
            i += ch.length;
        }
    }
    return out;
}

}  // namespace attnviz
