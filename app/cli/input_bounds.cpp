#include "input_bounds.h"

#include "command_run.h"

#include "base/byte_size.h"
#include "base/errors.h"
#include "decode/decoding.h"

#include <algorithm>
#include <cstdint>

namespace attnviz::cli {

Corpus readInputLines(const std::string& path) {
    CorpusOptions o;
    o.require_target = false;
    return readCorpus(path, o);
}

void checkSourceLength(const TokenizedText& source, int max_source_len, const std::string& where) {
    const size_t n = source.tokens.size() >= 2 ? source.tokens.size() - 2 : 0;  // without <sos> and <eos>
    if (n > size_t(max_source_len))
        throw InputError(where + ": the source has " + std::to_string(n) + " tokens; at most " +
                         std::to_string(max_source_len) + " are decoded (--max-source-len N to change it)");
}

void checkReferenceLength(const TokenizedText& reference, int max_source_len, const std::string& where) {
    const size_t n = reference.tokens.size();  // <eos> included, as --max-len counts
    const size_t limit = 2 * size_t(max_source_len) + 10;
    if (n > limit)
        throw InputError(where + ": the reference has " + std::to_string(n) + " tokens with <eos>; at most " +
                         std::to_string(limit) + " (2 * --max-source-len + 10) are decoded");
}

void warnIfEmptySentence(const TokenizedText& source, std::string_view command) {
    if (source.tokens.size() == 2) warn(command, "the sentence has no tokens; decoding <sos> <eos> alone");
}

void checkDecodeSize(const Model& model, const TokenizedText& source, int beam, int max_len, const std::string& where) {
    const uint64_t S = source.tokens.size(), K = uint64_t(std::max(beam, 1));
    const uint64_t T = max_len > 0 ? uint64_t(max_len) : 2 * S + 10;
    const double bytes =
        K > 1 ? double(beamTreeBytes(int(S), int(K), int(std::min<uint64_t>(T, INT32_MAX)), model.target_vocab.size()))
              : double(T) * double(S) * 8.0;
    if (bytes <= double(kMaxDecodeBytes)) return;
    const std::string size = gibText(bytes);
    const std::string what = K > 1 ? "--beam " + std::to_string(beam) + " with at most " : "at most ";
    throw InputError(where + ": " + what + std::to_string(T) + " target tokens on a source of " +
                     std::to_string(S >= 2 ? S - 2 : 0) + " tokens may need up to " + size +
                     " (the limit is 4 GiB): use a smaller --beam or --max-len");
}

}  // namespace attnviz::cli
