// The flags that choose a model and its attention: --model with --score (a sibling trained with that scoring),
// and --head-a / --head-b (a Transformer's cross-attention head).
#pragma once
#include "decode/attention_views.h"
#include "io/safetensors.h"
#include "model/config.h"
#include "model/model.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace attnviz::cli {

// The --score values, in docs/model-format.md's order.
const std::vector<std::string>& scoreChoices();

struct LoadedModel {
    std::shared_ptr<const Model> model;
    std::string path;  // the file actually loaded (the sibling's path when --score switched)
};
// Loads `path`. With `score` set and different from the model's own score, loads the sibling trained with that
// score and every other setting of the model (matchingSibling, io/siblings.h); if there is none, throws ModelError
// "PATH: no sibling model trained with score "dot" and this model's other settings ...; siblings found, with what
// differs from this model: FILE (luong · general · input feeding), ...".
// Errors always start with the path.
LoadedModel loadModelForCli(const std::string& path, const std::optional<ScoreKind>& score = std::nullopt);

// --head-a / --head-b (`compare`, `render --with`): "L,H" or "L,mean" as a cross-attention view (eval/compare_heads.h);
// a malformed value is a UsageError naming `flag`.
AttentionView headChoiceOption(const std::string& flag, const std::string& value);
// InputError unless `m` has that layer and head: "--head-a 4,1 cannot be used with A PATH: it has 3 decoder layers; ...".
void checkHeadChoice(const std::string& flag, const AttentionView& view, const Model& m, const std::string& side,
                     const std::string& path);

// The --dtype values f32, f16, bf16 (convert, train) as the weight type a model is written in.
safetensors::DType weightTypeFromFlag(const std::string& name);

}  // namespace attnviz::cli
