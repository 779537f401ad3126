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
#include <optional>
#include <string>
#include <vector>

namespace attnviz {

class SentencePieceModel;  // text/sentencepiece_model.h: the layer above holds the tokenizer's maths

// Where a model came from when it is not an attnviz file: a Hugging Face Marian folder (docs/marian.md).
struct MarianOrigin {
    std::string folder;      // as opened
    std::string repository;  // "Helsinki-NLP/opus-mt-en-zh" when the folder is in a Hugging Face cache, else ""
    std::string source_lang, target_lang;  // tokenizer_config.json's, "" when absent
    std::string weights_file;              // "model.safetensors" or "pytorch_model.bin"
    std::string weights_dtype;             // "F32", "F16", "BF16" (a .bin's storages: the first tensor's)
    int num_beams = 0;                     // generation_config.json's, 0 when absent
    int max_length = 0;                    // generation_config.json's, 0 when absent
    bool operator==(const MarianOrigin&) const = default;
};

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

// Either kind of model: config.decoder says which. An RNN model (bahdanau, luong) holds its weights in `params`
// and leaves `transformer` empty; a Transformer holds them in `transformer` and leaves `params` empty. The RNN code
// reads `params` only, so it is the same as before the Transformer existed; decode/ and io/ branch on the kind.
struct Model {
    ModelConfig config;
    Vocabulary source_vocab;
    Vocabulary target_vocab;
    ModelParams params;             // RNN kinds
    TransformerParams transformer;  // decoder Transformer (its stored positional table, if any, included)
    std::string task;               // optional "task" metadata ("" when absent)
    std::string description;        // optional
    std::string training;           // optional JSON text
    std::map<std::string, std::string> extra_metadata;  // any other metadata keys, kept on save
    // A Marian folder's: where it came from, and its SentencePiece models (tokenizer kind SentencePiece).
    std::optional<MarianOrigin> marian;
    std::shared_ptr<const SentencePieceModel> source_spm, target_spm;
    EngineCache engine_cache;  // (decode/ only)

    int64_t parameterCount() const;
    // Transformer: the config, vocabulary sizes and stored positional table's maxlen its tensors are sized by.
    TransformerShape transformerShape() const;
};

// Every tensor of the model's kind in file order, with the names and shapes of docs/model-format.md (and
// docs/transformer.md): the views the loader fills (after the weights are sized) and the writer reads.
std::vector<ParamRef> paramRefs(Model& model);

// A model with PyTorch's default initialisation (uniform(-1/sqrt(fan), 1/sqrt(fan)) for GRU/Linear, N(0,1) for
// embeddings), deterministic in `seed`. A Transformer config gets makeRandomTransformerModel's weights (no stored
// positional table).
Model makeRandomModel(const ModelConfig& config, Vocabulary source_vocab, Vocabulary target_vocab, uint64_t seed);
// A Transformer with initTransformerParams' weights; maxlen > 0 stores the sinusoidal table of that many rows.
Model makeRandomTransformerModel(const ModelConfig& config, Vocabulary source_vocab, Vocabulary target_vocab,
                                 const TransformerInit& init, int maxlen = 0);

}  // namespace attnviz
