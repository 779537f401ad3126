// A new Marian-layout model made from a corpus (docs/marian.md "Training"): two SentencePiece unigram models trained
// by the library's own trainer (seeded: the same corpus gives the same pieces), the shared vocabulary as converted
// opus-mt models have it (</s> 0, <unk> 1, the pieces, <pad> last), and random weights with the <pad> row of the
// shared table and its logits bias at exactly 0.
#pragma once
#include "io/corpus.h"
#include "model/model.h"
#include "text/sentencepiece_training.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace attnviz {

struct MarianArchitecture {
    TransformerConfig transformer;  // sizes, activation, max_positions; the Marian switches are set by the maker
    int source_pieces = 8000;       // each SentencePiece model's size, its 3 specials included
    int target_pieces = 8000;
    double source_coverage = 1.0;  // each side's SentencePiece character coverage (kMinCharacterCoverage to 1)
    double target_coverage = 1.0;
    std::string source_normalization = kSentencePieceNormalizations[0];  // each side's (kSentencePieceNormalizations)
    std::string target_normalization = kSentencePieceNormalizations[0];
    std::string source_lang, target_lang;
};

// The architecture of a Marian config.json (model_type "marian"; vocab_size is not needed: the pieces decide it).
// Throws ModelError naming the key.
MarianArchitecture marianArchitectureFromJson(const nlohmann::json& config);
// Whether a config JSON is a Marian one (its "model_type" is "marian").
bool isMarianConfigJson(const nlohmann::json& config);

// The config of the model makeMarianModel makes from `a` (a configured Transformer: post-LN, no final norms, halves
// positions, one shared and tied table, SentencePiece on both sides), without the forbidden <pad> output, whose id
// the pieces decide: what a front end checks with validateConfig before the pieces are trained.
ModelConfig marianModelConfig(const MarianArchitecture& a);

// The model before training: its pieces from the corpus's raw text (Corpus read without a tokenizer). Throws
// InputError for a corpus too small for the asked vocabulary sizes ("… at most N pieces"), naming the side.
Model makeMarianModel(const Corpus& corpus, const MarianArchitecture& a, uint64_t seed);

// makeMarianModel in two steps, so that the model's size can be checked before its weights are allocated: the pieces,
// vocabularies and config (no parameters), then the seeded random weights (the <pad> row and logits bias 0).
Model makeMarianModelWithoutWeights(const Corpus& corpus, const MarianArchitecture& a, uint64_t seed);
void initMarianWeights(Model& model, uint64_t seed);

// The parameters training never changes in a Marian-layout model: the <pad> row of the target table (the decoder's
// first input: the zero vector in the models attnviz makes, whatever a Hugging Face folder holds) and its logits
// bias, whether or not the sides share a table. Their gradient is set to 0 before each update.
void dropFixedGradients(const Model& model, TransformerParams& gradient);

}  // namespace attnviz
