// The model config of docs/model-format.md ("config" metadata), parsed and validated.
#pragma once
#include "model/transformer_params.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace attnviz {

// Transformer: the encoder-decoder of docs/transformer.md; its sizes are ModelConfig::transformer.
enum class DecoderKind { Bahdanau, Luong, Transformer };
enum class ScoreKind { Additive, Dot, ScaledDot, General };
enum class SpanKind { Global, LocalM, LocalP };
// SentencePiece: the model's own .spm pieces (a Marian folder's source.spm / target.spm, held by Model).
enum class TokenizerKind { Whitespace, Word, Char, SentencePiece };

struct TokenizerConfig {
    TokenizerKind source = TokenizerKind::Whitespace;
    TokenizerKind target = TokenizerKind::Whitespace;
    bool lowercase = false;
    bool operator==(const TokenizerConfig&) const = default;
};

// One config for every kind. The RNN kinds (bahdanau, luong) use the keys from `score` to `dec_hid_dim`; a
// Transformer uses `transformer` (all zero for the RNN kinds) and has score ScaledDot, the other RNN keys at their
// defaults. The tokenizer is shared.
struct ModelConfig {
    DecoderKind decoder = DecoderKind::Bahdanau;
    ScoreKind score = ScoreKind::Additive;
    SpanKind span = SpanKind::Global;
    int window = 5;              // D, half-width of a local window
    bool input_feeding = false;  // luong only
    int emb_dim = 0;             // E
    int enc_hid_dim = 0;         // H_e
    int dec_hid_dim = 0;         // H_d
    TokenizerConfig tokenizer;
    TransformerConfig transformer;  // decoder Transformer only
    bool isTransformer() const { return decoder == DecoderKind::Transformer; }
    bool operator==(const ModelConfig&) const = default;
};

// Names exactly as written in the file ("bahdanau", "scaled_dot", "local_p", "word", ...).
std::string_view toString(DecoderKind);
std::string_view toString(ScoreKind);
std::string_view toString(SpanKind);
std::string_view toString(TokenizerKind);
// A model's sizes in a few words, for lists and menus: "E 64, H 64/128" (embedding, encoder / decoder hidden) for
// the RNN kinds, "d 128, 4 heads, 2+2 layers" (d_model, heads, encoder + decoder layers) for a Transformer.
std::string sizesSummary(const ModelConfig& c);
// Parsers throw ModelError naming the bad value and the accepted ones.
DecoderKind parseDecoderKind(std::string_view);
ScoreKind parseScoreKind(std::string_view);
SpanKind parseSpanKind(std::string_view);
TokenizerKind parseTokenizerKind(std::string_view);

// Parses the config object; defaults filled in; throws ModelError on a missing/invalid key or a
// combination docs/model-format.md forbids (local spans or input feeding with bahdanau, dot sizes, ...).
ModelConfig configFromJson(const nlohmann::json& j);
ModelConfig configFromJsonText(std::string_view text);
// Every key written, defaults included (the "config" of cli.md's decode object).
nlohmann::json configToJson(const ModelConfig& c);
// Throws ModelError if the config breaks a rule of docs/model-format.md, or if its weights alone would need more than
// kMaxWeightBytes (a config that cannot fit in memory is refused before anything is allocated).
void validateConfig(const ModelConfig& c);

// The largest model attnviz makes or loads: 4 GiB of float32 weights (about a billion parameters).
inline constexpr uint64_t kMaxWeightBytes = uint64_t(4) << 30;
// A lower bound of a config's float32 weight bytes, whatever the vocabularies: its GRU matrices (RNN kinds), its
// layers' matrices (Transformer).
uint64_t minimumWeightBytes(const ModelConfig& c);

}  // namespace attnviz
