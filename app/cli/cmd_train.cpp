// attnviz-cli train: trains a model on a TSV corpus (docs/cli.md). The loop is core's train/trainer.h; this file reads the
// data, builds the vocabularies / initial model, reports progress and writes the model atomically, also on Ctrl-C
// and when the loss becomes NaN (the last good parameters).
#include "args.h"
#include "command_run.h"
#include "commands.h"
#include "model_flags.h"

#include "base/byte_size.h"
#include "base/errors.h"
#include "base/utf8.h"
#include "decode/parallel.h"
#include "io/atomic_file.h"
#include "io/decode_json.h"
#include "io/input_file.h"
#include "io/json_text.h"
#include "io/marian_writer.h"
#include "io/model_file.h"
#include "text/sentencepiece_training.h"
#include "train/corpus_training.h"
#include "train/trainer.h"
#include "train/training_start.h"

#include <nlohmann/json.hpp>

#include <unistd.h>
#include <atomic>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <functional>
#include <limits>
#include <optional>

namespace attnviz::cli {
namespace {

std::atomic<bool> g_interrupted{false};

extern "C" void onSigint(int) {
    g_interrupted.store(true);
    std::signal(SIGINT, SIG_DFL);  // a second Ctrl-C ends the process at once
}

// The name recorded in the model's training metadata: the file name, or "<stdin>".
std::string fileName(const std::string& path) {
    return path == kStandardInputPath ? inputName(path) : std::filesystem::path(path).filename().string();
}

std::string clockText(double seconds) {
    if (!std::isfinite(seconds) || seconds < 0) return "?";
    const long s = long(seconds + 0.5);
    char buf[32];
    if (s >= 3600)
        std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, (s / 60) % 60, s % 60);
    else
        std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
    return buf;
}

// The command line of `attnviz-cli train`.
struct TrainArgs {
    std::string data, init, config_path, out, optimizer = "adam", valid, task, description, dtype = "f32";
    std::string lr_decay = "none";
    std::string spm_vocab, coverage, normalization, source_lang, target_lang;  // a Marian config's (docs/marian.md)
    bool force = false;
    bool description_given = false;
    double lr = 1e-3, clip = 0, dropout = 0, align_weight = 0, label_smoothing = 0;
    int batch = 32, epochs = 10, threads = 0, min_freq = 1;
    int64_t steps = 0, warmup = 0;
    uint64_t seed = 0;
    bool no_shuffle = false, json = false, quiet = false, checkpoint = false;
};

// False when the help was printed. Throws UsageError on bad flags.
bool parseTrainArgs(const std::vector<std::string>& args, TrainArgs& a) {
    ArgParser p("train", "--data FILE (--init MODEL | --config FILE) --out MODEL [options]",
                "Train a seq2seq model with teacher forcing on FILE (UTF-8 TSV: source<TAB>target[<TAB>alignment]).\n"
                "With --config, vocabularies are built from --data. Progress goes to stderr; Ctrl-C stops after the\n"
                "current step and writes the last good model to --out.");
    p.option("--data", &a.data, "FILE", "training data, TSV (- for standard input)").required();
    p.option("--init", &a.init, "MODEL", "start from this model (its config and vocabularies)");
    p.option("--config", &a.config_path, "FILE", "a JSON model config to start from scratch");
    p.option("--out", &a.out, "MODEL", "where the trained model is written (atomically)").required();
    p.choice("--optimizer", &a.optimizer, {"adam", "sgd"}, "adam (torch.optim.Adam) or sgd (plain); default adam");
    p.option("--lr", &a.lr, "LR", "learning rate (default 0.001)", 0.0, 1e300);
    p.option("--warmup", &a.warmup, "N",
             "learning-rate warmup: lr/N at the first update growing linearly to lr at update N (default 0 = off)", 0,
             int64_t(1) << 40);
    p.choice("--lr-decay", &a.lr_decay,
             {std::string(lrDecayName(LrDecay::None)), std::string(lrDecayName(LrDecay::InverseSqrt))},
             "after the warmup the learning rate stays (none, the default) or decays as lr x sqrt(W/update),\n"
             "W the warmup (at least 1) (inverse_sqrt)");
    p.option("--batch-size", &a.batch, "B", "examples per update (default 32)", 1, 1000000);
    p.option("--epochs", &a.epochs, "N", "passes over the data (default 10)", 1, 1000000);
    p.option("--steps", &a.steps, "N", "a fixed number of updates (overrides --epochs)", 1, int64_t(1) << 40);
    p.option("--clip", &a.clip, "C", "total gradient-norm clipping (default 0 = off)", 0.0, 1e30);
    p.option("--dropout", &a.dropout, "P",
             "dropout: on both embeddings (RNN kinds), nn.Transformer(dropout=P)'s sites\n"
             "and after the embeddings (transformer); default 0 = off",
             0.0, 0.99);
    p.option("--align-weight", &a.align_weight, "W",
             "guided alignment: W x the cross-entropy between the attention and the data's gold alignment\n"
             "column (i-j links; lines without one get no guidance); global spans only; a Transformer's last\n"
             "layer cross-attention averaged over heads (default 0 = off)",
             0.0, 1e6);
    p.option("--label-smoothing", &a.label_smoothing, "E",
             "label smoothing: train towards (1-E) x the next token + E spread evenly over the outputs the\n"
             "model can produce; the printed losses stay the plain -log p (default 0 = off)",
             0.0, 0.99);
    p.option("--seed", &a.seed, "S", "seed of the initial weights, shuffling and dropout (default 0)");
    p.flag("--no-shuffle", &a.no_shuffle, "batches in file order");
    p.option("--valid", &a.valid, "FILE", "validation data (TSV): keep the model of the best validation loss");
    p.option("--threads", &a.threads, "N", "threads (default: every core)", 1, 256);
    p.option("--min-freq", &a.min_freq, "N", "with --config: keep tokens seen at least N times (default 1)", 1,
             1000000000);
    p.option("--task", &a.task, "NAME", "the task name written to the model (siblings share it)");
    p.option("--description", &a.description, "TEXT", "a description written to the model");
    p.choice("--dtype", &a.dtype, {"f32", "f16", "bf16"}, "weight type of --out (default f32; see convert --help)");
    p.option("--spm-vocab", &a.spm_vocab, "N[,M]",
             "with a Marian --config (model_type \"marian\"): SentencePiece pieces of the source and the target "
             "model (one number for both; their 3 specials included)");
    p.option("--character-coverage", &a.coverage, "C[,D]",
             "with a Marian --config: the share of the source's and the target's characters (by count) that get\n"
             "pieces of their own, from 0.98 to 1 (default 1: every character); the rarest of the rest become\n"
             "<unk>. SentencePiece advises 0.9995 for Chinese or Japanese");
    p.option("--spm-normalization", &a.normalization, "R[,S]",
             "with a Marian --config: how the SentencePiece models normalize the source's and the target's text:\n"
             "nmt_nfkc (default, as opus-mt models), nfkc, nmt_nfkc_cf, nfkc_cf (these two also fold case) or\n"
             "identity (nothing but spaces; keeps full-width punctuation such as \"，\", which NFKC makes \",\")");
    p.option("--source-lang", &a.source_lang, "CODE", "with a Marian --config: the source language, recorded");
    p.option("--target-lang", &a.target_lang, "CODE", "with a Marian --config: the target language, recorded");
    p.flag("--force", &a.force, "replace an --out folder that exists and is not empty (Marian models)");
    p.flag("--checkpoint", &a.checkpoint,
           "after each validation better than every earlier one, write that model to --out (atomically), so\n"
           "that a run stopped in any way leaves its best model so far (needs --valid)");
    p.flag("--json", &a.json, "print a final JSON line of metrics on stdout");
    p.flag("--quiet", &a.quiet, "no progress on stderr");
    if (!p.parse(args)) return false;
    a.description_given = p.seen("--description");
    if (a.init.empty() == a.config_path.empty()) throw UsageError("give exactly one of --init MODEL or --config FILE");
    if (a.checkpoint && a.valid.empty())
        throw UsageError("--checkpoint needs --valid: the checkpoint is the model of the best validation loss");
    const int from_stdin =
        (a.data == kStandardInputPath) + (a.valid == kStandardInputPath) + (a.config_path == kStandardInputPath);
    if (from_stdin > 1)
        throw UsageError("only one of --data, --valid and --config can be - (standard input is read once)");
    if (!(a.lr > 0)) throw UsageError("--lr: must be greater than 0");
    return true;
}

TrainOptions trainOptions(const TrainArgs& a, bool tty) {
    TrainOptions o;
    o.optimizer = parseOptimizer(a.optimizer);
    o.lr = a.lr;
    o.warmup = a.warmup;
    o.lr_decay = parseLrDecay(a.lr_decay);
    o.label_smoothing = a.label_smoothing;
    o.batch_size = a.batch;
    o.epochs = a.epochs;
    o.steps = a.steps;
    o.clip = a.clip;
    o.dropout = float(a.dropout);
    o.seed = a.seed;
    o.shuffle = !a.no_shuffle;
    o.threads = threadCount(a.threads);
    o.align_weight = a.align_weight;
    o.progress_interval = tty ? 0.5 : 5.0;
    return o;
}

// Warns "DATA: 97% of the source tokens ... are unknown to MODEL" (core's unknownTokenShare says when).
void warnMostlyUnknown(std::string_view command, const UnknownShare& share, const std::string& data,
                       const std::string& model_path) {
    auto percent = [](double x) { return std::to_string(int(x * 100 + 0.5)) + "%"; };
    warn(command, data + ": " + percent(share.source) + " of the source tokens and " + percent(share.target) +
                      " of the target tokens are unknown to " + model_path +
                      " (they all become <unk>): is this data for the model's task?");
}

// A value of each side, "X" for both or "X,Y" (source, target), each part read by `parse`.
template <typename Parse>
auto bothSides(const std::string& text, Parse parse) {
    const size_t comma = text.find(',');
    if (comma == std::string::npos) return std::pair{parse(text), parse(text)};
    return std::pair{parse(text.substr(0, comma)), parse(text.substr(comma + 1))};
}

// The pieces of --spm-vocab: "N" for both sides or "N,M"; a UsageError for anything else, 0 or too large.
std::pair<int, int> spmSizes(const std::string& text) {
    return bothSides(text, [](const std::string& part) {
        return parseIntegerValue("--spm-vocab", part, kMinSentencePieceVocab, kMaxSentencePieceVocab);
    });
}

// The coverages of --character-coverage: "C" for both sides or "C,D"; 1 for both when not given.
std::pair<double, double> characterCoverages(const std::string& text) {
    if (text.empty()) return {1.0, 1.0};
    return bothSides(text, [](const std::string& part) {
        return parseNumberValue("--character-coverage", part, kMinCharacterCoverage, 1.0);
    });
}

// The rules of --spm-normalization: "R" for both sides or "R,S"; nmt_nfkc for both when not given.
std::pair<std::string, std::string> normalizations(const std::string& text) {
    if (text.empty()) return {kSentencePieceNormalizations[0], kSentencePieceNormalizations[0]};
    return bothSides(text, [](const std::string& rule) {
        if (!isSentencePieceNormalization(rule))
            throw UsageError("--spm-normalization: \"" + printable(rule) + "\" is not one of " +
                             sentencePieceNormalizationList());
        return rule;
    });
}

// A config file's JSON, with the file named in the message.
nlohmann::json readConfigJson(const std::string& path) {
    try {
        return nlohmann::json::parse(readTextFile(path));
    } catch (const nlohmann::json::exception& e) {
        throw InputError(inputName(path) + ": not a JSON config (" + e.what() + ")");
    }
}

// A Marian config's architecture with --spm-vocab's sizes and the languages.
MarianArchitecture marianArchitecture(const TrainArgs& a, const nlohmann::json& config) {
    if (a.spm_vocab.empty())
        throw UsageError("--spm-vocab: a Marian --config needs the SentencePiece sizes (for example --spm-vocab 8000)");
    MarianArchitecture arch;
    try {
        arch = marianArchitectureFromJson(config);
    } catch (const ModelError& e) {
        throw InputError(inputName(a.config_path) + ": " + e.what());
    }
    std::tie(arch.source_pieces, arch.target_pieces) = spmSizes(a.spm_vocab);
    std::tie(arch.source_coverage, arch.target_coverage) = characterCoverages(a.coverage);
    std::tie(arch.source_normalization, arch.target_normalization) = normalizations(a.normalization);
    arch.source_lang = a.source_lang;
    arch.target_lang = a.target_lang;
    return arch;
}

// A config file's model settings, with the file named in the message.
ModelConfig configOf(const nlohmann::json& config, const std::string& path) {
    try {
        return configFromJson(config);
    } catch (const ModelError& e) {
        throw InputError(inputName(path) + ": " + e.what());
    }
}

// core's refusal of a training state past kMaxTrainingBytes, with the sizes that make it and the flags that help.
std::string tooLargeText(const TrainArgs& a, const TrainingTooLarge& e) {
    const TrainOptions o = trainOptions(a, false);
    const TrainingMemory& m = e.size.memory;
    const bool pieces = !a.spm_vocab.empty();  // a Marian config: one shared vocabulary of SentencePiece pieces
    const std::string vocab_origin = pieces           ? "one shared vocabulary, at least the larger --spm-vocab size"
                                     : a.init.empty() ? "after --min-freq " + std::to_string(a.min_freq)
                                                      : "of --init " + a.init;
    return e.sizesText(vocab_origin) + ": " + gibText(double(m.weights)) + " of weights, " +
           gibText(double(m.gradients)) + " of gradients (--threads " + std::to_string(o.threads) + "), " +
           gibText(double(m.optimizer)) + " of " + a.optimizer + " state, " + gibText(double(m.snapshots)) +
           " of snapshots; use " + (pieces ? "a smaller --spm-vocab" : "a larger --min-freq") +
           ", smaller dimensions, --optimizer sgd or fewer --threads";
}

// The model training starts from (--init, or --config with vocabularies built from the data) and the data read
// with its tokenizer, as core starts every training.
Model startingModel(const TrainArgs& a, Corpus& corpus) {
    TrainingStartRequest request;
    request.data = a.data;
    request.init = a.init;
    if (a.init.empty()) {
        const nlohmann::json config = readConfigJson(a.config_path);
        if (isMarianConfigJson(config))
            request.marian = marianArchitecture(a, config);
        else
            request.config = configOf(config, a.config_path);
    }
    if (!request.marian && !a.spm_vocab.empty()) throw UsageError("--spm-vocab needs a Marian --config");
    if (!request.marian && !a.coverage.empty()) throw UsageError("--character-coverage needs a Marian --config");
    if (!request.marian && !a.normalization.empty()) throw UsageError("--spm-normalization needs a Marian --config");
    request.min_freq = a.min_freq;
    request.options = trainOptions(a, false);
    request.validation = !a.valid.empty();
    try {
        TrainingStart start = startTraining(request);
        if (start.unknown.mostlyUnknown()) warnMostlyUnknown("train", start.unknown, start.corpus.name, a.init);
        corpus = std::move(start.corpus);
        return std::move(start.model);
    } catch (const TrainingTooLarge& e) {
        throw InputError(tooLargeText(a, e));
    }
}

// Progress on stderr: a line rewritten in place on a terminal (one line per report otherwise), and one line kept
// per epoch.
std::function<void(const TrainProgress&)> progressPrinter(bool align, bool tty) {
    return [align, tty](const TrainProgress& pr) {
        if (pr.after_validation) {
            std::fprintf(stderr, "%sepoch %d done at step %lld: train loss %.4f, valid loss %.4f%s\n", tty ? "\r" : "",
                         pr.epoch, static_cast<long long>(pr.step), pr.avg_loss, pr.valid_loss,
                         tty ? "                    " : "");
        } else {
            char align_text[48] = "";
            if (align)  // the alignment cross-entropy per token, separate from the NLL
                std::snprintf(align_text, sizeof align_text, "  align %.4f", pr.align_loss);
            std::fprintf(stderr, "%sstep %lld/%lld  epoch %d  loss %.4f (epoch avg %.4f)%s  %.0f tok/s  ETA %s%s",
                         tty ? "\r" : "", static_cast<long long>(pr.step), static_cast<long long>(pr.total_steps),
                         pr.epoch, pr.loss, pr.avg_loss, align_text, pr.tokens_per_second,
                         clockText(pr.eta_seconds).c_str(), tty ? "   " : "\n");
        }
        std::fflush(stderr);
    };
}

// trainModel with Ctrl-C turned into a cancel (the current step finishes) for its duration.
TrainReport trainInterruptibly(Model& model, const std::vector<TrainExample>& train,
                               const std::vector<TrainExample>& valid, const TrainOptions& o, TrainCallbacks cb) {
    g_interrupted.store(false);
    cb.cancel = &g_interrupted;
    auto previous = std::signal(SIGINT, onSigint);
    TrainReport rep;
    try {
        rep = trainModel(model, train, valid, o, cb);
    } catch (...) {
        std::signal(SIGINT, previous);
        throw;
    }
    std::signal(SIGINT, previous);
    return rep;
}

// The "training" metadata written into the model.
std::string trainingMetadata(const TrainArgs& a, size_t lines, size_t valid_lines, const TrainReport& rep) {
    TrainingRecord r = trainingRecord(trainOptions(a, false));
    r.data = fileName(a.data);
    r.lines = lines;
    if (!a.init.empty()) r.init = fileName(a.init);
    if (!a.valid.empty()) {
        r.valid = fileName(a.valid);
        r.valid_lines = valid_lines;
    }
    return attnviz::trainingMetadata(r, rep);
}

// --json: the final metrics line on stdout.
void printMetrics(const TrainArgs& a, const Model& model, size_t examples, const TrainReport& rep) {
    nlohmann::ordered_json j;
    j["status"] = trainStatusName(rep.status);
    j["out"] = a.out;
    j["steps"] = rep.steps;
    j["epochs"] = rep.epochs;
    j["train_loss"] = jsonNumber(rep.train_loss);
    if (a.align_weight > 0) j["train_align_loss"] = jsonNumber(rep.train_align_loss);
    j["last_loss"] = jsonNumber(rep.last_loss);
    j["valid_loss"] = jsonNumber(rep.valid_loss);
    j["best_step"] = rep.best_step;
    j["seconds"] = rep.seconds;
    j["target_tokens"] = rep.target_tokens;
    j["tokens_per_second"] = rep.tokens_per_second;
    j["examples"] = examples;
    j["source_vocab_size"] = model.source_vocab.size();
    j["target_vocab_size"] = model.target_vocab.size();
    j["parameter_count"] = model.parameterCount();
    std::printf("%s\n", jsonText(j).c_str());
    flushStdout();  // a failed stdout is an error (exit 1), with its reason
}

// Writes the trained model to --out (a Marian model as a folder). After its first write the folder is the run's own,
// so later writes (checkpoints, then the end) replace it without --force.
class OutWriter {
public:
    explicit OutWriter(const TrainArgs& a) : a_(a), replace_(a.force) {}
    void write(const Model& model) {
        if (model.marian)
            saveMarianFolder(model, a_.out, weightTypeFromFlag(a_.dtype), replace_);
        else
            saveModel(model, a_.out, weightTypeFromFlag(a_.dtype));
        replace_ = true;
    }

private:
    const TrainArgs& a_;
    bool replace_;
};

// --checkpoint: after each validation better than every earlier one, the model just validated goes to --out, its
// metadata saying "interrupted" (what it is should the run go no further). A write that fails is reported and the
// training goes on: the end writes again.
std::function<void(const Model&, const TrainProgress&)> checkpointer(const TrainArgs& a, OutWriter& out, size_t lines,
                                                                     size_t valid_lines) {
    return [&a, &out, lines, valid_lines, best = std::numeric_limits<double>::infinity()](
               const Model& validated, const TrainProgress& pr) mutable {
        if (!(pr.valid_loss < best)) return;
        best = pr.valid_loss;
        TrainReport rep;
        rep.status = TrainStatus::Cancelled;
        rep.steps = rep.best_step = pr.step;
        rep.epochs = pr.epoch;
        rep.train_loss = pr.avg_loss;
        rep.valid_loss = rep.best_valid_loss = pr.valid_loss;
        Model copy = validated;
        copy.training = trainingMetadata(a, lines, valid_lines, rep);
        try {
            out.write(copy);
            if (!a.quiet)
                std::fprintf(stderr, "train: wrote the best model so far (epoch %d, valid loss %.4f) to %s\n", pr.epoch,
                             pr.valid_loss, printable(a.out).c_str());
        } catch (const std::exception& e) {
            std::fprintf(stderr, "train: warning: the checkpoint was not written: %s\n", printable(e.what()).c_str());
        }
    };
}

// A run that completed no step (Ctrl-C in its first moment, a non-finite first loss) writes nothing: its model is
// the starting one, an untrained copy of --init or random weights, and would replace an existing --out. Returns
// the exit code of such a run, or nothing when steps were made.
std::optional<int> endWithoutSteps(const TrainArgs& a, const TrainReport& rep) {
    if (rep.steps > 0) return std::nullopt;
    const std::string why = rep.status == TrainStatus::Cancelled ? "interrupted before the first step" : rep.message;
    return fail("train", why + "; nothing was trained and " + a.out + " was not written" +
                             (std::filesystem::exists(a.out) ? " (it is kept as it was)" : ""));
}

// The last word on stderr and the exit code: 1 when training stopped early (the model was written anyway).
int finalMessage(const TrainArgs& a, const TrainReport& rep) {
    if (rep.status == TrainStatus::NonFinite)
        return fail("train", rep.message + "; wrote the last good model to " + a.out + " (see --lr and --clip)");
    if (rep.status == TrainStatus::Cancelled)
        return fail("train",
                    "interrupted at step " + std::to_string(rep.steps) + "; wrote the last good model to " + a.out);
    if (!a.quiet) {
        std::fprintf(stderr, "trained %lld steps (%.2f epochs) in %s, %.0f target tokens/s; train loss %.4f",
                     static_cast<long long>(rep.steps), rep.epochs, clockText(rep.seconds).c_str(),
                     rep.tokens_per_second, rep.train_loss);
        if (std::isfinite(rep.valid_loss))
            std::fprintf(stderr, ", best valid loss %.4f (step %lld)", rep.valid_loss,
                         static_cast<long long>(rep.best_step));
        std::fprintf(stderr, "; wrote %s\n", a.out.c_str());
    }
    return 0;
}

}  // namespace

int runTrain(const std::vector<std::string>& args) {
    return runCommand("train", [&]() -> int {
        TrainArgs a;
        if (!parseTrainArgs(args, a)) return 0;
        // --init may be --out: training a model in place replaces it with the trained one, as asked.
        refuseOverwritingInput(a.out, {{"--data", a.data}, {"--valid", a.valid}, {"--config", a.config_path}});
        Corpus corpus;
        Model model = startingModel(a, corpus);
        if (corpus.examples.empty()) throw InputError(corpus.name + ": no training examples");
        if (!a.task.empty()) model.task = a.task;
        if (a.description_given) model.description = a.description;
        if (a.align_weight > 0 && corpus.alignedCount() == 0)
            throw UsageError("--align-weight: " + inputName(a.data) +
                             " has no alignment column (source<TAB>target<TAB>i-j ...)");
        if (a.align_weight > 0 && model.config.span != SpanKind::Global && !a.quiet)
            std::fprintf(stderr,
                         "train: note: --align-weight has no effect with a local span (guided alignment is "
                         "for global attention)\n");
        const std::vector<TrainExample> train = corpusExamples(model, corpus, a.align_weight > 0);
        std::vector<TrainExample> valid_set;
        if (!a.valid.empty()) {
            const Corpus vc = readCorpus(a.valid, CorpusOptions{true, model.config.tokenizer});
            if (vc.examples.empty()) throw InputError(vc.name + ": no validation examples");
            valid_set = corpusExamples(model, vc);
        }
        // fails early (before minutes of training) if --out cannot be written; a Marian folder is written beside
        // its place and renamed there
        if (model.marian) {
            if (!a.force && isOccupiedFolder(a.out))
                throw UsageError("--out " + a.out + ": the folder exists and is not empty (use --force to replace it)");
            const std::filesystem::path parent = std::filesystem::absolute(a.out).parent_path();
            checkWritable((parent / ".attnviz-write-check").string());
        } else {
            checkWritable(a.out);
        }

        const bool tty = isatty(STDERR_FILENO);
        TrainCallbacks cb;
        if (!a.quiet) cb.progress = progressPrinter(a.align_weight > 0, tty);
        OutWriter out(a);
        if (a.checkpoint) cb.validated = checkpointer(a, out, train.size(), valid_set.size());
        const TrainReport rep = trainInterruptibly(model, train, valid_set, trainOptions(a, tty), cb);
        if (!a.quiet && tty) std::fprintf(stderr, "\n");
        if (const std::optional<int> code = endWithoutSteps(a, rep)) return *code;

        model.training = trainingMetadata(a, train.size(), valid_set.size(), rep);
        out.write(model);
        if (a.json) printMetrics(a, model, train.size(), rep);
        return finalMessage(a, rep);
    });
}

}  // namespace attnviz::cli
