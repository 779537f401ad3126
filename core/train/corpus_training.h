// From a corpus file to a training run, as `attnviz-cli train` and the window's training both do it: the examples
// (ids with the model's tokenizers and vocabularies, gold links for guided alignment), the vocabularies of a new
// model, and the "training" metadata written into the trained model (docs/model-format.md).
#pragma once
#include "io/corpus.h"
#include "model/model.h"
#include "train/trainer.h"

#include <string>
#include <string_view>
#include <vector>

namespace attnviz {

// Ids with the model's tokenizers and vocabularies (a special typed in the data is <unk>, as at inference):
// [<sos>] + tokens + [<eos>] on both sides. With `alignments`, a line's gold links (third column; sure and possible
// links alike) become the example's guided-alignment target; lines without one get no guidance. Throws InputError
// "NAME:LINE: what".
std::vector<TrainExample> corpusExamples(const Model& model, const Corpus& corpus, bool alignments = false);

// The vocabularies of a new model (buildVocabulary) from a corpus read with its tokenizer (CorpusOptions::tokenizer).
// Throws InputError "NAME: the minimum frequency N leaves no source token: all K distinct source tokens are seen
// fewer than N times, ..." when a side would hold only the four specials.
struct CorpusVocabularies {
    Vocabulary source, target;
};
CorpusVocabularies corpusVocabularies(const Corpus& corpus, int min_freq);

// What the "training" metadata records of a run, besides its report.
struct TrainingRecord {
    std::string data;   // the training file's name
    size_t lines = 0;   // training examples
    std::string init;   // the starting model's file name ("" for a new model)
    std::string valid;  // the validation file's name ("" for none)
    size_t valid_lines = 0;
    std::string optimizer = "adam";
    double lr = 1e-3, clip = 0, dropout = 0, align_weight = 0;
    int64_t warmup = 0;  // updates of linear learning-rate warmup (0 = none)
    LrDecay lr_decay = LrDecay::None;
    double label_smoothing = 0;
    int batch_size = 32;
    uint64_t seed = 0;
    bool shuffle = true;
};
// A record of the settings of `options` (optimizer to shuffle); the front end adds the files and their line counts.
TrainingRecord trainingRecord(const TrainOptions& options);
// The metadata's JSON text (keys in cli.md's order).
std::string trainingMetadata(const TrainingRecord& record, const TrainReport& report);
// "completed", "interrupted" or "non_finite", as the metadata and `train --json` name a run's end.
std::string_view trainStatusName(TrainStatus status);

}  // namespace attnviz
