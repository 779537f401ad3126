#include "state/word_view.h"
#include "decode/subword_words.h"

#include <algorithm>

namespace attnviz::ui {

bool hasWords(const DecodeResult& r) { return !r.source_words.empty() && !r.target_words.empty(); }

int wordOfPiece(const std::vector<WordSpan>& words, int piece) {
    const auto it =
        std::upper_bound(words.begin(), words.end(), piece, [](int p, const WordSpan& w) { return p < w.end; });
    return it != words.end() && it->first <= piece ? int(it - words.begin()) : -1;
}

int wordsStarted(const std::vector<WordSpan>& words, int pieces) {
    return int(std::count_if(words.begin(), words.end(), [pieces](const WordSpan& w) { return w.first < pieces; }));
}

int firstPiece(const std::vector<WordSpan>& words, int word) {
    return word >= 0 && word < int(words.size()) ? words[size_t(word)].first : -1;
}

bool clauseSizedTargetWords(const DecodeResult& r) {
    return std::any_of(r.target_words.begin(), r.target_words.end(),
                       [](const WordSpan& w) { return w.end - w.first >= kClausePieces; });
}

Explanation mergedExplanation(const DecodeResult& r, const Explanation& e) {
    Explanation out = e;
    out.values = mergeMatrix(r, e.values, MergeSides::Both);
    if (e.ig_delta.empty()) return out;
    out.ig_delta.clear();
    for (const WordSpan& w : r.target_words) {
        double sum = 0;
        for (int p = w.first; p < w.end && p < int(e.ig_delta.size()); ++p) sum += e.ig_delta[size_t(p)];
        out.ig_delta.push_back(sum / std::max(1, w.end - w.first));
    }
    return out;
}

std::vector<int> knockoutWords(const DecodeResult& r, const std::vector<int>& knocked_pieces) {
    std::vector<int> words;
    for (int piece : knocked_pieces)
        if (const int w = wordOfPiece(r.source_words, piece); w >= 0) words.push_back(w);
    std::sort(words.begin(), words.end());
    words.erase(std::unique(words.begin(), words.end()), words.end());
    return words;
}

}  // namespace attnviz::ui
