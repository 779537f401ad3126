#include "training/sibling_runs.h"

#include "base/errors.h"

#include <QDir>

namespace attnviz::ui {

std::vector<TrainingSettings> siblingSettings(const TrainingSettings& base, const QString& folder) {
    if (!base.init.isEmpty())
        throw InputError("four siblings are new models: clear \"Continue from\" (a model file keeps its own scoring)");
    if (base.config.isTransformer() || base.marian)
        throw InputError("four siblings are RNN models: a Transformer has only the scaled_dot scoring");
    std::vector<TrainingSettings> runs;
    for (ScoreKind score : {ScoreKind::Additive, ScoreKind::Dot, ScoreKind::ScaledDot, ScoreKind::General}) {
        TrainingSettings s = base;
        s.config.score = score;
        try {
            validateConfig(s.config);
        } catch (const std::exception& e) {
            throw InputError("the " + std::string(toString(score)) + " sibling: " + e.what());
        }
        s.out = QDir(folder).filePath(siblingFileName(s.task, s.config, s.options.align_weight > 0));
        runs.push_back(std::move(s));
    }
    return runs;
}

}  // namespace attnviz::ui
