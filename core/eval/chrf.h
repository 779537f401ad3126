// chrF (Popović 2015) as sacreBLEU 2 computes it by default: the character n-gram F-score with n = 1..6 and β = 2,
// over each sentence's characters with the whitespace taken out, the n-gram counts summed over the corpus.
//
// Per order n: P_n = matches / hypothesis n-grams, R_n = matches / reference n-grams (matches clipped by the
// reference count), F_n = (1 + β²) P_n R_n / (β² P_n + R_n) (0 when P_n = R_n = 0). chrF = 100 × the mean of F_n over
// the orders where both the hypotheses and the references have n-grams (0 if none has).
//
// Characters are Unicode code points: a Chinese sentence of char tokens is compared character by character, a
// word-tokenized one by the letters of its words (the tokens are joined, which also takes the spaces out).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace attnviz {

inline constexpr int kChrfOrder = 6;
inline constexpr double kChrfBeta = 2.0;

struct ChrfStats {
    std::array<int64_t, kChrfOrder> matches{};     // clipped character n-gram matches, n = 1..6
    std::array<int64_t, kChrfOrder> hyp_ngrams{};  // character n-grams in the hypotheses
    std::array<int64_t, kChrfOrder> ref_ngrams{};  // character n-grams in the references
    ChrfStats& operator+=(const ChrfStats& o);
    double chrf() const;  // in %, 0..100
};

// The statistics of one sentence pair: tokens without <eos>, whose texts are joined and whose whitespace is dropped.
// Invalid UTF-8 bytes count as one character each.
ChrfStats chrfStats(const std::vector<std::string>& hypothesis, const std::vector<std::string>& reference);

}  // namespace attnviz
