// libFuzzer target: the three tokenizers (whitespace, word, char; with and without lowercasing) over any bytes.
// Invalid UTF-8 must end in an InputError; valid text in tokens that are non-empty, valid UTF-8 and free of
// whitespace (whitespace mode), which detokenize joins without failing. The first byte picks kind and case.
#include "base/errors.h"
#include "base/utf8.h"
#include "text/tokenizer.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace attnviz;
    if (size == 0) return 0;
    constexpr TokenizerKind kKinds[] = {TokenizerKind::Whitespace, TokenizerKind::Word, TokenizerKind::Char};
    const TokenizerKind kind = kKinds[data[0] % 3];
    const bool lowercase = (data[0] & 0x10) != 0;
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
    const bool valid = firstInvalidUtf8(text) == std::string_view::npos;
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
    }
    (void)detokenize(tokens, kind);
    return 0;
}
