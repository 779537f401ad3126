#include "eval/metrics.h"

#include "model/vocab.h"
#include "text/tokenizer.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>

namespace attnviz {

namespace {
constexpr const char* kEosText = "<eos>";

// The n-grams of one sentence with their counts.
std::map<std::vector<std::string>, int> ngramCounts(const std::vector<std::string>& tokens, int n) {
    std::map<std::vector<std::string>, int> counts;
    if (static_cast<int>(tokens.size()) < n) return counts;
    for (size_t i = 0; i + static_cast<size_t>(n) <= tokens.size(); ++i)
        ++counts[std::vector<std::string>(tokens.begin() + static_cast<std::ptrdiff_t>(i),
                                          tokens.begin() + static_cast<std::ptrdiff_t>(i) + n)];
    return counts;
}
}  // namespace

BleuStats& BleuStats::operator+=(const BleuStats& o) {
    for (int n = 0; n < 4; ++n) {
        matches[static_cast<size_t>(n)] += o.matches[static_cast<size_t>(n)];
        totals[static_cast<size_t>(n)] += o.totals[static_cast<size_t>(n)];
    }
    hyp_length += o.hyp_length;
    ref_length += o.ref_length;
    return *this;
}

double BleuStats::bleu() const {
    if (hyp_length == 0) return 0.0;
    double log_sum = 0;
    for (size_t n = 0; n < 4; ++n) {
        if (totals[n] == 0 || matches[n] == 0) return 0.0;  // no smoothing
        log_sum += std::log(static_cast<double>(matches[n]) / static_cast<double>(totals[n]));
    }
    const double c = static_cast<double>(hyp_length), r = static_cast<double>(ref_length);
    const double bp = c >= r ? 1.0 : std::exp(1.0 - r / c);
    return 100.0 * bp * std::exp(log_sum / 4.0);
}

double BleuStats::bleuPlusOne() const {
    if (hyp_length == 0 || matches[0] == 0) return 0.0;
    double log_sum = std::log(static_cast<double>(matches[0]) / static_cast<double>(totals[0]));
    for (size_t n = 1; n < 4; ++n)
        log_sum += std::log(static_cast<double>(matches[n] + 1) / static_cast<double>(totals[n] + 1));
    const double c = static_cast<double>(hyp_length), r = static_cast<double>(ref_length);
    const double bp = c >= r ? 1.0 : std::exp(1.0 - r / c);
    return 100.0 * bp * std::exp(log_sum / 4.0);
}

BleuStats bleuStats(const std::vector<std::string>& hyp, const std::vector<std::string>& ref) {
    BleuStats s;
    s.hyp_length = static_cast<int64_t>(hyp.size());
    s.ref_length = static_cast<int64_t>(ref.size());
    for (int n = 1; n <= 4; ++n) {
        const auto h = ngramCounts(hyp, n);
        const auto r = ngramCounts(ref, n);
        int64_t total = 0, match = 0;
        for (const auto& [gram, count] : h) {
            total += count;
            auto it = r.find(gram);
            if (it != r.end()) match += std::min(count, it->second);  // clipped by the reference count
        }
        s.totals[static_cast<size_t>(n - 1)] = total;
        s.matches[static_cast<size_t>(n - 1)] = match;
    }
    return s;
}

double corpusBleu(const std::vector<std::vector<std::string>>& hyps,
                  const std::vector<std::vector<std::string>>& refs) {
    BleuStats total;
    for (size_t i = 0; i < hyps.size() && i < refs.size(); ++i) total += bleuStats(hyps[i], refs[i]);
    return total.bleu();
}

TokenCounts tokenCounts(const std::vector<std::string>& output, const std::vector<std::string>& reference) {
    TokenCounts c;
    c.positions = static_cast<int64_t>(reference.size());
    for (size_t k = 0; k < reference.size() && k < output.size(); ++k)
        if (output[k] == reference[k]) ++c.correct;
    return c;
}

std::vector<std::string> withoutEos(const std::vector<std::string>& tokens) {
    if (!tokens.empty() && tokens.back() == kEosText) return {tokens.begin(), tokens.end() - 1};
    return tokens;
}

bool exactMatch(const std::vector<std::string>& output, const std::vector<std::string>& reference) {
    return withoutEos(output) == withoutEos(reference);
}

EvalCounts& EvalCounts::operator+=(const EvalCounts& o) {
    lines += o.lines;
    exact += o.exact;
    tokens.correct += o.tokens.correct;
    tokens.positions += o.tokens.positions;
    bleu += o.bleu;
    chrf += o.chrf;
    entropy_sum += o.entropy_sum;
    attention_rows += o.attention_rows;
    output_tokens += o.output_tokens;
    aligned_lines += o.aligned_lines;
    alignment += o.alignment;
    return *this;
}

EvalCounts evalExample(const DecodeResult& greedy, const std::vector<std::string>& reference,
                       const DecodeResult* forced, const GoldAlignment* gold, const AlignOptions& align) {
    EvalCounts c;
    c.lines = 1;
    c.exact = exactMatch(greedy.target_tokens, reference) ? 1 : 0;
    c.tokens = tokenCounts(greedy.target_tokens, reference);
    c.bleu = bleuStats(withoutEos(greedy.target_tokens), withoutEos(reference));
    c.chrf = chrfStats(withoutEos(greedy.target_tokens), withoutEos(reference));
    for (const auto& row : greedy.attention) c.entropy_sum += rowEntropy(row);
    c.attention_rows = static_cast<int64_t>(greedy.attention.size());
    c.output_tokens = static_cast<int64_t>(greedy.target_tokens.size());
    if (forced && gold) {
        c.aligned_lines = 1;
        c.alignment = aerCounts(extractAlignment(*forced, align), *gold);
    }
    return c;
}

std::vector<std::string> scoredTokens(const Model& model, const std::vector<std::string>& tokens) {
    if (model.config.tokenizer.target != TokenizerKind::SentencePiece) return withoutEos(tokens);
    return tokenize(detokenizeTarget(model, tokens), TokenizerKind::Char, false);
}

EvalCounts evalExample(const Model& model, const DecodeResult& greedy, const std::vector<std::string>& reference,
                       const DecodeResult* forced, const GoldAlignment* gold, const AlignOptions& align) {
    EvalCounts c = evalExample(greedy, reference, forced, gold, align);
    if (model.config.tokenizer.target != TokenizerKind::SentencePiece) return c;
    const std::vector<std::string> output = scoredTokens(model, greedy.target_tokens);
    const std::vector<std::string> wanted = scoredTokens(model, reference);
    c.exact = output == wanted ? 1 : 0;
    c.bleu = bleuStats(output, wanted);
    c.chrf = chrfStats(output, wanted);
    return c;
}

EvalReport evalReport(const EvalCounts& c) {
    EvalReport r;
    r.counts = c;
    r.lines = c.lines;
    r.exact_match = c.lines ? static_cast<double>(c.exact) / static_cast<double>(c.lines) : 0.0;
    r.token_accuracy =
        c.tokens.positions ? static_cast<double>(c.tokens.correct) / static_cast<double>(c.tokens.positions) : 0.0;
    r.bleu = c.bleu.bleu();
    r.chrf = c.chrf.chrf();
    r.mean_entropy = c.attention_rows ? c.entropy_sum / static_cast<double>(c.attention_rows) : 0.0;
    if (c.aligned_lines > 0) {
        r.aer = c.alignment.aer();
        r.alignment_precision = c.alignment.precision();
        r.alignment_recall = c.alignment.recall();
    }
    return r;
}

}  // namespace attnviz
