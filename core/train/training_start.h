// Where a training run starts, as `attnviz-cli train` and the window's training both start one: the corpus read with
// the model's tokenizers, the model (a new one from a config and the corpus's vocabularies, or a loaded one to go
// on from), and what is checked before anything of the model's size is allocated. The front ends only put the
// outcome into words (docs/cli.md "train", docs/gui.md "Training").
#pragma once
#include "base/errors.h"
#include "io/corpus.h"
#include "model/model.h"
#include "train/marian_start.h"
#include "train/trainer.h"

#include <optional>

#include <cstdint>
#include <string>

namespace attnviz {

// The size of a training state: the model's parameters and the float32 copies of them training keeps.
struct TrainingSize {
    int64_t parameters = 0;
    int source_vocab = 0, target_vocab = 0;
    TrainingMemory memory;
    bool fits() const { return memory.total() <= kMaxTrainingBytes; }
};
TrainingSize trainingSize(const ModelConfig& config, int source_vocab, int target_vocab, const TrainOptions& options,
                          bool validation);

// A training state past kMaxTrainingBytes, found before the model is allocated. what() says so in a line; the
// front ends word the remedy with their own flags or fields from `size` and `config`.
struct TrainingTooLarge : InputError {
    TrainingTooLarge(const TrainingSize& size, const ModelConfig& config);
    // What training needs against the limit, and the vocabularies and sizes that make its parameters, for a front
    // end to add its own advice to. `vocab_origin` (none when empty): where the vocabularies came from, in that front
    // end's words.
    std::string sizesText(const std::string& vocab_origin = {}) const;
    TrainingSize size;
    ModelConfig config;
};

// The share of a corpus's tokens (source and target apart; filled by a tokenizer) that the model's vocabularies
// do not know. More than half on a side means the data is probably not the model's task.
struct UnknownShare {
    double source = 0, target = 0;
    bool mostlyUnknown() const { return source > 0.5 || target > 0.5; }
};
UnknownShare unknownTokenShare(const Model& model, const Corpus& corpus);

struct TrainingStartRequest {
    std::string data;         // the training corpus: a path, or "-" for standard input
    std::string init;         // a model file or Marian folder to go on training; "" for a new model of `config`
    ModelConfig config;       // a new model's (validated here)
    int min_freq = 1;         // a new model's vocabularies keep the tokens seen at least this often
    size_t max_lines = 0;     // only the corpus's first lines (0: all of them)
    TrainOptions options;     // sizes the training state (optimizer, threads); seeds a new model's weights
    bool validation = false;  // a validation set will be used (one more copy: the best weights)
    // A new Marian-layout model (train/marian_start.h) instead of `config`: its pieces trained on the corpus.
    std::optional<MarianArchitecture> marian;
};

struct TrainingStart {
    Model model;
    Corpus corpus;  // read with the model's tokenizers, cut to max_lines
    TrainingSize size;
    UnknownShare unknown;  // of the corpus under an --init model's vocabularies (0 for a new model)
};

// Loads `init` (or validates `config`), reads the corpus, builds a new model's vocabularies, and throws
// TrainingTooLarge before a model past the limit is allocated. Throws InputError / ModelError naming the file or the
// setting otherwise.
TrainingStart startTraining(const TrainingStartRequest& request);

}  // namespace attnviz
