// Small models and vocabularies for tests, made in memory from a seed.
#pragma once
#include "model/interventions.h"
#include "model/model.h"

#include <QString>
#include <QTemporaryDir>
#include <cstdint>
#include <string>
#include <vector>

namespace attnviz::testing {

// A config with small sizes (E=6, H_e=4, H_d=8 by default: dot scores need H_d = 2 H_e).
ModelConfig smallConfig(DecoderKind decoder, ScoreKind score, SpanKind span = SpanKind::Global,
                        bool input_feeding = false, int emb = 6, int enc_hid = 4, int dec_hid = 8);
// The four specials followed by `words`.
Vocabulary vocabWith(const std::vector<std::string>& words);
// English-ish source words and Chinese target words, enough for small decodes.
Vocabulary smallSourceVocab();
Vocabulary smallTargetVocab();
// A randomly initialised model with the small vocabularies; weights scaled by `scale` so that attention is not flat.
Model smallModel(const ModelConfig& config, uint64_t seed, float scale = 1.0f);
// A random Transformer sibling of smallModel's models (the same vocabularies and tokenizers): d_model 8, 2 heads, 2
// encoder and `decoder_layers` decoder layers, its output layer scaled up so that decodes pick a few distinct tokens.
Model smallTransformer(uint64_t seed, int decoder_layers = 2);
// The data rows "bahdanau", "luong" and "transformer" of a test run once per model kind: an int column "kind" holding
// the DecoderKind.
void addKindRows();
// A Transformer model with head h's columns of that attention's out_proj zeroed (d, d_h): what "head off" (and a head
// gate of 0) must equal.
Model withHeadZeroed(Model m, const HeadRef& h);
// Saves into dir and returns the path.
QString saveInto(const Model& model, const QTemporaryDir& dir, const QString& file_name);

}  // namespace attnviz::testing
