// A loaded model: config, vocabularies, weights and the free-text metadata of spec/model-format.md.
#pragma once
#include "model/config.h"
#include "model/params.h"
#include "model/vocab.h"

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace attnviz {

struct Model {
    ModelConfig config;
    Vocabulary source_vocab;
    Vocabulary target_vocab;
    ModelParams params;
    std::string task;                                   // optional "task" metadata ("" when absent)
    std::string description;                            // optional
    std::string training;                               // optional JSON text
    std::map<std::string, std::string> extra_metadata;  // any other metadata keys, kept on save

    int64_t parameterCount() const;
};

// A model with PyTorch's default initialisation (uniform(-1/sqrt(fan), 1/sqrt(fan)) for GRU/Linear, N(0,1) for
// embeddings), deterministic in `seed`.
Model makeRandomModel(const ModelConfig& config, Vocabulary source_vocab, Vocabulary target_vocab, uint64_t seed);

}  // namespace attnviz
