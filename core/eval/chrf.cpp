#include "eval/chrf.h"

#include "base/utf8.h"

#include <algorithm>
#include <map>
#include <string>

namespace attnviz {
namespace {

bool isSpace(char32_t c) {
    return c == U' ' || c == U'\t' || c == U'\n' || c == U'\r' || c == U'\f' || c == U'\v' || c == U'\u3000';
}

// The code points of the joined tokens, whitespace left out.
std::u32string characters(const std::vector<std::string>& tokens) {
    std::u32string out;
    for (const std::string& token : tokens) {
        for (size_t i = 0; i < token.size();) {
            const Utf8Char c = decodeUtf8(token, i);
            const char32_t cp = c.length ? c.cp : static_cast<unsigned char>(token[i]);
            i += c.length ? c.length : 1;
            if (!isSpace(cp)) out.push_back(cp);
        }
    }
    return out;
}

std::map<std::u32string, int64_t> ngramCounts(const std::u32string& text, size_t n) {
    std::map<std::u32string, int64_t> counts;
    for (size_t i = 0; i + n <= text.size(); ++i) ++counts[text.substr(i, n)];
    return counts;
}

}  // namespace

ChrfStats& ChrfStats::operator+=(const ChrfStats& o) {
    for (int n = 0; n < kChrfOrder; ++n) {
        matches[n] += o.matches[n];
        hyp_ngrams[n] += o.hyp_ngrams[n];
        ref_ngrams[n] += o.ref_ngrams[n];
    }
    return *this;
}

double ChrfStats::chrf() const {
    const double beta2 = kChrfBeta * kChrfBeta;
    double f_sum = 0;
    int orders = 0;
    for (int n = 0; n < kChrfOrder; ++n) {
        if (hyp_ngrams[n] == 0 || ref_ngrams[n] == 0) continue;
        ++orders;
        const double p = static_cast<double>(matches[n]) / static_cast<double>(hyp_ngrams[n]);
        const double r = static_cast<double>(matches[n]) / static_cast<double>(ref_ngrams[n]);
        if (p + r > 0) f_sum += (1 + beta2) * p * r / (beta2 * p + r);
    }
    return orders ? 100.0 * f_sum / orders : 0.0;
}

ChrfStats chrfStats(const std::vector<std::string>& hypothesis, const std::vector<std::string>& reference) {
    const std::u32string hyp = characters(hypothesis), ref = characters(reference);
    ChrfStats s;
    for (int n = 1; n <= kChrfOrder; ++n) {
        const auto h = ngramCounts(hyp, size_t(n)), r = ngramCounts(ref, size_t(n));
        for (const auto& [gram, count] : h) {
            s.hyp_ngrams[n - 1] += count;
            const auto it = r.find(gram);
            if (it != r.end()) s.matches[n - 1] += std::min(count, it->second);
        }
        for (const auto& [gram, count] : r) s.ref_ngrams[n - 1] += count;
    }
    return s;
}

}  // namespace attnviz
