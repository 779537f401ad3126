// "Train four siblings" (the training window): one click trains the four scorings on the same corpus with the same
// settings, one after the other, and writes them side by side as siblings (same task and vocabularies, io/siblings.h)
// so that the main window's scoring toggle and its compare view reach all four.
#pragma once
#include "training/training_job.h"

#include <QString>
#include <QStringList>
#include <vector>

namespace attnviz::ui {

// The four runs: `base` with config.score additive, dot, scaled_dot and general in turn, each written to
// `folder`/siblingFileName(...). Throws InputError naming what stops it: continuing from a model file (its scoring
// is its own), a Transformer, or sizes a scoring cannot use (dot and scaled_dot need dec = 2 x enc).
std::vector<TrainingSettings> siblingSettings(const TrainingSettings& base, const QString& folder);

// A sequence of sibling runs in progress: the settings, the run going (index into runs) and the files written by
// the runs that completed.
struct SiblingQueue {
    std::vector<TrainingSettings> runs;
    size_t current = 0;
    QStringList written;
};

}  // namespace attnviz::ui
