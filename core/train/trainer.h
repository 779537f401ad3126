// The training loop of `attnviz-cli train` (docs/cli.md) and of the GUI: seeded shuffling, batching, threads,
// Adam/SGD with clipping, embedding dropout, validation (best model kept), progress, cancel and NaN handling.
#pragma once
#include "model/model.h"
#include "train/optimizer.h"
#include "train/seq2seq_loss.h"
#include "train/train_gate.h"

#include <atomic>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace attnviz {

struct TrainOptions {
    OptimizerKind optimizer = OptimizerKind::Adam;
    double lr = 1e-3;
    int64_t warmup = 0;  // > 1: the learning rate grows linearly from lr/warmup at the first update to lr at update
                         // `warmup`, then stays or decays (scheduledLearningRate); 0 or 1 = off
    LrDecay lr_decay = LrDecay::None;
    // ε in [0, 1): the NLL's targets smoothed over every output (nn/label_smoothing.h). The reported
    // training loss stays the pure NLL, comparable with the validation loss, which is never smoothed.
    double label_smoothing = 0;
    int batch_size = 32;
    int epochs = 10;
    int64_t steps = 0;    // > 0: exactly this many updates (overrides epochs; epochs repeat as needed)
    double clip = 0;      // total-norm clipping; 0 = off
    float dropout = 0;    // RNN kinds: embedding dropout; Transformer: nn.Transformer(dropout=P)'s sites; 0 = off
    uint64_t seed = 0;    // shuffling and dropout
    bool shuffle = true;  // false: batches in file order
    int threads = 2;
    // Guided alignment λ (nn/seq2seq_grad.h): adds λ × the cross-entropy between each example's gold alignment
    // (TrainExample::align) and the attention rows to the training objective; global spans only. 0 = off.
    // Validation and best-model selection always use the pure NLL.
    double align_weight = 0;
    double progress_interval = 1.0;  // seconds between progress reports (the last step is always reported)
};

struct TrainProgress {
    int64_t step = 0, total_steps = 0;
    int epoch = 0;                 // 1-based epoch of the step
    double loss = 0;               // mean loss of this step's batch
    double avg_loss = 0;           // mean over the epoch so far (token-weighted)
    double tokens_per_second = 0;  // target tokens (positions 1..T−1) per second of training
    double elapsed_seconds = 0;
    double eta_seconds = 0;
    double valid_loss = std::numeric_limits<double>::quiet_NaN();  // the latest validation loss (NaN before one)
    bool after_validation = false;  // this report follows a validation at the end of an epoch
    // With align_weight > 0: the alignment cross-entropy per target token (not × λ), this step / the epoch so far.
    double align_loss = std::numeric_limits<double>::quiet_NaN();
    double avg_align_loss = std::numeric_limits<double>::quiet_NaN();
};

enum class TrainStatus { Completed, Cancelled, NonFinite };

struct TrainReport {
    TrainStatus status = TrainStatus::Completed;
    std::string message;    // for NonFinite: what happened, at which step
    int64_t steps = 0;      // updates applied
    double epochs = 0;      // passes over the data (fractional when stopped inside one)
    double train_loss = 0;  // token-weighted mean over the last epoch (or the part of it run)
    double train_align_loss = std::numeric_limits<double>::quiet_NaN();  // λ > 0: the same for the alignment CE
    double last_loss = 0;                                                // the last step's batch loss
    double valid_loss = std::numeric_limits<double>::quiet_NaN();        // of the returned parameters
    double best_valid_loss = std::numeric_limits<double>::quiet_NaN();
    int64_t best_step = 0;  // the step the returned parameters are from
    double seconds = 0;
    int64_t target_tokens = 0;  // processed in training
    double tokens_per_second = 0;
};

// Every callback runs on the training thread. A `const Model&` is the model being trained as it is at that moment
// (valid during the call only); reading it (a decode) changes nothing in the run. Unused callbacks cost nothing:
// the parameters are bit for bit those of a run without them.
struct TrainCallbacks {
    std::function<void(const TrainProgress&)> progress;
    const std::atomic<bool>* cancel = nullptr;  // set → the current step finishes, then the loop stops
    // After every `snapshot_every`-th update and after the last one (0: never): the parameters after that update.
    int64_t snapshot_every = 0;
    std::function<void(const Model&, const TrainProgress&)> snapshot;
    // Pause / resume / stop from another thread, asked before each update (a stop ends the run as a cancel does).
    TrainGate* gate = nullptr;
    // When a pause begins, before the training thread sleeps: the parameters after the last update.
    std::function<void(const Model&, const TrainProgress&)> paused;
    // After each epoch's validation (with validation data), once its progress report is out (after_validation and
    // valid_loss set): the parameters that were just validated. The window scores the validation corpus with them
    // (eval/corpus_scores.h's evaluateCorpus: BLEU, and AER where lines have gold links).
    std::function<void(const Model&, const TrainProgress&)> validated;
};

// The float32 copies of the model's parameters that training keeps, in bytes (each copy is 4 x parameters): the
// weights, the gradient, the previous weights (the rollback on a non-finite loss), Adam's two moments (none for
// sgd), the best weights (with validation data) and one gradient per extra thread (threads - 1, twice while a
// validation loss is computed). Activations, which grow with the batch and the sentence lengths, are not included.
struct TrainingMemory {
    uint64_t weights = 0, gradients = 0, optimizer = 0, snapshots = 0;
    uint64_t total() const { return weights + gradients + optimizer + snapshots; }
};
TrainingMemory trainingMemory(int64_t parameters, const TrainOptions& options, bool validation);
// The largest training state `attnviz-cli train` starts (docs/robustness.md): 4 GiB.
inline constexpr uint64_t kMaxTrainingBytes = uint64_t(4) << 30;

// Trains model.params in place on `train` (examples with <sos>/<eos> ids of the model's vocabularies).
// On return model.params holds: with a non-empty `valid`, the parameters of the best validation loss seen
// (validated after every epoch and at the end); otherwise the last parameters whose loss was finite.
// Never leaves non-finite parameters. Throws InputError for bad options or an empty training set.
TrainReport trainModel(Model& model, const std::vector<TrainExample>& train, const std::vector<TrainExample>& valid,
                       const TrainOptions& options, const TrainCallbacks& callbacks = {});

// The teacher-forced mean loss (Σ −log p / positions) of a set of examples, no dropout.
double evaluateLoss(const Model& model, const std::vector<TrainExample>& examples, int threads = 2,
                    int batch_size = 64);

// Vocabulary of docs/cli.md: the four specials, then every token seen at least min_freq times, by descending
// count, ties in code-point (UTF-8 byte) order. Specials spelled in the data are not added twice.
Vocabulary buildVocabulary(const std::vector<std::vector<std::string>>& sentences, int min_freq);

// Ids of a (source, target) pair with the model's tokenizers and vocabularies: source [<sos>] + tokens + [<eos>],
// target [<sos>] + tokens + [<eos>]. Throws InputError (from the tokenizer) on invalid UTF-8.
TrainExample makeExample(const Model& model, const std::string& source, const std::string& target, int line);

}  // namespace attnviz
