// What every decode checks its inputs against before it steps: the source's ids, a reference's, and the length
// limit. Internal to decode/ (the public defaultMaxLength is in decode/decoding.h).
// Legend: S source length with <sos>/<eos>.
#pragma once
#include "decode/decoding.h"

namespace attnviz::detail {

// max_len of the options for a source of length S (0 = defaultMaxLength(S)); throws InputError if negative.
int resolveMaxLength(const DecodeOptions& options, int S);
// Checks source ids against the source vocabulary and that the sentence is not empty (InputError); returns the
// source with its token spellings filled in from the vocabulary when it has none.
TokenizedText checkedSource(const Model& model, const TokenizedText& source);
// InputError unless a reference has tokens, matching spellings (if any) and target ids.
void checkReference(const Model& model, const TokenizedText& reference);

}  // namespace attnviz::detail
