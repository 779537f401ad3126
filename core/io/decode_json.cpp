#include "io/decode_json.h"

#include "base/errors.h"
#include "model/model_kind.h"

#include <charconv>
#include <cmath>
#include <limits>

namespace attnviz {
namespace {

// [layer][head] matrices as nested arrays, layer × head × rows × columns.
void writeHeads(JsonWriter& w, const std::vector<std::vector<Mat>>& layers) {
    w.beginArray();
    for (const auto& heads : layers) {
        w.beginArray();
        for (const Mat& m : heads) {
            w.beginArray();
            for (Eigen::Index i = 0; i < m.rows(); ++i) {
                w.beginArray();
                for (Eigen::Index k = 0; k < m.cols(); ++k) w.number(static_cast<double>(m(i, k)));
                w.endArray();
            }
            w.endArray();
        }
        w.endArray();
    }
    w.endArray();
}

// configToJson's object with its keys in docs/model-format.md's order.
nlohmann::ordered_json orderedConfig(const ModelConfig& config) {
    using Json = nlohmann::ordered_json;
    const nlohmann::json c = configToJson(config);
    Json out = Json::object();
    for (const char* key :
         {"decoder", "score", "span", "window", "input_feeding", "emb_dim", "enc_hid_dim", "dec_hid_dim"})
        if (c.contains(key)) out[key] = Json::parse(c[key].dump());
    if (c.contains("tokenizer")) {
        Json t = Json::object();
        for (const char* key : {"source", "target", "lowercase"})
            if (c["tokenizer"].contains(key)) t[key] = Json::parse(c["tokenizer"][key].dump());
        out["tokenizer"] = std::move(t);
    }
    for (const auto& [key, value] : c.items())  // any key added to configToJson later
        if (!out.contains(key)) out[key] = Json::parse(value.dump());
    return out;
}

const nlohmann::json& need(const nlohmann::json& j, const char* key) {
    auto it = j.find(key);
    if (it == j.end()) throw InputError(std::string("decode object: missing key \"") + key + "\"");
    return *it;
}

std::vector<std::string> stringArray(const nlohmann::json& j, const char* key) {
    const nlohmann::json& a = need(j, key);
    if (!a.is_array()) throw InputError(std::string("decode object: \"") + key + "\" must be an array of strings");
    std::vector<std::string> out;
    out.reserve(a.size());
    for (const auto& x : a) {
        if (!x.is_string()) throw InputError(std::string("decode object: \"") + key + "\" must be an array of strings");
        out.push_back(x.get<std::string>());
    }
    return out;
}

std::vector<int> intArray(const nlohmann::json& j, const char* key) {
    const nlohmann::json& a = need(j, key);
    if (!a.is_array()) throw InputError(std::string("decode object: \"") + key + "\" must be an array of integers");
    std::vector<int> out;
    out.reserve(a.size());
    for (const auto& x : a) {
        if (!x.is_number_integer() || x.get<long long>() < 0 || x.get<long long>() > std::numeric_limits<int>::max())
            throw InputError(std::string("decode object: \"") + key + "\" must be an array of non-negative integers");
        out.push_back(x.get<int>());
    }
    return out;
}

float toFloat(const nlohmann::json& x, const char* key) {
    if (x.is_null()) return std::numeric_limits<float>::quiet_NaN();
    if (!x.is_number()) throw InputError(std::string("decode object: \"") + key + "\" must hold numbers");
    return static_cast<float>(x.get<double>());
}

// An optional [layer][head] key: every matrix rows × cols, every layer with the same number of heads.
std::vector<std::vector<Mat>> headMatrices(const nlohmann::json& j, const char* key, size_t rows, size_t cols) {
    std::vector<std::vector<Mat>> out;
    auto it = j.find(key);
    if (it == j.end()) return out;
    const std::string where = std::string("decode object: \"") + key + "\"";
    const std::string shape = std::to_string(rows) + " x " + std::to_string(cols);
    if (!it->is_array()) throw InputError(where + " must be an array of layers");
    for (const nlohmann::json& layer : *it) {
        if (!layer.is_array() || layer.empty() || (!out.empty() && layer.size() != out[0].size()))
            throw InputError(where + " must hold the same number of heads in every layer");
        std::vector<Mat> heads;
        for (const nlohmann::json& m : layer) {
            if (!m.is_array() || m.size() != rows) throw InputError(where + ": every head must be " + shape);
            Mat mat(static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(cols));
            for (size_t i = 0; i < rows; ++i) {
                if (!m[i].is_array() || m[i].size() != cols) throw InputError(where + ": every head must be " + shape);
                for (size_t k = 0; k < cols; ++k) mat(Eigen::Index(i), Eigen::Index(k)) = toFloat(m[i][k], key);
            }
            heads.push_back(std::move(mat));
        }
        out.push_back(std::move(heads));
    }
    return out;
}

}  // namespace

std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

std::string formatFloat(double value) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    char buf[32];
    const auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, value);  // shortest round-trip text
    return std::string(buf, ptr);
}

void writeDecodeMembers(JsonWriter& w, const DecodeResult& r, const ModelConfig& config, const Interventions& iv,
                        const DecodeContext& context) {
    w.key("source_tokens").strings(r.source_tokens);
    w.key("source_ids").integers(r.source_ids);
    w.key("target_tokens").strings(r.target_tokens);
    w.key("target_ids").integers(r.target_ids);
    w.key("attention").beginArray();
    for (const auto& row : r.attention) w.numbers(row);
    w.endArray();
    if (kindOffers(config).attention_heads) {  // docs/transformer.md's keys; absent for the RNN kinds
        writeHeads(w.key("cross_attention"), r.cross_attention);
        writeHeads(w.key("encoder_self_attention"), r.encoder_self_attention);
        writeHeads(w.key("decoder_self_attention"), r.decoder_self_attention);
    }
    w.key("log_probs").numbers(r.log_probs);
    w.key("total_log_prob").number(r.total_log_prob);
    if (!r.source_words.empty() || !r.target_words.empty()) {  // a SentencePiece model's (docs/marian.md)
        for (const auto& [key, spans] :
             {std::pair{"source_words", &r.source_words}, {"target_words", &r.target_words}}) {
            w.key(key).beginArray();
            for (const WordSpan& s : *spans) w.integers(std::vector<int>{s.first, s.end});
            w.endArray();
        }
        w.key("text").string(r.text);
    }
    w.key("config").value(orderedConfig(config));
    if (!iv.empty()) w.key("interventions").value(interventionsToJson(iv));
    if (!context.empty()) w.key("context").value(contextToJson(context));
}

void writeModelOrigin(JsonWriter& w, const Model& model) {
    if (!model.marian) return;
    const MarianOrigin& o = *model.marian;
    w.key("model").value(nlohmann::ordered_json{{"family", "marian"},
                                                {"folder", o.folder},
                                                {"source_lang", o.source_lang},
                                                {"target_lang", o.target_lang},
                                                {"repository", o.repository}});
}

nlohmann::json decodeToJson(const DecodeResult& r, const ModelConfig& config) {
    // From the text: one definition of the object (writeDecodeMembers), and the numbers read back exactly.
    return nlohmann::json::parse(decodeToJsonText(r, config));
}

std::string decodeToJsonText(const DecodeResult& result, const ModelConfig& config, int indent, const Interventions& iv,
                             const DecodeContext& context) {
    std::string text;
    JsonWriter w([&](std::string_view piece) { text += piece; }, indent);
    w.beginObject();
    writeDecodeMembers(w, result, config, iv, context);
    w.endObject().flush();
    return text;
}

DecodeResult decodeFromJson(const nlohmann::json& j, ModelConfig* config) {
    if (!j.is_object()) throw InputError("decode object: expected a JSON object");
    DecodeResult r;
    r.source_tokens = stringArray(j, "source_tokens");
    r.source_ids = intArray(j, "source_ids");
    r.target_tokens = stringArray(j, "target_tokens");
    r.target_ids = intArray(j, "target_ids");
    if (r.source_ids.size() != r.source_tokens.size())
        throw InputError("decode object: \"source_ids\" has " + std::to_string(r.source_ids.size()) +
                         " entries but \"source_tokens\" has " + std::to_string(r.source_tokens.size()));
    if (r.target_ids.size() != r.target_tokens.size())
        throw InputError("decode object: \"target_ids\" has " + std::to_string(r.target_ids.size()) +
                         " entries but \"target_tokens\" has " + std::to_string(r.target_tokens.size()));
    const size_t S = r.source_tokens.size(), T = r.target_tokens.size();

    const nlohmann::json& att = need(j, "attention");
    if (!att.is_array() || att.size() != T)
        throw InputError("decode object: \"attention\" must have one row per target token (" + std::to_string(T) + ")");
    for (size_t t = 0; t < T; ++t) {
        const nlohmann::json& row = att[t];
        if (!row.is_array() || row.size() != S)
            throw InputError("decode object: \"attention\" row " + std::to_string(t) +
                             " must have one value per source token (" + std::to_string(S) + ")");
        std::vector<float> v;
        v.reserve(S);
        for (const auto& x : row) v.push_back(toFloat(x, "attention"));
        r.attention.push_back(std::move(v));
    }
    const nlohmann::json& lp = need(j, "log_probs");
    if (!lp.is_array() || lp.size() != T)
        throw InputError("decode object: \"log_probs\" must have one value per target token (" + std::to_string(T) +
                         ")");
    for (const auto& x : lp) r.log_probs.push_back(toFloat(x, "log_probs"));
    const nlohmann::json& total = need(j, "total_log_prob");
    if (!total.is_number() && !total.is_null()) throw InputError("decode object: \"total_log_prob\" must be a number");
    r.total_log_prob = total.is_null() ? std::numeric_limits<double>::quiet_NaN() : total.get<double>();
    r.cross_attention = headMatrices(j, "cross_attention", T, S);
    r.encoder_self_attention = headMatrices(j, "encoder_self_attention", S, S);
    r.decoder_self_attention = headMatrices(j, "decoder_self_attention", T, T);
    if (config) {
        try {
            *config = configFromJson(need(j, "config"));
        } catch (const ModelError& e) {
            throw InputError(std::string("decode object: ") + e.what());
        }
    }
    return r;
}

std::string decodeToCsv(const DecodeResult& r, const Interventions& iv) {
    std::string out = "target\\source";
    if (!iv.empty()) out = csvField(out + " interventions " + interventionsToJson(iv).dump());
    for (const std::string& s : r.source_tokens) {
        out += ',';
        out += csvField(s);
    }
    out += '\n';
    for (size_t t = 0; t < r.target_tokens.size(); ++t) {
        out += csvField(r.target_tokens[t]);
        if (t < r.attention.size())
            for (float a : r.attention[t]) {
                out += ',';
                out += formatFloat(static_cast<double>(a));
            }
        out += '\n';
    }
    return out;
}

}  // namespace attnviz
