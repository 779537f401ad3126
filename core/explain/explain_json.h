// The explain keys of docs/explain.md's JSON, added to a decode object (io/decode_json.h): "explanations" (each
// method's T × S matrix, by its name there), "ig_steps" and "ig_delta" with integrated gradients, "contrast" with
// a contrast. Floats as io/decode_json.h writes them (the double equal to the float; null when not finite).
#pragma once
#include "explain/explanation.h"
#include "io/json_text.h"

#include <vector>

namespace attnviz {

// Writes the keys, as members of the decode's object, piece by piece: T × S numbers a method cost a buffer, not a
// tree (io/json_text.h).
void writeExplanationMembers(JsonWriter& w, const std::vector<Explanation>& explanations, const ExplainOptions& options,
                             const Model& model);

}  // namespace attnviz
