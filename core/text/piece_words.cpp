#include "text/piece_words.h"

#include <stdexcept>

namespace attnviz {

namespace {

constexpr std::string_view kWordStart = "\xE2\x96\x81";  // "▁" U+2581

// The spans must tile [0, size) in order, none empty.
void checkSpans(const std::vector<WordSpan>& spans, Eigen::Index size, const char* what) {
    int at = 0;
    for (const WordSpan& s : spans) {
        if (s.first != at || s.end <= s.first) throw std::invalid_argument(std::string(what) + ": spans do not tile");
        at = s.end;
    }
    if (at != size) throw std::invalid_argument(std::string(what) + ": spans do not cover the matrix");
}

}  // namespace

std::vector<WordSpan> wordSpans(const std::vector<std::string>& pieces,
                                const std::function<bool(int position)>& is_special) {
    std::vector<WordSpan> spans;
    bool after_special = false;
    for (int i = 0; i < static_cast<int>(pieces.size()); ++i) {
        const bool special = is_special(i);
        const bool starts = i == 0 || special || after_special || pieces[i].starts_with(kWordStart);
        if (starts)
            spans.push_back({i, i + 1});
        else
            spans.back().end = i + 1;
        after_special = special;
    }
    return spans;
}

std::vector<std::string> wordLabels(const std::vector<std::string>& pieces, const std::vector<WordSpan>& spans) {
    std::vector<std::string> labels;
    labels.reserve(spans.size());
    for (const WordSpan& s : spans) {
        std::string label;
        for (int i = s.first; i < s.end; ++i) {
            const std::string& piece = pieces.at(i);
            for (size_t at = 0; at < piece.size();) {
                const size_t mark = piece.find(kWordStart, at);
                label.append(piece, at, mark == std::string::npos ? std::string::npos : mark - at);
                at = mark == std::string::npos ? piece.size() : mark + kWordStart.size();
            }
        }
        labels.push_back(std::move(label));
    }
    return labels;
}

Mat sumColumns(const Mat& m, const std::vector<WordSpan>& spans) {
    checkSpans(spans, m.cols(), "sumColumns");
    Mat out(m.rows(), static_cast<Eigen::Index>(spans.size()));
    for (size_t w = 0; w < spans.size(); ++w)
        out.col(w) = m.middleCols(spans[w].first, spans[w].end - spans[w].first).rowwise().sum();
    return out;
}

Mat meanRows(const Mat& m, const std::vector<WordSpan>& spans) {
    checkSpans(spans, m.rows(), "meanRows");
    Mat out(static_cast<Eigen::Index>(spans.size()), m.cols());
    for (size_t w = 0; w < spans.size(); ++w)
        out.row(w) = m.middleRows(spans[w].first, spans[w].end - spans[w].first).colwise().mean();
    return out;
}

Mat mergeBoth(const Mat& m, const std::vector<WordSpan>& row_spans, const std::vector<WordSpan>& column_spans) {
    return sumColumns(meanRows(m, row_spans), column_spans);
}

}  // namespace attnviz
