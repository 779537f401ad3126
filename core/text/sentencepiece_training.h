// Training a SentencePiece unigram model with the library's own trainer (libsentencepiece-train), for the
// Marian-layout models attnviz trains (docs/marian.md). Deterministic: the same lines and options give the same
// model bytes.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace attnviz {

// Vocabulary sizes a model can be asked for: its 3 special pieces (<unk>, <s>, </s>) and at least one more, and at
// most the trainer's seed pieces (a million).
inline constexpr int kMinSentencePieceVocab = 4;
inline constexpr int kMaxSentencePieceVocab = 1000000;
// The share of a side's characters (by count) that must be pieces of their own: 1 keeps every character; below it the
// rarest characters become <unk> (SentencePiece's advice for Chinese or Japanese is 0.9995).
inline constexpr double kMinCharacterCoverage = 0.98;
// Lines longer than this (in bytes) are left out of training, as the library leaves out what passes its limit.
inline constexpr size_t kMaxSentencePieceLineBytes = 65536;
// The library's normalization rules, the default first. nmt_nfkc, which opus-mt models have, is NFKC with control
// characters dropped and every space a plain one. NFKC turns full-width punctuation into ASCII ("，" into ","), so a
// Chinese or Japanese side that should keep its own punctuation takes "identity" (no change but whitespace runs as
// one). The _cf rules also fold case.
inline constexpr const char* kSentencePieceNormalizations[] = {"nmt_nfkc", "nfkc", "nmt_nfkc_cf", "nfkc_cf",
                                                               "identity"};
// Whether `rule` is one of kSentencePieceNormalizations, and the list as a message gives it ("nmt_nfkc, nfkc, ...").
bool isSentencePieceNormalization(const std::string& rule);
std::string sentencePieceNormalizationList();

struct SentencePieceTraining {
    int vocab_size = 8000;            // pieces in the model, its 3 specials included
    uint64_t seed = 1;                // which lines are kept when there are more than max_sentences
    double character_coverage = 1.0;  // kMinCharacterCoverage to 1
    size_t max_sentences = 1000000;   // at most this many lines, a seeded sample of them (the library's advice)
    std::string normalization = kSentencePieceNormalizations[0];  // how text is normalized, in training and after
};

// Trains a unigram model on `lines` (one sentence each, UTF-8) and returns its bytes, a .spm file. Each distinct word
// is given to the trainer once more as a line of its own, so that every word can become a piece (Debian's 0.1.97
// leaves out words always followed by a space; the .cpp says why). The library uses
// no randomness when it is given every line, so the seed only picks the sample when there are more lines than
// max_sentences. Throws InputError: a vocabulary size outside [4, 10^6], a coverage outside [0.98, 1] or a
// normalization not in kSentencePieceNormalizations; a line with invalid UTF-8 or a NUL byte ("line N: ..."); no line
// with a letter, digit, punctuation or symbol; a corpus too small for vocab_size ("... at most N pieces"), or a
// vocab_size below its characters ("... at least N").
std::string trainSentencePiece(const std::vector<std::string>& lines, const SentencePieceTraining& options);

}  // namespace attnviz
