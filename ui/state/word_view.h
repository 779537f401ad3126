// Pieces or words in the window (docs/marian.md "Pieces and words"): with words chosen, a SentencePiece model's
// decode is shown merged on both sides (decode/subword_words.h's mergeWords: columns summed, rows averaged) by the
// heatmap, the head grid and the explanation shown; the cursor, the steps, the selection and the interventions stay
// in pieces, and these functions map between the two.
#pragma once
#include "decode/decoding.h"
#include "explain/explanation.h"

#include <vector>

namespace attnviz::ui {

// Whether the decode can be shown in words: a SentencePiece model's (its words are filled).
bool hasWords(const DecodeResult& r);
// The index of the word holding piece `piece`; -1 when `piece` is outside every word.
int wordOfPiece(const std::vector<WordSpan>& words, int piece);
// How many words start before piece position `pieces` (the merged rows shown once `pieces` steps are).
int wordsStarted(const std::vector<WordSpan>& words, int pieces);
// The first piece of word `word`; -1 when there is no such word.
int firstPiece(const std::vector<WordSpan>& words, int word);
// Whether merging the target gives chunks rather than words: a target word of kClausePieces pieces or more (Chinese
// targets, whose pieces rarely start with "▁"; docs/marian.md).
constexpr int kClausePieces = 4;
bool clauseSizedTargetWords(const DecodeResult& r);

// `e` (on r's pieces) on r's words, both sides merged as mergeWords merges r: the matrix through mergeMatrix, the
// integrated gradients' row targets averaged over a word's pieces as its row is.
Explanation mergedExplanation(const DecodeResult& r, const Explanation& e);

// The knockouts' marks on the words' columns: a word is marked when any of its pieces is knocked out (each word
// once). Attends (RNN models only, which have no words) are left out.
std::vector<int> knockoutWords(const DecodeResult& r, const std::vector<int>& knocked_pieces);

}  // namespace attnviz::ui
