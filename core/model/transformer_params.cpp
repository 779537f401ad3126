#include "model/transformer_params.h"

#include "base/errors.h"

#include <cmath>
#include <random>

namespace attnviz {
namespace {

std::string inQuotes(std::string_view s) { return '"' + std::string(s) + '"'; }

const nlohmann::json* field(const nlohmann::json& j, const char* key) {
    auto it = j.find(key);
    return it == j.end() ? nullptr : &*it;
}

// A required integer key; range rules are validateTransformerConfig's, so that a config built in code gets the
// same messages.
int requiredInt(const nlohmann::json& j, const char* key) {
    const nlohmann::json* v = field(j, key);
    if (!v) throw ModelError(std::string("config: missing required key \"") + key + "\" (transformer)");
    if (!v->is_number_integer()) throw ModelError(std::string("config: \"") + key + "\" must be an integer");
    const auto x = v->get<long long>();
    if (x < -(1 << 20) || x > (1 << 20))
        throw ModelError(std::string("config: \"") + key + "\" = " + std::to_string(x) + " is out of range");
    return static_cast<int>(x);
}

int optionalInt(const nlohmann::json& j, const char* key, int fallback) {
    return field(j, key) ? requiredInt(j, key) : fallback;
}

bool optionalBool(const nlohmann::json& j, const char* key, bool fallback) {
    const nlohmann::json* v = field(j, key);
    if (!v) return fallback;
    if (!v->is_boolean()) throw ModelError(std::string("config: \"") + key + "\" must be true or false");
    return v->get<bool>();
}

std::string optionalString(const nlohmann::json& j, const char* key, const char* fallback) {
    const nlohmann::json* v = field(j, key);
    if (!v) return fallback;
    if (!v->is_string()) throw ModelError(std::string("config: \"") + key + "\" must be a string");
    return v->get<std::string>();
}

// Rows of the file shape (r, c...) and the product of the rest.
int64_t rowsOf(const std::vector<int64_t>& shape) { return shape[0]; }
int64_t colsOf(const std::vector<int64_t>& shape) {
    int64_t n = 1;
    for (size_t i = 1; i < shape.size(); ++i) n *= shape[i];
    return n;
}
int64_t sizeOf(const std::vector<int64_t>& shape) { return rowsOf(shape) * colsOf(shape); }

bool endsWith(const std::string& s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// Uniform in [lo, hi) from 53 random bits: the same numbers on every standard library.
double uniform(std::mt19937_64& rng, double lo, double hi) {
    return lo + (hi - lo) * (double(rng() >> 11) * 0x1.0p-53);
}

}  // namespace

std::string perSideText(int encoder, int decoder) {
    if (encoder == decoder) return std::to_string(encoder);
    return std::to_string(encoder) + " encoder / " + std::to_string(decoder) + " decoder";
}

std::string_view toString(Activation a) {
    switch (a) {
    case Activation::Relu:
        return "relu";
    case Activation::Gelu:
        return "gelu";
    case Activation::GeluTanh:
        return "gelu_new";
    case Activation::Swish:
        return "swish";
    }
    return "?";
}

Activation parseActivation(std::string_view s) {
    if (s == "relu") return Activation::Relu;
    if (s == "gelu") return Activation::Gelu;
    if (s == "gelu_new") return Activation::GeluTanh;
    if (s == "swish" || s == "silu") return Activation::Swish;
    throw ModelError("config: unknown activation " + inQuotes(s) +
                     " (expected one of \"relu\", \"gelu\", \"gelu_new\", \"swish\", \"silu\")");
}

bool TransformerConfig::isConfigured() const {
    TransformerConfig tutorial;
    tutorial.d_model = d_model;
    tutorial.encoder_nhead = encoder_nhead;
    tutorial.decoder_nhead = decoder_nhead;
    tutorial.num_encoder_layers = num_encoder_layers;
    tutorial.num_decoder_layers = num_decoder_layers;
    tutorial.encoder_dim_feedforward = encoder_dim_feedforward;
    tutorial.decoder_dim_feedforward = decoder_dim_feedforward;
    tutorial.norm_first = norm_first;
    tutorial.activation = activation == Activation::Gelu ? Activation::Gelu : Activation::Relu;
    return !(*this == tutorial);
}

namespace {

using SizeKey = std::pair<const char*, int>;

// A per-side size under the config key that holds it: the shared key when both sides have the value.
std::vector<SizeKey> sideKeys(const char* shared, const char* encoder, const char* decoder, int encoder_value,
                              int decoder_value) {
    if (encoder_value == decoder_value) return {{shared, encoder_value}};
    return {{encoder, encoder_value}, {decoder, decoder_value}};
}

}  // namespace

std::optional<TransformerSizeProblem> transformerSizeProblem(const TransformerConfig& c) {
    using Rule = TransformerSizeProblem::Rule;
    if (c.d_model < 1) return TransformerSizeProblem{Rule::AtLeastOne, "d_model", c.d_model};
    if (c.d_model % 2 != 0) return TransformerSizeProblem{Rule::EvenModelSize, "d_model", c.d_model};
    for (const auto& [key, heads] :
         sideKeys("nhead", "encoder_nhead", "decoder_nhead", c.encoder_nhead, c.decoder_nhead)) {
        if (heads < 1) return TransformerSizeProblem{Rule::AtLeastOne, key, heads};
        if (c.d_model % heads != 0) return TransformerSizeProblem{Rule::HeadsDivideModelSize, key, heads};
    }
    std::vector<SizeKey> counts{{"num_encoder_layers", c.num_encoder_layers},
                                {"num_decoder_layers", c.num_decoder_layers}};
    for (const SizeKey& k : sideKeys("dim_feedforward", "encoder_dim_feedforward", "decoder_dim_feedforward",
                                     c.encoder_dim_feedforward, c.decoder_dim_feedforward))
        counts.push_back(k);
    for (const auto& [key, value] : counts)
        if (value < 1) return TransformerSizeProblem{Rule::AtLeastOne, key, value};
    return std::nullopt;
}

void validateTransformerConfig(const TransformerConfig& c) {
    const std::optional<TransformerSizeProblem> p = transformerSizeProblem(c);
    if (!p) return;
    const std::string value = std::to_string(p->value);
    switch (p->rule) {
    case TransformerSizeProblem::Rule::AtLeastOne:
        throw ModelError(std::string("config: ") + p->key + " " + value + " must be at least 1");
    case TransformerSizeProblem::Rule::EvenModelSize:
        throw ModelError("config: d_model " + value + " must be even (the sinusoidal positions pair sin and cos)");
    case TransformerSizeProblem::Rule::HeadsDivideModelSize:
        throw ModelError(std::string("config: ") + p->key + " " + value + " does not divide d_model " +
                         std::to_string(c.d_model));
    }
}

TransformerConfig transformerConfigFromJson(const nlohmann::json& j) {
    if (!j.is_object()) throw ModelError("config: must be a JSON object");
    const std::string decoder = optionalString(j, "decoder", "");
    if (decoder != "transformer") throw ModelError("config: decoder " + inQuotes(decoder) + " is not \"transformer\"");
    for (const char* key : {"span", "window", "input_feeding", "emb_dim", "enc_hid_dim", "dec_hid_dim"})
        if (field(j, key))
            throw ModelError(std::string("config: key \"") + key + "\" does not apply to decoder \"transformer\"");
    const std::string score = optionalString(j, "score", "scaled_dot");
    if (score != "scaled_dot")
        throw ModelError("config: score " + inQuotes(score) + " does not apply to decoder \"transformer\" (only " +
                         "\"scaled_dot\" may be given)");
    TransformerConfig c;
    c.d_model = requiredInt(j, "d_model");
    const int nhead = requiredInt(j, "nhead"), dim_feedforward = requiredInt(j, "dim_feedforward");
    c.encoder_nhead = optionalInt(j, "encoder_nhead", nhead);
    c.decoder_nhead = optionalInt(j, "decoder_nhead", nhead);
    c.num_encoder_layers = requiredInt(j, "num_encoder_layers");
    c.num_decoder_layers = requiredInt(j, "num_decoder_layers");
    c.encoder_dim_feedforward = optionalInt(j, "encoder_dim_feedforward", dim_feedforward);
    c.decoder_dim_feedforward = optionalInt(j, "decoder_dim_feedforward", dim_feedforward);
    c.norm_first = optionalBool(j, "norm_first", false);
    c.activation = parseActivation(optionalString(j, "activation", "relu"));
    validateTransformerConfig(c);
    return c;
}

nlohmann::json transformerConfigToJson(const TransformerConfig& c) {
    nlohmann::json j = {{"decoder", "transformer"},
                        {"d_model", c.d_model},
                        {"nhead", c.encoder_nhead},
                        {"num_encoder_layers", c.num_encoder_layers},
                        {"num_decoder_layers", c.num_decoder_layers},
                        {"dim_feedforward", c.encoder_dim_feedforward},
                        {"norm_first", c.norm_first},
                        {"activation", std::string(toString(c.activation))}};
    if (!c.sameHeads()) {
        j["encoder_nhead"] = c.encoder_nhead;
        j["decoder_nhead"] = c.decoder_nhead;
    }
    if (!c.sameFeedForward()) {
        j["encoder_dim_feedforward"] = c.encoder_dim_feedforward;
        j["decoder_dim_feedforward"] = c.decoder_dim_feedforward;
    }
    if (!c.isConfigured()) return j;  // the tutorial's keys alone, as attnviz files hold them
    j["final_norms"] = c.final_norms;
    j["scale_embedding"] = c.scale_embedding;
    j["positions"] = c.positions == PositionLayout::Halves ? "halves" : "interleaved";
    j["max_positions"] = c.max_positions;
    j["shared_embeddings"] = c.shared_embeddings;
    j["tied_output"] = c.tied_output;
    j["forbidden_outputs"] = c.forbidden_outputs;
    return j;
}

void detail::checkLayerCounts(size_t encoder_layers, size_t decoder_layers, const TransformerConfig& c) {
    if (encoder_layers != size_t(c.num_encoder_layers) || decoder_layers != size_t(c.num_decoder_layers))
        throw std::logic_error("transformer params: the layer lists are not sized for the config");
}

template <typename S>
void resizeTransformerParams(TransformerParamsT<S>& p, const TransformerShape& s) {
    validateTransformerConfig(s.config);
    p = TransformerParamsT<S>{};
    p.encoder_layers.resize(s.config.num_encoder_layers);
    p.decoder_layers.resize(s.config.num_decoder_layers);
    forEachTransformerTensor(p, s, [](const std::string&, const std::vector<int64_t>& shape, auto& t) {
        if constexpr (std::decay_t<decltype(t)>::IsVectorAtCompileTime)
            t.setZero(sizeOf(shape));
        else
            t.setZero(rowsOf(shape), colsOf(shape));
    });
}

int64_t transformerParameterCount(const TransformerShape& s) {
    TransformerParamsT<float> p;  // unsized: only the names and shapes are read
    p.encoder_layers.resize(s.config.num_encoder_layers);
    p.decoder_layers.resize(s.config.num_decoder_layers);
    int64_t n = 0;
    forEachTransformerTensor(p, s,
                             [&](const std::string&, const std::vector<int64_t>& shape, auto&) { n += sizeOf(shape); });
    return n;
}

template <typename S>
TransformerShape shapeOf(const TransformerParamsT<S>& p, const TransformerConfig& c) {
    return {c, int(sourceTable(p, c).rows()), int(p.tgt_embedding.rows()), int(p.pos_embedding.rows()),
            int(p.decoder_pos_embedding.rows())};
}

void checkTransformerParams(const TransformerParams& p, const TransformerConfig& c) {
    validateTransformerConfig(c);
    if (p.encoder_layers.size() != size_t(c.num_encoder_layers) ||
        p.decoder_layers.size() != size_t(c.num_decoder_layers))
        throw ModelError("transformer params: " + std::to_string(p.encoder_layers.size()) + " encoder and " +
                         std::to_string(p.decoder_layers.size()) + " decoder layers, the config has " +
                         std::to_string(c.num_encoder_layers) + " and " + std::to_string(c.num_decoder_layers));
    forEachTransformerTensor(p, shapeOf(p, c), [](const std::string& name, const std::vector<int64_t>& shape, auto& t) {
        const bool ok = std::decay_t<decltype(t)>::IsVectorAtCompileTime
                            ? t.size() == sizeOf(shape)
                            : t.rows() == rowsOf(shape) && t.cols() == colsOf(shape);
        if (!ok) {
            std::string expected;
            for (int64_t n : shape) expected += (expected.empty() ? "" : " x ") + std::to_string(n);
            throw ModelError("transformer params: tensor \"" + name + "\" has " + std::to_string(t.size()) +
                             " values, expected shape " + expected);
        }
    });
}

template <typename To, typename From>
TransformerParamsT<To> castTransformerParams(const TransformerParamsT<From>& p, const TransformerShape& s) {
    TransformerParamsT<To> out;
    resizeTransformerParams(out, s);
    std::vector<const From*> sources;
    forEachTransformerTensor(
        p, s, [&](const std::string&, const std::vector<int64_t>&, const auto& t) { sources.push_back(t.data()); });
    size_t i = 0;
    forEachTransformerTensor(out, s, [&](const std::string&, const std::vector<int64_t>&, auto& t) {
        for (Eigen::Index k = 0; k < t.size(); ++k) t.data()[k] = To(sources[i][k]);
        ++i;
    });
    return out;
}

template <typename S>
TMat<S> sinusoidalPositions(int rows, int d_model, int first_row, PositionLayout layout) {
    TMat<S> pe(rows, d_model);
    const int half = d_model / 2;
    for (int r = 0; r < rows; ++r)
        for (int k = 0; 2 * k < d_model; ++k) {
            const double angle = double(first_row + r) / std::pow(10000.0, 2.0 * k / d_model);
            if (layout == PositionLayout::Halves) {
                pe(r, k) = S(std::sin(angle));
                if (half + k < d_model) pe(r, half + k) = S(std::cos(angle));
            } else {
                pe(r, 2 * k) = S(std::sin(angle));
                if (2 * k + 1 < d_model) pe(r, 2 * k + 1) = S(std::cos(angle));
            }
        }
    return pe;
}

template <typename S>
void initTransformerParams(TransformerParamsT<S>& p, const TransformerShape& s, const TransformerInit& init) {
    resizeTransformerParams(p, s);
    std::mt19937_64 rng(init.seed);
    int64_t last_fan_in = 1;  // the columns of the weight a bias follows in the list
    forEachTransformerTensor(p, s, [&](const std::string& name, const std::vector<int64_t>& shape, auto& t) {
        if (name.starts_with("positional_encoding.")) {
            t = sinusoidalPositions<S>(int(rowsOf(shape)), s.config.d_model, 0, s.config.positions);
        } else if (shape.size() >= 2) {  // xavier_uniform_: fan_in = columns, fan_out = rows
            last_fan_in = colsOf(shape);
            const double bound = std::sqrt(6.0 / double(rowsOf(shape) + colsOf(shape)));
            for (Eigen::Index k = 0; k < t.size(); ++k) t.data()[k] = S(uniform(rng, -bound, bound));
        } else {
            const bool is_norm = name.find(".norm") != std::string::npos;
            const bool is_attention_bias = endsWith(name, "in_proj_bias") || endsWith(name, "out_proj.bias");
            double base = is_norm && endsWith(name, ".weight") ? 1.0 : 0.0;
            double half_width = is_norm || is_attention_bias ? 0.0 : 1.0 / std::sqrt(double(last_fan_in));
            if (init.perturb_all && half_width == 0.0) half_width = 0.5;
            for (Eigen::Index k = 0; k < t.size(); ++k)
                t.data()[k] = S(base + (half_width > 0 ? uniform(rng, -half_width, half_width) : 0.0));
        }
    });
}

template void resizeTransformerParams(TransformerParamsT<float>&, const TransformerShape&);
template void resizeTransformerParams(TransformerParamsT<double>&, const TransformerShape&);
template TransformerShape shapeOf(const TransformerParamsT<float>&, const TransformerConfig&);
template TransformerShape shapeOf(const TransformerParamsT<double>&, const TransformerConfig&);
template TransformerParamsT<double> castTransformerParams(const TransformerParamsT<float>&, const TransformerShape&);
template TransformerParamsT<float> castTransformerParams(const TransformerParamsT<double>&, const TransformerShape&);
template TransformerParamsT<float> castTransformerParams(const TransformerParamsT<float>&, const TransformerShape&);
template TMat<float> sinusoidalPositions(int, int, int, PositionLayout);
template TMat<double> sinusoidalPositions(int, int, int, PositionLayout);
template void initTransformerParams(TransformerParamsT<float>&, const TransformerShape&, const TransformerInit&);
template void initTransformerParams(TransformerParamsT<double>&, const TransformerShape&, const TransformerInit&);

}  // namespace attnviz
