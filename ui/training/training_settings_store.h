// The training form's settings kept between sessions in QSettings ("Training/…"): saved when a run starts, offered
// again when the main window first opens the training window. The model config is kept as core's configToJson text
// and read back by configFromJsonText, so it is checked by the same rules as a model file's config (a Marian's too,
// with its SentencePiece sizes and languages beside it).
#pragma once
#include "training/training_job.h"

#include <optional>

namespace attnviz::ui {

void saveTrainingSettings(const TrainingSettings& settings);
// The settings saved last; nullopt when none were saved, their corpus file is gone or their config is not valid.
// The thread count is the machine's (defaultTrainingSettings), not a saved one.
std::optional<TrainingSettings> savedTrainingSettings();

}  // namespace attnviz::ui
