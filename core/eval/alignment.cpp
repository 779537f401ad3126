#include "eval/alignment.h"

#include "base/errors.h"
#include "model/vocab.h"

#include <algorithm>
#include <charconv>
#include <iterator>
#include <optional>

namespace attnviz {

namespace {

// The target words among `rows` rows (a forced decode's, merged or not): all but a final end row. A SentencePiece
// model's </s> is a word of its own when merged, so the last piece's id says it for either.
size_t targetWords(const DecodeResult& forced, Eigen::Index rows, const WordAxes& w) {
    size_t words = size_t(rows);
    if (words > 0 && !forced.target_ids.empty() && forced.target_ids.back() == w.end_id) --words;
    return words;
}

// The columns of source words in a row of `cols`: [first, last]; none (first > last) without words. The last column
// is the source's end token.
struct WordColumns {
    Eigen::Index first, last;
};
WordColumns wordColumns(Eigen::Index cols, const WordAxes& w) { return {w.first_column, cols - 2}; }

// The source word (0-based) of row t's highest weight; nullopt when it is a special (with include_specials) or the
// row has no words. Ties: the lower position.
std::optional<int> argmaxWord(const Mat& m, Eigen::Index t, const AlignOptions& o) {
    const WordColumns c = wordColumns(m.cols(), o.words);
    if (c.first > c.last) return std::nullopt;
    const Eigen::Index from = o.include_specials ? 0 : c.first, to = o.include_specials ? m.cols() - 1 : c.last;
    Eigen::Index best = from;
    for (Eigen::Index p = from + 1; p <= to; ++p)
        if (m(t, p) > m(t, best)) best = p;
    if (best < c.first || best > c.last) return std::nullopt;
    return int(best - c.first);
}

// The source words of row t whose weight reaches the threshold: raw weights with include_specials, else the words'
// weights divided by their sum (none when that sum is 0).
std::vector<int> wordsAbove(const Mat& m, Eigen::Index t, const AlignOptions& o) {
    std::vector<int> words;
    const WordColumns c = wordColumns(m.cols(), o.words);
    if (c.first > c.last) return words;
    double scale = 1.0;
    if (!o.include_specials) {
        double sum = 0;
        for (Eigen::Index p = c.first; p <= c.last; ++p) sum += m(t, p);
        if (sum <= 0) return words;
        scale = 1.0 / sum;
    }
    for (Eigen::Index p = c.first; p <= c.last; ++p)
        if (static_cast<double>(m(t, p)) * scale >= o.threshold) words.push_back(int(p - c.first));
    return words;
}

// The links of `m`, the forced decode's rows already merged into words.
std::vector<AlignmentLink> linksOf(const DecodeResult& forced, const Mat& m, const AlignOptions& o) {
    std::vector<AlignmentLink> links;
    const size_t words = targetWords(forced, m.rows(), o.words);
    for (size_t j = 0; j < words; ++j) {
        const Eigen::Index row = Eigen::Index(o.mode == AlignMode::Shift ? j + 1 : j);
        if (row >= m.rows()) continue;  // shift: no row after the last word
        if (o.mode == AlignMode::Threshold) {
            for (int i : wordsAbove(m, row, o)) links.emplace_back(i, static_cast<int>(j));
        } else if (const std::optional<int> i = argmaxWord(m, row, o)) {
            links.emplace_back(*i, static_cast<int>(j));
        }
    }
    std::sort(links.begin(), links.end());
    return links;
}

}  // namespace

WordAxes wordAxes(const Model& model, MergeSides merge) {
    WordAxes w;
    w.merge = merge;
    w.first_column = model.source_vocab.specials().sos >= 0 ? 1 : 0;
    w.end_id = model.target_vocab.specials().eos;
    return w;
}

bool readsWords(const Model& model, MergeSides merge) {
    const TokenizerConfig& t = model.config.tokenizer;
    const bool pieces = t.source == TokenizerKind::SentencePiece || t.target == TokenizerKind::SentencePiece;
    return !pieces || merge == MergeSides::Both;
}

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
    return {{AlignMode::Argmax, threshold, include_specials, {}},
            {AlignMode::Threshold, threshold, include_specials, {}},
            {AlignMode::Shift, threshold, include_specials, {}}};
}

std::vector<AlignmentLink> extractAlignment(const DecodeResult& forced, const Mat& weights, const AlignOptions& o) {
    return linksOf(forced, mergeMatrix(forced, weights, o.words.merge), o);
}

std::vector<AlignmentLink> extractAlignment(const DecodeResult& forced, const AlignOptions& o) {
    const Eigen::Index S = Eigen::Index(forced.attention.empty() ? 0 : forced.attention.front().size());
    return extractAlignment(forced, matrixOfRows(forced.attention, S), o);
}

void checkWordCounts(const DecodeResult& forced, const WordAxes& w, size_t source_words, size_t target_words) {
    const size_t columns =
        mergesSource(w.merge) && !forced.source_words.empty() ? forced.source_words.size() : forced.source_ids.size();
    const size_t rows =
        mergesTarget(w.merge) && !forced.target_words.empty() ? forced.target_words.size() : forced.target_ids.size();
    const size_t source = columns > size_t(w.first_column) ? columns - size_t(w.first_column) - 1 : 0;
    const size_t target = targetWords(forced, Eigen::Index(rows), w);
    if (source == source_words && target == target_words) return;
    throw InputError("the model reads " + std::to_string(source) + " source and " + std::to_string(target) +
                     " target words where the text has " + std::to_string(source_words) + " and " +
                     std::to_string(target_words) +
                     " (an <unk> piece or a >>lang<< code is a word of its own): the gold links cannot be placed");
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
