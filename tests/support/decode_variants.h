// The RNN variants the decoding tests run through, as Qt Test data rows, and the helpers that read a row back:
// bahdanau × 4 scores (global; folded and not, with and without token tables), luong × 4 scores × 3 spans × input
// feeding on/off. Shared by test_decoding and test_interventions.
#pragma once
#include "decode/step_decoder.h"
#include "fast/token_tables.h"
#include "model/model.h"
#include "text/tokenizer.h"

#include <memory>
#include <string>
#include <vector>

namespace attnviz::testing {

// Adds the columns decoder, score, span, input_feeding, folding, tables and a row per variant.
void addAllVariants();

// The current row's config (smallConfig).
ModelConfig fetchConfig();

// The current row's way of decoding: its folding, and token tables for `model` with every row computed when the row
// says so.
struct RowPath {
    std::unique_ptr<TokenTables> tables;
    detail::StepPath path;
};
RowPath fetchPath(const Model& model);

// <sos> words <eos> with the model's source ids.
TokenizedText sourceOf(const Model& model, const std::vector<std::string>& words);

}  // namespace attnviz::testing
