// An explanation of a SentencePiece model's decode shown in words (--merge; docs/marian.md "Pieces or words"): the
// methods run on the pieces, and their matrix is then merged on the decode's spans as its attention is.
#pragma once
#include "decode/subword_words.h"
#include "explain/explanation.h"

namespace attnviz {

// `e` with its (T × S) matrix merged on `sides` by mergeMatrix (a source word's columns summed, a target word's rows
// averaged) and integrated gradients' completeness gaps averaged over a target word's rows as those rows are, so
// that a word's gap is still its row's sum minus its f(e) − f(0) share. A decode without words returns `e` as it is.
Explanation mergeExplanation(const DecodeResult& r, const Explanation& e, MergeSides sides);

}  // namespace attnviz
