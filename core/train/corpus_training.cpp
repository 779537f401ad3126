#include "train/corpus_training.h"

#include "base/errors.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace attnviz {
namespace {

nlohmann::json number(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }

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
    return {buildVocabulary(src, min_freq), buildVocabulary(tgt, min_freq)};
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
    meta["batch_size"] = r.batch_size;
    meta["steps"] = rep.steps;
    meta["epochs"] = rep.epochs;
    meta["clip"] = r.clip;
    meta["dropout"] = r.dropout;
    meta["seed"] = r.seed;
    meta["shuffle"] = r.shuffle;
    meta["align_weight"] = r.align_weight;
    if (r.align_weight > 0) meta["train_align_loss"] = number(rep.train_align_loss);
    meta["train_loss"] = number(rep.train_loss);
    meta["valid_loss"] = number(rep.valid_loss);
    meta["status"] = trainStatusName(rep.status);
    return meta.dump();
}

}  // namespace attnviz
