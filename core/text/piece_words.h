// Pieces or words (docs/marian.md "What is shown"): SentencePiece pieces grouped into words, and attention or
// explanation matrices merged to match. A word starts at a piece beginning with "▁" (U+2581), at a special token
// (</s>, <unk>, a language code) and at position 0; a special token is a word of its own. Merging changes what is
// shown, never what is decoded: a merged column is the sum of its pieces' columns (the attention a word receives),
// a merged row the mean of its pieces' rows (the distribution of a word's steps).
#pragma once
#include "base/tensor.h"

#include <functional>
#include <string>
#include <vector>

namespace attnviz {

// Piece positions [first, end) of one word.
struct WordSpan {
    int first = 0;
    int end = 0;
    bool operator==(const WordSpan&) const = default;
};

// The words of `pieces`, in order, covering every position once. is_special(position) says whether the piece at
// that position is a special token.
std::vector<WordSpan> wordSpans(const std::vector<std::string>& pieces,
                                const std::function<bool(int position)>& is_special);

// Each word's label: its pieces joined, every "▁" left out ("▁New", "s" -> "News").
std::vector<std::string> wordLabels(const std::vector<std::string>& pieces, const std::vector<WordSpan>& spans);

// Legend: R rows, P pieces (columns or rows), W words. Every function checks that the spans cover the merged axis
// exactly (std::invalid_argument otherwise: a caller's mistake, not a user's).
// (R, P) -> (R, W): column w is the sum of the columns of word w's pieces.
Mat sumColumns(const Mat& m, const std::vector<WordSpan>& spans);
// (P, C) -> (W, C): row w is the mean of the rows of word w's pieces.
Mat meanRows(const Mat& m, const std::vector<WordSpan>& spans);
// (P_r, P_c) -> (W_r, W_c): rows merged by `row_spans` (mean), then columns by `column_spans` (sum). Cross-attention
// (target rows, source columns), and a causal T x T decoder self-attention with the target's spans on both axes:
// its merged rows still sum to 1, and a word's weight on itself is the mean over its pieces of what each piece put
// on the word's pieces up to itself.
Mat mergeBoth(const Mat& m, const std::vector<WordSpan>& row_spans, const std::vector<WordSpan>& column_spans);

}  // namespace attnviz
