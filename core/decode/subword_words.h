// A SentencePiece model's decode described in words (docs/marian.md "What is shown"): each side's pieces grouped
// into words (text/piece_words) and the translation as text. The decode functions fill these keys; merging a matrix
// to words is text/piece_words' sumColumns / meanRows on these spans.
#pragma once
#include "decode/decoding.h"

namespace attnviz {

// Fills r.source_words, r.target_words and r.text when the model's tokenizers are SentencePiece; leaves them empty
// otherwise. A word starts at a piece beginning with "▁", at a special token (</s>, <unk>, a >>lang<< code) and
// at position 0; a special token is a word of its own.
void describeSubwords(const Model& model, DecodeResult& r);

// --merge none|source|target|both (docs/marian.md "Pieces or words").
enum class MergeSides { None, Source, Target, Both };
// Throws InputError naming the value and the accepted ones.
MergeSides parseMergeSides(std::string_view text);
// "none", "source", "target" or "both": what parseMergeSides reads.
std::string_view mergeSidesName(MergeSides m);
inline bool mergesSource(MergeSides m) { return m == MergeSides::Source || m == MergeSides::Both; }
inline bool mergesTarget(MergeSides m) { return m == MergeSides::Target || m == MergeSides::Both; }

// The decode shown in words on the merged sides: tokens become the words' labels (pieces joined without "▁"),
// ids each word's first piece's id, a word's log-probability the sum of its pieces', attention columns summed over
// a source word's pieces and rows averaged over a target word's (every attention key, each head; the decoder
// self-attention's columns, the decoder's inputs, stay pieces). source_words / target_words become one piece per word.
// A decode without words (not a SentencePiece model) is returned as it is.
DecodeResult mergeWords(const DecodeResult& r, MergeSides sides);
// The same merge of one T × S matrix on the decode's spans (an explanation): rows by the target's, columns by the
// source's.
Mat mergeMatrix(const DecodeResult& r, const Mat& m, MergeSides sides);

}  // namespace attnviz
