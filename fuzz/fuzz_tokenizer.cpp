// libFuzzer target: the three tokenizers (whitespace, word, char; with and without lowercasing) over any bytes.
// Invalid UTF-8 must end in an InputError; valid text in tokens that are non-empty, valid UTF-8 and free of
// whitespace (whitespace mode), which detokenize joins without failing. The first byte picks kind and case.
// The escaper of text on its way to a terminal (printable) runs on the bytes and on every token: its output is valid
// UTF-8 without a C0 or C1 control or DEL, and escaping it again changes nothing.
#include "base/errors.h"
#include "base/utf8.h"
#include "text/tokenizer.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

void checkPrintable(std::string_view text) {
    const std::string shown = attnviz::printable(text);
    if (!attnviz::isValidUtf8(shown) || attnviz::printable(shown) != shown) std::abort();
    for (size_t i = 0; i < shown.size(); ++i) {
        const auto c = static_cast<unsigned char>(shown[i]);
        const bool c1 = c == 0xC2 && i + 1 < shown.size() && static_cast<unsigned char>(shown[i + 1]) < 0xA0;
        if (c < 0x20 || c == 0x7F || c1) std::abort();
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace attnviz;
    if (size == 0) return 0;
    constexpr TokenizerKind kKinds[] = {TokenizerKind::Whitespace, TokenizerKind::Word, TokenizerKind::Char};
    const TokenizerKind kind = kKinds[data[0] % 3];
    const bool lowercase = (data[0] & 0x10) != 0;
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
    const bool valid = firstInvalidUtf8(text) == std::string_view::npos;
    checkPrintable(text);
    std::vector<std::string> tokens;
    try {
        tokens = tokenize(text, kind, lowercase);
    } catch (const InputError&) {
        if (valid) std::abort();  // valid UTF-8 is always tokenized
        return 0;
    }
    if (!valid) std::abort();  // invalid UTF-8 must be refused
    for (const std::string& t : tokens) {
        if (t.empty() || firstInvalidUtf8(t) != std::string_view::npos) std::abort();
        if (kind == TokenizerKind::Whitespace && t.find_first_of(" \t\n\r") != std::string::npos) std::abort();
        checkPrintable(t);
    }
    (void)detokenize(tokens, kind);
    return 0;
}
