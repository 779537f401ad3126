#include "eval/compare.h"

#include "base/errors.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace attnviz {

double totalVariation(const std::vector<float>& p, const std::vector<float>& q) {
    double sum = 0;
    for (size_t j = 0; j < p.size() && j < q.size(); ++j)
        sum += std::abs(static_cast<double>(p[j]) - static_cast<double>(q[j]));
    return 0.5 * sum;
}

double jensenShannon(const std::vector<float>& p, const std::vector<float>& q) {
    double sum = 0;
    for (size_t j = 0; j < p.size() && j < q.size(); ++j) {
        const double a = p[j], b = q[j], m = 0.5 * (a + b);
        if (a > 0) sum += a * std::log(a / m);
        if (b > 0) sum += b * std::log(b / m);
    }
    return std::max(0.0, 0.5 * sum);  // never below 0 through round-off
}

int rowArgmax(const std::vector<float>& row) {
    return row.empty() ? 0 : static_cast<int>(std::max_element(row.begin(), row.end()) - row.begin());
}

AttentionComparisonCounts& AttentionComparisonCounts::operator+=(const AttentionComparisonCounts& o) {
    lines += o.lines;
    rows += o.rows;
    tv_sum += o.tv_sum;
    js_sum += o.js_sum;
    argmax_agreements += o.argmax_agreements;
    entropy_a_sum += o.entropy_a_sum;
    entropy_b_sum += o.entropy_b_sum;
    aligned_lines += o.aligned_lines;
    alignment_a += o.alignment_a;
    alignment_b += o.alignment_b;
    return *this;
}

namespace {

// Tokens as they appear in a message: control characters escaped.
std::string quoted(const std::string& token) {
    std::string out = "\"";
    for (const char ch : token) {
        const auto c = static_cast<unsigned char>(ch);
        if (c < 0x20 || c == 0x7F) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02X", c);
            out += buf;
        } else {
            out += ch;
        }
    }
    return out + "\"";
}

// The first entry where two token lists differ ("id 57 is "cat" against "dog"", or the sizes).
std::string vocabularyDifference(const Vocabulary& a, const Vocabulary& b) {
    if (a.size() != b.size()) return std::to_string(a.size()) + " against " + std::to_string(b.size()) + " tokens";
    for (int i = 0; i < a.size(); ++i)
        if (a.token(i) != b.token(i))
            return "id " + std::to_string(i) + " is " + quoted(a.token(i)) + " against " + quoted(b.token(i));
    return "equal";
}

// Throws InputError unless `a` and `b` have rows of the same sizes.
void checkSameShape(const DecodeResult& a, const DecodeResult& b) {
    if (a.attention.size() != b.attention.size())
        throw InputError("the two decodes have " + std::to_string(a.attention.size()) + " and " +
                         std::to_string(b.attention.size()) + " attention rows; compared rows need the same target");
    for (size_t t = 0; t < a.attention.size(); ++t)
        if (a.attention[t].size() != b.attention[t].size())
            throw InputError("attention row " + std::to_string(t) + " has " + std::to_string(a.attention[t].size()) +
                             " and " + std::to_string(b.attention[t].size()) +
                             " columns; compared rows need the same source tokens");
}

}  // namespace

std::string comparabilityProblem(const Model& a, const Model& b) {
    if (a.source_vocab != b.source_vocab)
        return "source vocabularies differ (" + vocabularyDifference(a.source_vocab, b.source_vocab) + ")";
    if (a.target_vocab != b.target_vocab)
        return "target vocabularies differ (" + vocabularyDifference(a.target_vocab, b.target_vocab) + ")";
    if (a.config.tokenizer != b.config.tokenizer) return "tokenizers differ";
    return {};
}

std::vector<RowComparison> compareRows(const DecodeResult& a, const DecodeResult& b) {
    checkSameShape(a, b);
    std::vector<RowComparison> rows(a.attention.size());
    for (size_t t = 0; t < rows.size(); ++t) {
        const std::vector<float>& p = a.attention[t];
        const std::vector<float>& q = b.attention[t];
        RowComparison& r = rows[t];
        r.tv = totalVariation(p, q);
        r.js = jensenShannon(p, q);
        r.argmax_a = rowArgmax(p);
        r.argmax_b = rowArgmax(q);
        r.entropy_a = rowEntropy(p);
        r.entropy_b = rowEntropy(q);
    }
    return rows;
}

std::vector<std::vector<float>> attentionDifference(const DecodeResult& a, const DecodeResult& b) {
    checkSameShape(a, b);
    std::vector<std::vector<float>> d(a.attention.size());
    for (size_t t = 0; t < d.size(); ++t) {
        d[t].resize(a.attention[t].size());
        for (size_t j = 0; j < d[t].size(); ++j) d[t][j] = b.attention[t][j] - a.attention[t][j];
    }
    return d;
}

AttentionComparisonCounts compareAttention(const DecodeResult& a, const DecodeResult& b, const GoldAlignment* gold) {
    AttentionComparisonCounts c;
    c.lines = 1;
    for (const RowComparison& r : compareRows(a, b)) {
        c.tv_sum += r.tv;
        c.js_sum += r.js;
        if (r.agree()) ++c.argmax_agreements;
        c.entropy_a_sum += r.entropy_a;
        c.entropy_b_sum += r.entropy_b;
    }
    c.rows = static_cast<int64_t>(a.attention.size());
    if (gold) {
        c.aligned_lines = 1;
        c.alignment_a = aerCounts(attentionAlignment(a), *gold);
        c.alignment_b = aerCounts(attentionAlignment(b), *gold);
    }
    return c;
}

AttentionComparison comparisonSummary(const AttentionComparisonCounts& c) {
    AttentionComparison s;
    s.lines = c.lines;
    s.rows = c.rows;
    if (c.rows > 0) {
        const double n = static_cast<double>(c.rows);
        s.mean_tv = c.tv_sum / n;
        s.mean_js = c.js_sum / n;
        s.argmax_agreement = static_cast<double>(c.argmax_agreements) / n;
        s.mean_entropy_a = c.entropy_a_sum / n;
        s.mean_entropy_b = c.entropy_b_sum / n;
    }
    if (c.aligned_lines > 0) {
        s.aer_a = c.alignment_a.aer();
        s.aer_b = c.alignment_b.aer();
    }
    return s;
}

}  // namespace attnviz
