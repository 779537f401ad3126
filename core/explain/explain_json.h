// The explain keys of docs/explain.md's JSON, added to a decode object (io/decode_json.h): "explanations" (each
// method's T × S matrix, by the spec's name), "ig_steps" and "ig_delta" with integrated gradients, "contrast" with
// a contrast. Floats as io/decode_json.h writes them (the double equal to the float; null when not finite).
#pragma once
#include "explain/explanation.h"

#include <nlohmann/json.hpp>
#include <vector>

namespace attnviz {

// Adds the keys to `decode_object` (decodeToJson's object of the same decode).
void addExplanationsToJson(nlohmann::json& decode_object, const std::vector<Explanation>& explanations,
                           const ExplainOptions& options, const Model& model);

}  // namespace attnviz
