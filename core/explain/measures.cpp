#include "explain/measures.h"

#include "decode/limits.h"
#include "decode/parallel.h"
#include "text/tokenizer.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

namespace attnviz {

MeanSum& MeanSum::operator+=(const MeanSum& o) {
    sum += o.sum;
    count += o.count;
    return *this;
}

double MeanSum::mean() const { return count ? sum / double(count) : std::numeric_limits<double>::quiet_NaN(); }

ExplainMeasures& ExplainMeasures::operator+=(const ExplainMeasures& o) {
    aer += o.aer;
    aopc += o.aopc;
    occlusion_spearman += o.occlusion_spearman;
    return *this;
}

std::vector<double> rowSpearman(const Mat& a, const Mat& b, int first) {
    std::vector<double> rho;
    for (Eigen::Index t = 0; t < a.rows(); ++t) {
        std::vector<double> x, y;
        for (Eigen::Index j = first; j + 1 < a.cols(); ++j) {
            x.push_back(double(a(t, j)));
            y.push_back(double(b(t, j)));
        }
        rho.push_back(spearman(x, y));
    }
    return rho;
}

Mat rowShares(const Mat& R) {
    Mat shares = R.cwiseAbs();
    for (Eigen::Index t = 0; t < shares.rows(); ++t) {
        const float sum = shares.row(t).sum();
        if (sum > 0) shares.row(t) /= sum;
    }
    return shares;
}

std::vector<int> rankedWords(const Mat& R, int t, int first) {
    std::vector<int> words(size_t(std::max<Eigen::Index>(R.cols() - 1 - first, 0)));
    std::iota(words.begin(), words.end(), first);
    std::stable_sort(words.begin(), words.end(), [&](int a, int b) { return R(t, a) > R(t, b); });
    return words;
}

namespace {

// Average ranks (1-based), ties sharing the mean of their ranks.
std::vector<double> ranks(const std::vector<double>& v) {
    std::vector<size_t> idx(v.size());
    std::iota(idx.begin(), idx.end(), 0);
    std::sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return v[a] < v[b]; });
    std::vector<double> r(v.size());
    for (size_t i = 0; i < idx.size();) {
        size_t j = i;
        while (j + 1 < idx.size() && v[idx[j + 1]] == v[idx[i]]) ++j;
        const double mean_rank = (double(i) + double(j)) / 2.0 + 1.0;
        for (size_t k = i; k <= j; ++k) r[idx[k]] = mean_rank;
        i = j + 1;
    }
    return r;
}

}  // namespace

double spearman(const std::vector<double>& a, const std::vector<double>& b) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    if (a.size() < 2 || a.size() != b.size()) return nan;
    const std::vector<double> ra = ranks(a), rb = ranks(b);
    const double n = double(a.size()), mean = (n + 1) / 2;
    double cov = 0, va = 0, vb = 0;
    for (size_t i = 0; i < ra.size(); ++i) {
        cov += (ra[i] - mean) * (rb[i] - mean);
        va += (ra[i] - mean) * (ra[i] - mean);
        vb += (rb[i] - mean) * (rb[i] - mean);
    }
    if (va == 0 || vb == 0) return nan;
    return cov / std::sqrt(va * vb);
}

MeanSum aopcOf(const Model& model, const DecodeResult& forced, const std::vector<std::vector<int>>& order,
               const Interventions& iv) {
    const ForcedInput original{forced.source_ids, forced.target_ids, 1.0, iv};
    const int n = order.empty() ? 0 : int(order.front().size()), K = std::min(kAopcMaxK, n);
    MeanSum out;
    if (K < 1) return out;
    std::vector<ForcedInput> inputs{original};
    for (size_t t = 0; t < order.size(); ++t)
        for (int k = 1; k <= K; ++k) {
            inputs.push_back(original);
            for (int i = 0; i < k; ++i)
                inputs.back().source[size_t(order[t][size_t(i)])] = model.source_vocab.specials().unk;
        }
    const std::vector<std::vector<double>> f = forcedObjectives(model, inputs, std::nullopt);
    size_t next = 1;
    for (size_t t = 0; t < order.size(); ++t)
        for (int k = 1; k <= K; ++k, ++next) {
            out.sum += f[0][t] - f[next][t];
            ++out.count;
        }
    return out;
}

std::vector<std::vector<int>> randomOrders(int rows, int words, uint64_t seed, int first) {
    std::mt19937_64 rng(seed);
    std::vector<std::vector<int>> out(size_t(std::max(rows, 0)));
    for (std::vector<int>& o : out) {
        o.resize(size_t(std::max(words, 0)));
        std::iota(o.begin(), o.end(), first);
        std::shuffle(o.begin(), o.end(), rng);
    }
    return out;
}

ExplainMeasures measureMethod(const Model& model, const DecodeResult& forced, const GoldAlignment* gold, const Mat& R,
                              const AlignOptions& align, const Interventions& iv) {
    ExplainMeasures m;
    if (gold) m.aer = aerCounts(extractAlignment(forced, R, align), *gold);
    std::vector<std::vector<int>> order;
    for (Eigen::Index t = 0; t < R.rows(); ++t) order.push_back(rankedWords(R, int(t), align.words.first_column));
    m.aopc = aopcOf(model, forced, order, iv);
    return m;
}

namespace {

LineExplainScores explainCorpusLine(const Model& model, const CorpusExample& ex, ExplainMethod method,
                                    const AlignOptions& align) {
    LineExplainScores s;
    if (!ex.has_target) {
        s.error = "no reference to force";
        return s;
    }
    try {
        DecodeOptions options;
        options.parallel_steps = false;  // every core measures lines of its own
        const TokenizedText source = tokenizeSource(model, ex.source), reference = tokenizeTarget(model, ex.target);
        if (source.ids.size() > size_t(kMaxSourceTokens) || reference.ids.size() > 2 * size_t(kMaxSourceTokens) + 10) {
            s.error = "longer than the limit of " + std::to_string(kMaxSourceTokens) + " source tokens";
            return s;
        }
        const DecodeResult forced = forcedDecode(model, source, reference, options);
        const ExplainMeasures m = measureMethod(model, forced, ex.has_alignment ? &ex.alignment : nullptr,
                                                explainDecode(model, forced, method).values, align);
        if (ex.has_alignment) s.aer = m.aer.aer();
        s.aopc = m.aopc.mean();
        s.scored = true;
    } catch (const std::exception& e) {
        s.error = e.what();
    }
    return s;
}

}  // namespace

std::vector<LineExplainScores> explainCorpus(const Model& model, const std::vector<CorpusExample>& examples,
                                             ExplainMethod method, const AlignOptions& align, std::atomic<size_t>* done,
                                             const std::atomic<bool>* cancel) {
    std::vector<LineExplainScores> scores(examples.size());
    forEachInParallel(
        examples.size(), 0, [&](size_t i) { scores[i] = explainCorpusLine(model, examples[i], method, align); }, done,
        cancel);
    return scores;
}

LineMeasures measureLine(const Model& model, const DecodeResult& forced, const GoldAlignment* gold,
                         const std::vector<ExplainMethod>& methods, const AlignOptions& align, uint64_t seed,
                         const ExplainOptions& options) {
    const int first = align.words.first_column;
    const int T = int(forced.target_ids.size()), n = int(forced.source_ids.size()) - 1 - first;
    const Mat occ = explainDecode(model, forced, ExplainMethod::Occlusion, options).values;
    LineMeasures line;
    for (ExplainMethod method : methods) {
        const Mat R = method == ExplainMethod::Occlusion ? occ : explainDecode(model, forced, method, options).values;
        ExplainMeasures m = measureMethod(model, forced, gold, R, align, options.interventions);
        for (double rho : rowSpearman(R, occ, first)) {
            if (std::isnan(rho)) continue;  // n < 2 or a constant row
            m.occlusion_spearman.sum += rho;
            ++m.occlusion_spearman.count;
        }
        line.methods.push_back(m);
    }
    line.random.aopc = aopcOf(model, forced, randomOrders(T, n, seed, first), options.interventions);
    return line;
}

}  // namespace attnviz
