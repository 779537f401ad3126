// What the "Train a model…" window asks for (TrainingSettings), the defaults of the sample corpora, where those
// corpora are, and the run made from the settings (TrainingJob: the starting model and the examples, read and built
// by core's train/corpus_training.h as `attnviz-cli train` does).
#pragma once
#include "decode/decoding.h"
#include "model/model.h"
#include "train/corpus_training.h"
#include "train/trainer.h"
#include "train/training_start.h"

#include <QString>
#include <QStringList>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace attnviz::ui {

struct TrainingSettings {
    QString corpus;     // training TSV: source<TAB>target[<TAB>alignment]
    QString valid;      // validation TSV ("" for none)
    QString init;       // continue from this model file ("" for a new model from `config`)
    QString task;       // the task name written to the model (siblings share it)
    int max_lines = 0;  // use the first this many training lines (0: all)
    int max_valid_lines = 500;
    ModelConfig config;  // a new model's kind and sizes (tokenizers included)
    // A new Marian-layout model instead of `config` (docs/marian.md "Training"): its sizes, the two SentencePiece
    // models' sizes (trained on the corpus) and the languages. It is written as a folder at `out`.
    std::optional<MarianArchitecture> marian;
    int min_freq = 1;
    TrainOptions options;
    int64_t snapshot_every = 20;  // updates between two snapshots of the probe
    QString probe;                // "" : the first training line's source
    // The probe's translation: the snapshots force the model onto it (forcedDecode), so that every snapshot has the
    // same rows; "" : greedy decoding (the rows are what the model writes at that update).
    QString probe_reference;
    QString out;  // where the model is written (at a pause and at the end)
    // A Marian folder at `out` that exists and is not empty may be replaced (the user agreed); not remembered.
    bool replace_out = false;
};

// One sample corpus: <dir>/<task>/train.tsv (and valid.tsv beside it) as sample_models/corpora/generate.py writes.
struct SampleCorpus {
    QString task, train, valid;
};
// The folders searched, those that exist, in this order: $ATTNVIZ_CORPORA, the app data folder's corpora/, the
// installed <exe dir>/../share/attnviz/corpora, the build tree's corpora/ (sample_models/CMakeLists.txt generates
// them at build time) and the source tree's build/corpora (where sample_models/build.sh writes them). A task found
// in two folders is listed once, from the first.
QStringList sampleCorpusDirs();
std::vector<SampleCorpus> findSampleCorpora();

// The settings sample_models/build.sh trains the task's models with (sizes and tokenizers of its configs/, its
// epochs, learning rate and min-freq), with 4,000 lines so that a run takes minutes; for another task, a small
// whitespace-tokenized model.
TrainingSettings defaultTrainingSettings(const QString& task);
// The sizes of the task's sample Transformer (sample_models/configs/<task>-transformer.json); for another task,
// en_fr's small one. The window proposes them when the model kind becomes "transformer".
TransformerConfig defaultTransformerConfig(const QString& task);
// The learning rate and warm-up the window proposes for a model family: the RNN kinds' 0.002 without warm-up (the
// sample models' setting); for a Transformer build.sh's 0.001 after a linear warm-up, shortened to 100 updates for
// the window's 4,000 lines (about 1.6 epochs in batches of 64).
struct ScheduleDefaults {
    double lr = 0.002;
    int64_t warmup = 0;
};
ScheduleDefaults defaultSchedule(bool transformer);
// defaultTrainingSettings(task) with the task's sample Transformer (tokenizers kept) and its schedule.
TrainingSettings defaultTransformerSettings(const QString& task);
// The window's Marian: sample_models/configs/tatoeba-marian.json's sizes (d_model 256, 4 heads, 3 + 3 layers, 768,
// swish) with SentencePiece sizes that the task's first 4,000 lines allow (tatoeba: 1,000 source and 2,000 target
// pieces, its Chinese needing 1,396 for its characters; another corpus: 500 a side) and the task's languages.
MarianArchitecture defaultMarianArchitecture(const QString& task);
// `base` with the sizes a Transformer's rows hold (d_model, nhead, layers, dim_feedforward, activation): what the
// form's rows and a saved config keep of a Marian; its Marian switches, max_positions, pieces and languages stay.
MarianArchitecture withTransformerSizes(MarianArchitecture base, const TransformerConfig& sizes);
// defaultTrainingSettings(task) with that Marian, the Transformer's schedule and its folder.
TrainingSettings defaultMarianSettings(const QString& task);
// Where the window writes a Marian folder by default: the app data folder's trained/<task>-marian-trained.
QString defaultMarianFolder(const QString& task);
// The folder a Marian run of `s` writes: its model folder, or the default one, without a trailing separator.
QString marianFolder(const TrainingSettings& s);
// Where the window writes a model by default: the app data folder's trained/<task>-<decoder>-<score>.safetensors.
QString defaultModelPath(const QString& task, const ModelConfig& config);
// A sibling's file name for the model: <task>-<decoder>-<score>[-<span>][-feed][-guided]-trained.safetensors, and
// <task>-transformer-trained.safetensors for a Transformer (one scoring only, as the sample models name it).
QString siblingFileName(const QString& task, const ModelConfig& config, bool guided);

struct TrainingJob {
    std::shared_ptr<Model> model;  // trained in place by the worker
    std::vector<TrainExample> train, valid;
    std::vector<CorpusExample> valid_corpus;  // the validation lines as read (text, gold links): for the metrics
    TrainOptions options;
    int64_t snapshot_every = 20;
    std::string probe, probe_reference;
    std::string out;           // a file, or for a Marian model a folder
    bool replace_out = false;  // a Marian folder at `out` that is not empty may be replaced
    TrainingRecord record;     // the "training" metadata of the written model
    UnknownShare unknown;      // of the corpus under a continued model's vocabularies: more than half is worth a word
};

// The probe decoded by `model`: forced onto the job's reference when it has one, else greedy.
DecodeResult decodeProbe(const Model& model, const TrainingJob& job);

// Reads the corpora, builds the vocabularies and the model (or loads `init`; for a Marian, trains its pieces), checks
// what `attnviz-cli train` checks. Throws InputError / ModelError with a message naming the file or the setting (a
// corpus too small for the pieces asked says the size it allows, core's words; a Marian folder's place that is a
// file). Whether an occupied folder may be replaced is the window's question (replace_out).
TrainingJob prepareTrainingJob(const TrainingSettings& settings);

}  // namespace attnviz::ui
