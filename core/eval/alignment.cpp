#include "eval/alignment.h"

#include "base/errors.h"
#include "model/vocab.h"

#include <algorithm>
#include <charconv>
#include <iterator>
#include <optional>

namespace attnviz {

namespace {

// The target words' rows: every row but a final <eos> row.
size_t targetWords(const DecodeResult& forced) {
    size_t rows = forced.attention.size();
    if (rows > 0 && !forced.target_ids.empty() && forced.target_tokens.back() == kSpecialTokens[kEos]) --rows;
    return rows;
}

// The source word (0-based, specials not counted) of a row's highest weight; nullopt when it is a special (with
// include_specials) or the row has no words. Ties: the lower position.
std::optional<int> argmaxWord(const std::vector<float>& row, bool include_specials) {
    if (row.size() < 3) return std::nullopt;
    const size_t first = include_specials ? 0 : 1, last = include_specials ? row.size() - 1 : row.size() - 2;
    size_t best = first;
    for (size_t p = first + 1; p <= last; ++p)
        if (row[p] > row[best]) best = p;
    if (best == 0 || best == row.size() - 1) return std::nullopt;
    return static_cast<int>(best) - 1;
}

// The source words whose weight reaches the threshold: raw weights with include_specials, else the words' weights
// divided by their sum (none when that sum is 0).
std::vector<int> wordsAbove(const std::vector<float>& row, const AlignOptions& o) {
    std::vector<int> words;
    if (row.size() < 3) return words;
    double scale = 1.0;
    if (!o.include_specials) {
        double sum = 0;
        for (size_t p = 1; p + 1 < row.size(); ++p) sum += row[p];
        if (sum <= 0) return words;
        scale = 1.0 / sum;
    }
    for (size_t p = 1; p + 1 < row.size(); ++p)
        if (static_cast<double>(row[p]) * scale >= o.threshold) words.push_back(static_cast<int>(p) - 1);
    return words;
}

}  // namespace

std::string alignModeName(const AlignOptions& o) {
    switch (o.mode) {
    case AlignMode::Argmax:
        return "argmax";
    case AlignMode::Shift:
        return "shift";
    case AlignMode::Threshold:
        break;
    }
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, o.threshold);  // the shortest exact spelling
    return "threshold:" + std::string(buf, r.ptr);
}

void parseAlignMode(std::string_view text, AlignOptions& o) {
    const std::string expected =
        " (expected argmax, threshold, threshold:T with 0 < T <= 1, e.g. threshold:0.3, or shift)";
    if (text == "argmax" || text == "shift") {
        o.mode = text == "argmax" ? AlignMode::Argmax : AlignMode::Shift;
        return;
    }
    if (text == "threshold") {
        o.mode = AlignMode::Threshold;
        o.threshold = kDefaultAlignThreshold;
        return;
    }
    constexpr std::string_view kPrefix = "threshold:";
    if (text.substr(0, kPrefix.size()) != kPrefix)
        throw InputError("unknown alignment mode \"" + std::string(text.substr(0, 40)) + "\"" + expected);
    const std::string_view value = text.substr(kPrefix.size());
    double t = 0;
    const auto r = std::from_chars(value.data(), value.data() + value.size(), t);
    if (value.empty() || r.ec != std::errc() || r.ptr != value.data() + value.size() || !(t > 0 && t <= 1))
        throw InputError("bad threshold \"" + std::string(value.substr(0, 40)) + "\"" + expected);
    o.mode = AlignMode::Threshold;
    o.threshold = t;
}

std::vector<AlignOptions> allAlignModes(double threshold, bool include_specials) {
    return {{AlignMode::Argmax, threshold, include_specials},
            {AlignMode::Threshold, threshold, include_specials},
            {AlignMode::Shift, threshold, include_specials}};
}

std::vector<AlignmentLink> extractAlignment(const DecodeResult& forced, const AlignOptions& o) {
    std::vector<AlignmentLink> links;
    const size_t words = targetWords(forced);
    for (size_t j = 0; j < words; ++j) {
        const size_t row = o.mode == AlignMode::Shift ? j + 1 : j;
        if (row >= forced.attention.size()) continue;  // shift: no row after the last word
        const std::vector<float>& a = forced.attention[row];
        if (o.mode == AlignMode::Threshold) {
            for (int i : wordsAbove(a, o)) links.emplace_back(i, static_cast<int>(j));
        } else if (const std::optional<int> i = argmaxWord(a, o.include_specials)) {
            links.emplace_back(*i, static_cast<int>(j));
        }
    }
    std::sort(links.begin(), links.end());
    return links;
}

std::vector<AlignmentLink> attentionAlignment(const DecodeResult& forced) { return extractAlignment(forced, {}); }

AerCounts& AerCounts::operator+=(const AerCounts& o) {
    predicted += o.predicted;
    gold += o.gold;
    overlap += o.overlap;
    overlap_possible += o.overlap_possible;
    possible += o.possible;
    return *this;
}

double AerCounts::aer() const {
    if (predicted + gold == 0) return 0.0;
    return 1.0 - static_cast<double>(overlap + overlap_possible) / static_cast<double>(predicted + gold);
}

double AerCounts::precision() const {
    return predicted ? static_cast<double>(overlap_possible) / static_cast<double>(predicted) : 0.0;
}

double AerCounts::recall() const { return gold ? static_cast<double>(overlap) / static_cast<double>(gold) : 0.0; }

AerCounts aerCounts(const std::vector<AlignmentLink>& predicted, const GoldAlignment& gold) {
    std::vector<AlignmentLink> a = predicted;
    std::sort(a.begin(), a.end());
    a.erase(std::unique(a.begin(), a.end()), a.end());
    const GoldAlignment g = makeGoldAlignment(gold.sure, gold.possible);  // sorted, S ∩ possible removed
    AerCounts c;
    c.predicted = static_cast<int64_t>(a.size());
    c.gold = static_cast<int64_t>(g.sure.size());
    c.possible = static_cast<int64_t>(g.sure.size() + g.possible.size());
    for (const AlignmentLink& l : a) {
        c.overlap += g.isSure(l) ? 1 : 0;
        c.overlap_possible += g.isPossible(l) ? 1 : 0;
    }
    return c;
}

std::vector<AlignmentCell> classifyAlignment(const std::vector<AlignmentLink>& predicted, const GoldAlignment& gold) {
    std::vector<AlignmentLink> a = predicted;
    std::sort(a.begin(), a.end());
    a.erase(std::unique(a.begin(), a.end()), a.end());
    const GoldAlignment g = makeGoldAlignment(gold.sure, gold.possible);
    std::vector<AlignmentCell> cells;
    for (const AlignmentLink& l : a)
        cells.push_back({l, g.isPossible(l) ? AlignmentCellKind::Correct : AlignmentCellKind::False});
    for (const AlignmentLink& l : g.sure)
        if (!std::binary_search(a.begin(), a.end(), l)) cells.push_back({l, AlignmentCellKind::Missed});
    std::sort(cells.begin(), cells.end(),
              [](const AlignmentCell& x, const AlignmentCell& y) { return x.link < y.link; });
    return cells;
}

}  // namespace attnviz
