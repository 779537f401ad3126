#include "model/config.h"

#include "base/byte_size.h"
#include "base/errors.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <utility>

namespace attnviz {
namespace {

template <typename E, size_t N>
E parseEnum(std::string_view what, std::string_view s, const std::array<std::pair<std::string_view, E>, N>& table) {
    std::string accepted;
    for (const auto& [name, value] : table) {
        if (name == s) return value;
        accepted += accepted.empty() ? "" : ", ";
        accepted += '"' + std::string(name) + '"';
    }
    throw ModelError("config: unknown " + std::string(what) + " \"" + std::string(s) + "\" (expected one of " +
                     accepted + ")");
}

constexpr std::array<std::pair<std::string_view, DecoderKind>, 3> kDecoders{
    {{"bahdanau", DecoderKind::Bahdanau}, {"luong", DecoderKind::Luong}, {"transformer", DecoderKind::Transformer}}};
constexpr std::array<std::pair<std::string_view, ScoreKind>, 4> kScores{{{"additive", ScoreKind::Additive},
                                                                         {"dot", ScoreKind::Dot},
                                                                         {"scaled_dot", ScoreKind::ScaledDot},
                                                                         {"general", ScoreKind::General}}};
constexpr std::array<std::pair<std::string_view, SpanKind>, 3> kSpans{
    {{"global", SpanKind::Global}, {"local_m", SpanKind::LocalM}, {"local_p", SpanKind::LocalP}}};
constexpr std::array<std::pair<std::string_view, TokenizerKind>, 4> kTokenizers{
    {{"whitespace", TokenizerKind::Whitespace},
     {"word", TokenizerKind::Word},
     {"char", TokenizerKind::Char},
     {"sentencepiece", TokenizerKind::SentencePiece}}};

template <typename E, size_t N>
std::string_view nameOf(E v, const std::array<std::pair<std::string_view, E>, N>& table) {
    for (const auto& [name, value] : table)
        if (value == v) return name;
    return "?";
}

const nlohmann::json* field(const nlohmann::json& j, const char* key) {
    auto it = j.find(key);
    return it == j.end() ? nullptr : &*it;
}

std::string stringField(const nlohmann::json& j, const char* key, const char* fallback) {
    const nlohmann::json* v = field(j, key);
    if (!v) {
        if (!fallback) throw ModelError(std::string("config: missing required key \"") + key + "\"");
        return fallback;
    }
    if (!v->is_string()) throw ModelError(std::string("config: \"") + key + "\" must be a string");
    return v->get<std::string>();
}

int intField(const nlohmann::json& j, const char* key, const int* fallback, int min_value) {
    const nlohmann::json* v = field(j, key);
    if (!v) {
        if (!fallback) throw ModelError(std::string("config: missing required key \"") + key + "\"");
        return *fallback;
    }
    if (!v->is_number_integer()) throw ModelError(std::string("config: \"") + key + "\" must be an integer");
    const auto x = v->get<long long>();
    if (x < min_value || x > (1 << 20))
        throw ModelError(std::string("config: \"") + key + "\" = " + std::to_string(x) + " is out of range (" +
                         std::to_string(min_value) + " to " + std::to_string(1 << 20) + ")");
    return static_cast<int>(x);
}

bool boolField(const nlohmann::json& j, const char* key, bool fallback) {
    const nlohmann::json* v = field(j, key);
    if (!v) return fallback;
    if (!v->is_boolean()) throw ModelError(std::string("config: \"") + key + "\" must be true or false");
    return v->get<bool>();
}

TokenizerConfig tokenizerFromJson(const nlohmann::json& j) {
    TokenizerConfig t;
    const nlohmann::json* v = field(j, "tokenizer");
    if (!v) return t;
    if (!v->is_object()) throw ModelError("config: \"tokenizer\" must be an object");
    t.source = parseTokenizerKind(stringField(*v, "source", "whitespace"));
    t.target = parseTokenizerKind(stringField(*v, "target", "whitespace"));
    t.lowercase = boolField(*v, "lowercase", false);
    return t;
}

nlohmann::json tokenizerToJson(const TokenizerConfig& t) {
    return {{"source", toString(t.source)}, {"target", toString(t.target)}, {"lowercase", t.lowercase}};
}

}  // namespace

std::string_view toString(DecoderKind v) { return nameOf(v, kDecoders); }
std::string_view toString(ScoreKind v) { return nameOf(v, kScores); }
std::string_view toString(SpanKind v) { return nameOf(v, kSpans); }
std::string_view toString(TokenizerKind v) { return nameOf(v, kTokenizers); }
DecoderKind parseDecoderKind(std::string_view s) { return parseEnum("decoder", s, kDecoders); }
ScoreKind parseScoreKind(std::string_view s) { return parseEnum("score", s, kScores); }
SpanKind parseSpanKind(std::string_view s) { return parseEnum("span", s, kSpans); }
TokenizerKind parseTokenizerKind(std::string_view s) { return parseEnum("tokenizer", s, kTokenizers); }

ModelConfig configFromJson(const nlohmann::json& j) {
    if (!j.is_object()) throw ModelError("config: must be a JSON object");
    ModelConfig c;
    c.decoder = parseDecoderKind(stringField(j, "decoder", nullptr));
    if (c.isTransformer()) {  // its own keys (model/transformer_params), the tokenizer shared
        c.transformer = transformerConfigFromJson(j);
        c.score = ScoreKind::ScaledDot;
        c.tokenizer = tokenizerFromJson(j);
        validateConfig(c);
        return c;
    }
    c.score = parseScoreKind(stringField(j, "score", nullptr));
    c.span = parseSpanKind(stringField(j, "span", "global"));
    const int default_window = 5;
    c.window = intField(j, "window", &default_window, 1);
    c.input_feeding = boolField(j, "input_feeding", false);
    c.emb_dim = intField(j, "emb_dim", nullptr, 1);
    c.enc_hid_dim = intField(j, "enc_hid_dim", nullptr, 1);
    c.dec_hid_dim = intField(j, "dec_hid_dim", nullptr, 1);
    c.tokenizer = tokenizerFromJson(j);
    validateConfig(c);
    return c;
}

ModelConfig configFromJsonText(std::string_view text) {
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        throw ModelError(std::string("config: not valid JSON: ") + e.what());
    }
    return configFromJson(j);
}

nlohmann::json configToJson(const ModelConfig& c) {
    if (c.isTransformer()) {
        nlohmann::json j = transformerConfigToJson(c.transformer);
        j["tokenizer"] = tokenizerToJson(c.tokenizer);
        return j;
    }
    return nlohmann::json{
        {"decoder", toString(c.decoder)},
        {"score", toString(c.score)},
        {"span", toString(c.span)},
        {"window", c.window},
        {"input_feeding", c.input_feeding},
        {"emb_dim", c.emb_dim},
        {"enc_hid_dim", c.enc_hid_dim},
        {"dec_hid_dim", c.dec_hid_dim},
        {"tokenizer", tokenizerToJson(c.tokenizer)},
    };
}

uint64_t minimumWeightBytes(const ModelConfig& c) {
    if (c.isTransformer()) {
        // Per encoder layer in_proj (3d x d), out_proj (d x d), linear1 (F x d), linear2 (d x F); a decoder layer
        // has a second attention (docs/transformer.md).
        const TransformerConfig& t = c.transformer;
        const uint64_t d = uint64_t(std::max(t.d_model, 0));
        const uint64_t F_enc = uint64_t(std::max(t.encoder_dim_feedforward, 0)),
                       F_dec = uint64_t(std::max(t.decoder_dim_feedforward, 0));
        const uint64_t encoder_layer = 4 * d * d + 2 * d * F_enc, decoder_layer = 8 * d * d + 2 * d * F_dec;
        return 4 * (uint64_t(std::max(t.num_encoder_layers, 0)) * encoder_layer +
                    uint64_t(std::max(t.num_decoder_layers, 0)) * decoder_layer);
    }
    // Every decoder kind has these GRU matrices (shapes in docs/model-format.md): the encoder's two directions
    // W_ih (3H_e x E) and W_hh (3H_e x H_e), the decoder's W_ih (3H_d x at least E) and W_hh (3H_d x H_d).
    const uint64_t E = uint64_t(c.emb_dim), He = uint64_t(c.enc_hid_dim), Hd = uint64_t(c.dec_hid_dim);
    return 4 * (2 * 3 * He * (E + He) + 3 * Hd * (E + Hd));
}

std::string sizesSummary(const ModelConfig& c) {
    if (c.isTransformer())
        return "d " + std::to_string(c.transformer.d_model) + ", " +
               perSideText(c.transformer.encoder_nhead, c.transformer.decoder_nhead) + " heads, " +
               std::to_string(c.transformer.num_encoder_layers) + "+" +
               std::to_string(c.transformer.num_decoder_layers) + " layers";
    return "E " + std::to_string(c.emb_dim) + ", H " + std::to_string(c.enc_hid_dim) + "/" +
           std::to_string(c.dec_hid_dim);
}

void validateConfig(const ModelConfig& c) {
    if (c.isTransformer()) {
        validateTransformerConfig(c.transformer);
        if (c.score != ScoreKind::ScaledDot)
            throw ModelError("config: score \"" + std::string(toString(c.score)) +
                             "\" does not apply to decoder \"transformer\" (only \"scaled_dot\" may be given)");
        if (const uint64_t bytes = minimumWeightBytes(c); bytes > kMaxWeightBytes)
            throw ModelError("config: d_model " + std::to_string(c.transformer.d_model) + ", dim_feedforward " +
                             perSideText(c.transformer.encoder_dim_feedforward, c.transformer.decoder_dim_feedforward) +
                             " and " + std::to_string(c.transformer.num_encoder_layers) + " + " +
                             std::to_string(c.transformer.num_decoder_layers) + " layers need at least " +
                             gibText(double(bytes)) + " for the weights alone; the limit is " +
                             gibText(double(kMaxWeightBytes)));
        return;
    }
    if (c.emb_dim < 1 || c.enc_hid_dim < 1 || c.dec_hid_dim < 1)
        throw ModelError("config: emb_dim, enc_hid_dim and dec_hid_dim must be positive");
    if (const uint64_t bytes = minimumWeightBytes(c); bytes > kMaxWeightBytes)
        throw ModelError("config: emb_dim " + std::to_string(c.emb_dim) + ", enc_hid_dim " +
                         std::to_string(c.enc_hid_dim) + ", dec_hid_dim " + std::to_string(c.dec_hid_dim) +
                         " need at least " + gibText(double(bytes)) +
                         " for the weights alone (more to train); the limit is " + gibText(double(kMaxWeightBytes)));
    if (c.window < 1) throw ModelError("config: \"window\" must be at least 1");
    if (c.decoder == DecoderKind::Bahdanau && c.span != SpanKind::Global)
        throw ModelError("config: span \"" + std::string(toString(c.span)) +
                         "\" needs decoder \"luong\" (bahdanau attends globally)");
    if (c.decoder == DecoderKind::Bahdanau && c.input_feeding)
        throw ModelError("config: input_feeding needs decoder \"luong\"");
    if ((c.score == ScoreKind::Dot || c.score == ScoreKind::ScaledDot) && c.dec_hid_dim != 2 * c.enc_hid_dim)
        throw ModelError("config: score \"" + std::string(toString(c.score)) +
                         "\" needs dec_hid_dim == 2 * enc_hid_dim (got " + std::to_string(c.dec_hid_dim) + " and " +
                         std::to_string(c.enc_hid_dim) + ")");
}

}  // namespace attnviz
