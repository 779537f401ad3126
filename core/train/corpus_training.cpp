#include "train/corpus_training.h"

#include "base/errors.h"
#include "base/json_number.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <cmath>
#include <iterator>

namespace attnviz {
namespace {

// A vocabulary of the four specials alone makes a model that reads or writes every word as <unk>, and trains
// without a word of complaint: refused, with the threshold and how many distinct tokens fell below it.
void requireWords(const Vocabulary& v, const std::vector<std::vector<std::string>>& sentences, int min_freq,
                  const char* side, const std::string& name) {
    if (v.size() > int(std::size(kSpecialTokens))) return;
    const int distinct = buildVocabulary(sentences, 1).size() - int(std::size(kSpecialTokens));
    throw InputError(name + ": the minimum frequency " + std::to_string(min_freq) + " leaves no " + side +
                     " token: all " + std::to_string(distinct) + " distinct " + side + " tokens are seen fewer than " +
                     std::to_string(min_freq) + " times, and a " + side +
                     " vocabulary of <pad> <unk> <sos> <eos> alone would make every word <unk>");
}

}  // namespace

std::vector<TrainExample> corpusExamples(const Model& model, const Corpus& corpus, bool alignments) {
    std::vector<TrainExample> out;
    out.reserve(corpus.examples.size());
    for (const CorpusExample& ex : corpus.examples) {
        try {
            out.push_back(makeExample(model, ex.source, ex.target, ex.line));
            if (alignments && ex.has_alignment) setAlignment(out.back(), ex.alignment.all());
        } catch (const std::exception& e) {
            const std::string msg = e.what();
            if (msg.rfind(corpus.name + ":", 0) == 0) throw;
            throw InputError(corpus.name + ":" + std::to_string(ex.line) + ": " + msg);
        }
    }
    return out;
}

CorpusVocabularies corpusVocabularies(const Corpus& corpus, int min_freq) {
    std::vector<std::vector<std::string>> src, tgt;
    src.reserve(corpus.examples.size());
    tgt.reserve(corpus.examples.size());
    for (const CorpusExample& ex : corpus.examples) {
        src.push_back(ex.source_tokens);
        tgt.push_back(ex.target_tokens);
    }
    CorpusVocabularies v{buildVocabulary(src, min_freq), buildVocabulary(tgt, min_freq)};
    requireWords(v.source, src, min_freq, "source", corpus.name);
    requireWords(v.target, tgt, min_freq, "target", corpus.name);
    return v;
}

std::string_view trainStatusName(TrainStatus s) {
    switch (s) {
    case TrainStatus::Completed:
        return "completed";
    case TrainStatus::Cancelled:
        return "interrupted";
    case TrainStatus::NonFinite:
        return "non_finite";
    }
    return "?";
}

namespace {

// The float's shortest decimal as a double (0.1f gives 0.1, not 0.10000000149): the dropout as the user wrote it.
double asWritten(float x) {
    char text[32];
    const std::to_chars_result end = std::to_chars(text, text + sizeof text, x);
    double value = double(x);
    std::from_chars(text, end.ptr, value);
    return value;
}

}  // namespace

TrainingRecord trainingRecord(const TrainOptions& o) {
    TrainingRecord r;
    r.optimizer = optimizerName(o.optimizer);
    r.lr = o.lr;
    r.warmup = o.warmup;
    r.lr_decay = o.lr_decay;
    r.label_smoothing = o.label_smoothing;
    r.batch_size = o.batch_size;
    r.clip = o.clip;
    r.dropout = asWritten(o.dropout);
    r.seed = o.seed;
    r.shuffle = o.shuffle;
    r.align_weight = o.align_weight;
    return r;
}

std::string trainingMetadata(const TrainingRecord& r, const TrainReport& rep) {
    nlohmann::ordered_json meta;
    meta["data"] = r.data;
    meta["lines"] = r.lines;
    if (!r.init.empty()) meta["init"] = r.init;
    if (!r.valid.empty()) {
        meta["valid"] = r.valid;
        meta["valid_lines"] = r.valid_lines;
    }
    meta["optimizer"] = r.optimizer;
    meta["lr"] = r.lr;
    meta["warmup"] = r.warmup;
    if (r.lr_decay != LrDecay::None)
        meta["lr_decay"] = lrDecayName(r.lr_decay);  // only when used: older readers
                                                     // see no change
    if (r.label_smoothing > 0) meta["label_smoothing"] = r.label_smoothing;
    meta["batch_size"] = r.batch_size;
    meta["steps"] = rep.steps;
    meta["epochs"] = rep.epochs;
    meta["clip"] = r.clip;
    meta["dropout"] = r.dropout;
    meta["seed"] = r.seed;
    meta["shuffle"] = r.shuffle;
    meta["align_weight"] = r.align_weight;
    if (r.align_weight > 0) meta["train_align_loss"] = jsonNumber(rep.train_align_loss);
    meta["train_loss"] = jsonNumber(rep.train_loss);
    meta["valid_loss"] = jsonNumber(rep.valid_loss);
    meta["status"] = trainStatusName(rep.status);
    return meta.dump();
}

}  // namespace attnviz
