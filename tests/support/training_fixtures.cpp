#include "training_fixtures.h"

#include "model/params_ops.h"
#include "nn/seq2seq_grad.h"
#include "test_models.h"

#include <algorithm>
#include <fstream>
#include <random>

namespace attnviz::testing {

void writeReverseTask(const QString& path, int n, uint64_t seed, bool aligned) {
    std::mt19937_64 rng(seed);
    std::ofstream f(path.toStdString());
    for (int i = 0; i < n; ++i) {
        const int len = 3 + int(rng() % 4);
        std::vector<char> s;
        for (int k = 0; k < len; ++k) s.push_back(char('a' + rng() % 10));
        for (int k = 0; k < len; ++k) f << (k ? " " : "") << s[size_t(k)];
        f << '\t';
        for (int k = len - 1; k >= 0; --k) f << s[size_t(k)] << (k ? " " : "");
        if (aligned) {
            f << '\t';
            for (int j = 0; j < len; ++j) f << (j ? " " : "") << (len - 1 - j) << '-' << j;
        }
        f << '\n';
    }
}

std::vector<std::pair<std::string, std::string>> reversePairs(int n, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<std::pair<std::string, std::string>> out;
    for (int i = 0; i < n; ++i) {
        const int len = 3 + int(rng() % 4);
        std::string s, t;
        std::vector<char> c;
        for (int k = 0; k < len; ++k) c.push_back(char('a' + rng() % 10));
        for (int k = 0; k < len; ++k) s += (k ? " " : "") + std::string(1, c[size_t(k)]);
        for (int k = len - 1; k >= 0; --k) t += std::string(1, c[size_t(k)]) + (k ? " " : "");
        out.emplace_back(s, t);
    }
    return out;
}

Model reverseModel(uint64_t seed) {
    ModelConfig c;
    c.decoder = DecoderKind::Bahdanau;
    c.score = ScoreKind::Additive;
    c.emb_dim = 16;
    c.enc_hid_dim = 24;
    c.dec_hid_dim = 48;
    std::vector<std::string> syms;
    for (int k = 0; k < 10; ++k) syms.push_back(std::string(1, char('a' + k)));
    return makeRandomModel(c, vocabWith(syms), vocabWith(syms), seed);
}

Model reverseTransformerModel(uint64_t seed, int maxlen) {
    ModelConfig c;
    c.decoder = DecoderKind::Transformer;
    c.score = ScoreKind::ScaledDot;
    c.transformer = {16, 2, 1, 1, 32, false, Activation::Relu};
    std::vector<std::string> syms;
    for (int k = 0; k < 10; ++k) syms.push_back(std::string(1, char('a' + k)));
    return makeRandomTransformerModel(c, vocabWith(syms), vocabWith(syms), {seed, false}, maxlen);
}

double maxAbsDiff(const ModelParams& a, const ModelParams& b, double* scale) {
    double d = 0, s = 0;
    visitTensorPairs(const_cast<ModelParams&>(a), const_cast<ModelParams&>(b), [&](const auto& x, const auto& y) {
        if (x.size() == 0) return;
        d = std::max(d, double((x - y).cwiseAbs().maxCoeff()));
        s = std::max(s, double(y.cwiseAbs().maxCoeff()));
    });
    if (scale) *scale = s;
    return d;
}

std::vector<const TrainExample*> pointers(const std::vector<TrainExample>& examples) {
    std::vector<const TrainExample*> out;
    for (const TrainExample& e : examples) out.push_back(&e);
    return out;
}

}  // namespace attnviz::testing
