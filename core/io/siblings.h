// Siblings (docs/model-format.md "Siblings"): the model files of one folder with the same task and vocabularies, the
// same job learnt with different settings, and which of them the scoring toggle and `--score` move to.
#pragma once
#include "model/config.h"
#include "model/model.h"

#include <optional>
#include <string>
#include <vector>

namespace attnviz {

struct Sibling {
    std::string path;
    ModelConfig config;
    bool guided = false;  // trained with guided alignment (isGuided)
};

// Whether a model was trained with guided alignment (`attnviz-cli train --align-weight W`, W > 0). The metadata
// decides when it can: the `training` JSON object's number `align_weight` (> 0: guided). Only a model without that
// record (no `training`, not JSON, no numeric `align_weight`) is judged by its file name: a stem ending in "-guided".
bool isGuided(const std::string& training, const std::string& path);

// The model files in `path`'s folder with the same task and vocabularies (`path` included, as the model `model`
// read from it), sorted by score then path. A model without a task has no siblings but itself. Unreadable files are
// skipped, and so are files whose header is more than twice as long as the model's own plus 1 MiB (not read).
std::vector<Sibling> findSiblings(const std::string& path, const Model& model);

// Whether two siblings have the same settings apart from the score: decoder, span (and window, for a local span),
// input feeding, guidance, sizes and tokenizers (vocabularies are equal among siblings already).
bool sameSettingsButScore(const Sibling& a, const Sibling& b);
// The sibling in `siblings` with `score` and every other setting of `current` (sameSettingsButScore); `current`
// itself when it has that score. nullopt when there is none: the toggle never moves to a model that differs in more.
std::optional<Sibling> matchingSibling(const std::vector<Sibling>& siblings, const Sibling& current, ScoreKind score);

// The settings in which `other` differs from `current`, in the order decoder, score, span (with its window), window
// (the same local span), input feeding, guidance, sizes, tokenizers; OtherSettings when only a setting none of these
// names differs. Empty for equal settings. The window writes them in its reader's language from these.
enum class SiblingDifference { Decoder, Score, Span, Window, InputFeeding, Guided, Sizes, Tokenizer, OtherSettings };
std::vector<SiblingDifference> siblingDifferenceKinds(const Sibling& current, const Sibling& other);
// What `other` has that `current` has not, one phrase per difference of siblingDifferenceKinds: e.g. {"luong",
// "general", "input feeding"}; empty for equal settings.
std::vector<std::string> siblingDifferences(const Sibling& current, const Sibling& other);
// The phrases joined with " · " ("luong · general · input feeding"), "same settings" when there are none.
std::string describeDifferences(const Sibling& current, const Sibling& other);

}  // namespace attnviz
