// The RNN variants the decoding tests run through, as Qt Test data rows, and the helpers that read a row back:
// bahdanau × 4 scores (global; folded and not, with and without token tables), luong × 4 scores × 3 spans × input
// feeding on/off, and the sentences and configs the decoding tests share.
#pragma once
#include "decode/step_decoder.h"
#include "fast/token_tables.h"
#include "model/model.h"
#include "text/tokenizer.h"

#include <QString>

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

// "the cat sat on the mat ." as words (S = 9 with <sos> and <eos>): the sentence most decode tests run.
inline const std::vector<std::string> kMatSentence = {"the", "cat", "sat", "on", "the", "mat", "."};

// "the cat ate an apple" with the ids of smallSourceVocab (<sos> and <eos> included).
TokenizedText catSentence();

// The config of the variant named "decoder/score/span[/feed]" (e.g. "luong/general/local_p/feed"), smallConfig's
// sizes.
ModelConfig configFor(const QString& variant);

}  // namespace attnviz::testing
