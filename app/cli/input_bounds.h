// What the CLI reads, and how much of it: --input lines, and the bounds on a source, a reference and a decode's
// memory (docs/robustness.md), checked before anything of that size is allocated.
#pragma once
#include "decode/limits.h"
#include "io/corpus.h"
#include "model/model.h"
#include "text/tokenizer.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace attnviz::cli {

// The lines of a --input file: `source` or `source<TAB>reference` (blank lines skipped; the line numbers kept).
// Errors are InputError "FILE:LINE: what".
Corpus readInputLines(const std::string& path);

// Bounded inputs (docs/robustness.md). A source longer than kMaxSourceTokens (decode/limits.h) is refused by decode,
// render and eval unless --max-source-len says otherwise; a reference (forced decoding) may have 2 * that + 10
// tokens, the most a greedy decode of the longest source may write.
inline constexpr int kMaxSourceLenLimit = 100000;  // the largest --max-source-len accepted
// Throw InputError "WHERE: the source has N tokens; at most M are decoded (--max-source-len)".
void checkSourceLength(const TokenizedText& source, int max_source_len, const std::string& where);
void checkReferenceLength(const TokenizedText& reference, int max_source_len, const std::string& where);
// The warning of an empty SENTENCE ("the sentence has no tokens; decoding <sos> <eos> alone") under `command`'s name,
// when `source` holds nothing but <sos> and <eos>. decode, explain, render and compare.
void warnIfEmptySentence(const TokenizedText& source, std::string_view command);

// A decode keeps every step's attention and scores: up to T * S * 8 bytes for T = max_len (default 2 * S + 10),
// S = source length with specials; beam search keeps its whole tree (core/decode/beam.cpp), beamTreeBytes for width
// K (a row and its scores per expansion, K * K nodes per step). Throws InputError "WHERE: ... may need up to X GiB
// ..." above kMaxDecodeBytes.
inline constexpr uint64_t kMaxDecodeBytes = uint64_t(4) << 30;
void checkDecodeSize(const Model& model, const TokenizedText& source, int beam, int max_len, const std::string& where);

}  // namespace attnviz::cli
