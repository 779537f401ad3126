// A Hugging Face Marian folder's JSON files read into the engine's terms (docs/marian.md): config.json, then
// generation_config.json (its keys win where present) and tokenizer_config.json. Nothing else of the folder is read.
#pragma once
#include "model/config.h"
#include "model/vocab.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace attnviz {

struct MarianSettings {
    ModelConfig config;         // a configured Transformer (post-LN, no final norms, halves positions, tied tables)
    int vocab_size = 0;         // V: the source vocabulary (and the shared table)
    int target_vocab_size = 0;  // V_t (decoder_vocab_size, default V)
    SpecialIds source_specials, target_specials;  // pad, unk (filled in from vocab.json), eos, decoder start
    bool separate_vocabs = false;                 // vocab.json is the source's, target_vocab.json the target's
    std::string source_lang, target_lang;
    int num_beams = 0, max_length = 0;  // generation_config.json's (0: absent)
};

// The three JSON objects (generation and tokenizer may be null: absent). Throws ModelError naming the file and key:
// "config.json: \"encoder_layers\" = 1000000000 is out of range (1 to 1048576)", a model_type other than "marian",
// a pre-LN or extra-norm key set, heads that do not divide d_model, ...
MarianSettings marianSettings(const nlohmann::json& config, const nlohmann::json& generation,
                              const nlohmann::json& tokenizer);

}  // namespace attnviz
