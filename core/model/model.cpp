// makeRandomModel: PyTorch's default initialisation, so that a fresh model trains like the tutorial's.
#include "model/model.h"
#include "base/errors.h"

#include <cmath>
#include <map>
#include <random>

namespace attnviz {

int64_t Model::parameterCount() const {
    if (config.isTransformer()) return transformerParameterCount(transformerShape());
    return attnviz::parameterCount(config, source_vocab.size(), target_vocab.size(), 0);
}

TransformerShape Model::transformerShape() const {
    return {config.transformer, source_vocab.size(), target_vocab.size(), int(transformer.pos_embedding.rows()),
            int(transformer.decoder_pos_embedding.rows())};
}

std::vector<ParamRef> paramRefs(Model& m) {
    if (m.config.isTransformer()) return transformerParamRefs(m.transformer, m.transformerShape());
    return paramRefs(m.params, m.config, m.source_vocab.size(), m.target_vocab.size());
}

Model makeRandomTransformerModel(const ModelConfig& config, Vocabulary source_vocab, Vocabulary target_vocab,
                                 const TransformerInit& init, int maxlen) {
    validateConfig(config);
    if (!config.isTransformer()) throw ModelError("makeRandomTransformerModel: the config is not a transformer's");
    Model m;
    m.config = config;
    m.source_vocab = std::move(source_vocab);
    m.target_vocab = std::move(target_vocab);
    initTransformerParams(m.transformer, {config.transformer, m.source_vocab.size(), m.target_vocab.size(), maxlen},
                          init);
    return m;
}

Model makeRandomModel(const ModelConfig& config, Vocabulary source_vocab, Vocabulary target_vocab, uint64_t seed) {
    if (config.isTransformer())
        return makeRandomTransformerModel(config, std::move(source_vocab), std::move(target_vocab), {seed, false});
    validateConfig(config);
    Model m;
    m.config = config;
    m.source_vocab = std::move(source_vocab);
    m.target_vocab = std::move(target_vocab);
    resizeParams(m.params, m.config, m.source_vocab.size(), m.target_vocab.size());
    std::vector<ParamRef> refs = paramRefs(m.params, m.config, m.source_vocab.size(), m.target_vocab.size());

    // fan-in of each weight, for its bias: Linear's bias bound is 1/sqrt(fan_in of its weight).
    std::map<std::string, int64_t> fan_in;
    for (const ParamRef& r : refs)
        if (r.shape.size() == 2) fan_in[r.name] = r.shape[1];

    std::mt19937_64 rng(seed);
    std::normal_distribution<float> normal(0.0f, 1.0f);
    for (ParamRef& r : refs) {
        if (r.name.find("embedding") != std::string::npos) {
            for (int64_t i = 0; i < r.size; ++i) r.data[i] = normal(rng);
            continue;
        }
        double bound;
        if (r.name.find(".rnn.") != std::string::npos) {
            bound = 1.0 / std::sqrt(double(r.shape[0] / 3));  // GRU: 1/sqrt(hidden)
        } else if (r.name.size() > 5 && r.name.ends_with(".bias")) {
            const std::string w = r.name.substr(0, r.name.size() - 5) + ".weight";
            bound = 1.0 / std::sqrt(double(fan_in.at(w)));
        } else {
            bound = 1.0 / std::sqrt(double(r.shape.back()));  // Linear weight: kaiming_uniform(a=sqrt 5)
        }
        std::uniform_real_distribution<float> uni(float(-bound), float(bound));
        for (int64_t i = 0; i < r.size; ++i) r.data[i] = uni(rng);
    }
    return m;
}

}  // namespace attnviz
