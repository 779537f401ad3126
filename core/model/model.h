// A loaded model: config, vocabularies, weights and the free-text metadata of docs/model-format.md.
#pragma once
#include "model/config.h"
#include "model/params.h"
#include "model/vocab.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace attnviz {

// Working memory the engine keeps per model (decode/ keeps the model's token tables here): made on first use and
// freed with the model. A copy or an assigned model starts without it, since its weights may differ.
class EngineCache {
public:
    EngineCache() = default;
    EngineCache(const EngineCache&) noexcept {}
    EngineCache& operator=(const EngineCache& other) noexcept {
        if (this != &other) {
            std::lock_guard lock(mutex_);
            value_.reset();
        }
        return *this;
    }
    // The object make() returns on the first call, shared by every later call. Thread-safe.
    std::shared_ptr<void> getOrMake(const std::function<std::shared_ptr<void>()>& make) const {
        std::lock_guard lock(mutex_);
        if (!value_) value_ = make();
        return value_;
    }

private:
    mutable std::mutex mutex_;
    mutable std::shared_ptr<void> value_;
};

struct Model {
    ModelConfig config;
    Vocabulary source_vocab;
    Vocabulary target_vocab;
    ModelParams params;
    std::string task;                                   // optional "task" metadata ("" when absent)
    std::string description;                            // optional
    std::string training;                               // optional JSON text
    std::map<std::string, std::string> extra_metadata;  // any other metadata keys, kept on save
    EngineCache engine_cache;                           // (decode/ only)

    int64_t parameterCount() const;
};

// A model with PyTorch's default initialisation (uniform(-1/sqrt(fan), 1/sqrt(fan)) for GRU/Linear, N(0,1) for
// embeddings), deterministic in `seed`.
Model makeRandomModel(const ModelConfig& config, Vocabulary source_vocab, Vocabulary target_vocab, uint64_t seed);

}  // namespace attnviz
