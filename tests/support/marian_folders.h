// Marian folders made by the tests (docs/marian.md): a SentencePiece model trained by the library's own trainer on
// a few hundred generated lines, vocab.json as converted opus-mt models have it (</s> 0, <unk> 1, the pieces,
// <pad> last), config.json and random weights in any form the spec names.
#pragma once
#include <functional>
#include "model/transformer_params.h"

#include <map>
#include <string>
#include <vector>

namespace attnviz::testing {

// A few hundred English-like lines, the same every time.
std::vector<std::string> marianTestLines(int count = 300);

struct MarianFolderOptions {
    int d_model = 16, heads = 4, layers = 2, ffn = 32;  // heads and ffn: the encoder's, and the decoder's unless
    int decoder_heads = 0, decoder_ffn = 0;             // these are above 0
    std::string activation = "swish";
    int spm_vocab = 60;                              // pieces of the .spm, its 3 specials included
    std::string dtype = "F32";                       // "F32", "F16", "BF16"
    std::string table_name = "model.shared.weight";  // where the one tied table is stored
    bool write_lm_head = false;                      // also store lm_head.weight (the same values)
    bool write_logits_bias = true;                   // final_logits_bias (random; absent: zeros)
    bool write_positions = false;                    // both embed_positions tables (the sinusoid, 64 rows)
    bool distinct_positions = false;                 // with write_positions: the decoder's table perturbed
    std::vector<std::vector<int>> bad_words;         // generation_config.json's bad_words_ids (besides [[pad]])
    uint64_t seed = 7;
};

struct MarianFolder {
    std::string path;
    TransformerConfig config;  // as the loader should configure it
    TransformerParams params;  // the weights written (F16/BF16: after rounding, as the file holds them)
    int vocab = 0;             // V, <pad> is V − 1
};

// Writes the folder at `path` (created; an existing one is replaced). Every file through the project's own writers.
MarianFolder makeMarianFolder(const std::string& path, const MarianFolderOptions& o = {});

// The folder's model.safetensors rewritten with `edit` applied to its tensor list (rename, drop, reshape: tests of
// the reader's checks). `edit` gets name → (shape, values).
using TensorTable = std::map<std::string, std::pair<std::vector<int64_t>, std::vector<float>>>;
void rewriteMarianWeights(const std::string& folder, const std::function<void(TensorTable&)>& edit);

}  // namespace attnviz::testing
