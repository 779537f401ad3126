// Writing a Marian-layout model as a Hugging Face folder (docs/marian.md "Training"): config.json,
// generation_config.json, tokenizer_config.json, vocab.json, source.spm, target.spm and model.safetensors with the
// names save_pretrained writes, so that transformers' MarianMTModel and MarianTokenizer open it unchanged. The
// folder appears whole or not at all: it is written beside its place under a temporary name and renamed there.
#pragma once
#include "io/safetensors.h"
#include "model/model.h"

#include <string>

namespace attnviz {

// The folder's JSON files as text (also what tests compare with the reader).
std::string marianConfigJson(const Model& model);
std::string marianGenerationConfigJson(const Model& model);

// Whether `path` is an existing folder with something in it: saveMarianFolder replaces such a folder only when asked
// (the front ends ask first: --force, the training window's question).
bool isOccupiedFolder(const std::string& path);

// Writes `model` (a configured Transformer with SentencePiece models: a model read from or trained into the Marian
// layout) at `folder`. An existing folder is replaced only with `replace`, else WriteError "FOLDER: exists and is not
// empty (use --force to replace it)"; an existing empty folder is used. Weights stored as `dtype` (F32, F16, BF16).
// Throws WriteError naming the folder (and a ModelError for a model that is not of that layout).
void saveMarianFolder(const Model& model, const std::string& folder, safetensors::DType dtype = safetensors::DType::F32,
                      bool replace = false);

}  // namespace attnviz
