// What the training window's tests share: the probe sentence of their reverse-task trainings and the model the engine
// trains from the same settings, to compare the window's numbers with. Header-only: it needs attnviz::ui.
#pragma once
#include "io/corpus.h"
#include "train/corpus_training.h"
#include "training/training_job.h"

#include <QString>

#include <cstdint>
#include <vector>

namespace attnviz::testing {

// The probe the trainings decode after each epoch (the reverse task: its output should become "e d c b a").
inline const QString kProbe = QStringLiteral("a b c d e");

// `m` after `steps` updates of the engine's trainer on `corpus` with the options of `s` (no callback but the progress
// reports, appended to *reports when given; no validation).
inline Model trainedForSteps(Model m, const Corpus& corpus, const ui::TrainingSettings& s, int64_t steps,
                             std::vector<TrainProgress>* reports) {
    if (steps == 0) return m;
    TrainOptions o = s.options;
    o.steps = steps;
    o.progress_interval = 0;
    TrainCallbacks cb;
    if (reports) cb.progress = [reports](const TrainProgress& p) { reports->push_back(p); };
    trainModel(m, corpusExamples(m, corpus), {}, o, cb);
    return m;
}

// The model the engine trains with the settings `s` for `steps` updates, initialised as the window does; each progress
// report is appended to *reports when given.
inline Model trainedByCore(const ui::TrainingSettings& s, int64_t steps,
                           std::vector<TrainProgress>* reports = nullptr) {
    const Corpus corpus = readCorpus(s.corpus.toStdString(), CorpusOptions{true, s.config.tokenizer});
    CorpusVocabularies v = corpusVocabularies(corpus, 1);
    return trainedForSteps(makeRandomModel(s.config, std::move(v.source), std::move(v.target), s.options.seed), corpus,
                           s, steps, reports);
}

}  // namespace attnviz::testing
