// libFuzzer target: any bytes given to the TSV corpus reader (train --data, eval --data, decode --input) must end in
// a corpus or in an InputError naming the line; anything else (a crash, a sanitizer report, another exception) is a
// bug. The first byte picks the options: target required or not, and which tokenizers check the Pharaoh links.
#include "base/errors.h"
#include "io/corpus.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace attnviz;
    if (size == 0) return 0;
    const uint8_t mode = data[0];
    CorpusOptions options;
    options.require_target = (mode & 1) != 0;
    if (mode & 2) {
        constexpr TokenizerKind kKinds[] = {TokenizerKind::Whitespace, TokenizerKind::Word, TokenizerKind::Char};
        options.tokenizer = TokenizerConfig{kKinds[(mode >> 2) % 3], kKinds[(mode >> 4) % 3], (mode & 0x40) != 0};
    }
    const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
    try {
        const Corpus corpus = parseCorpus(text, "fuzz-input", options);
        // What the reader promises of every example it keeps.
        int last_line = 0;
        for (const CorpusExample& ex : corpus.examples) {
            if (ex.line <= last_line || ex.source.empty()) std::abort();
            if (options.require_target && !ex.has_target) std::abort();
            if (options.tokenizer && ex.source_tokens.empty()) std::abort();
            for (const auto& [i, j] : ex.alignment.all())
                if (i < 0 || j < 0) std::abort();
            last_line = ex.line;
        }
    } catch (const InputError&) {}
    return 0;
}
