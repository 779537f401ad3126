#include "io/decode_json.h"

#include "base/errors.h"

#include <charconv>
#include <cmath>
#include <limits>

namespace attnviz {
namespace {

// A float as the equal double, or null when not finite (JSON has no NaN / Inf).
template <typename Json>
Json number(double v) {
    if (!std::isfinite(v)) return nullptr;
    return v;
}

template <typename Json>
Json floatArray(const std::vector<float>& v) {
    Json a = Json::array();
    a.template get_ref<typename Json::array_t&>().reserve(v.size());
    for (float x : v) a.push_back(number<Json>(static_cast<double>(x)));
    return a;
}

// configToJson's object with its keys in the spec's order (ordered_json keeps it; nlohmann::json sorts anyway).
template <typename Json>
Json orderedConfig(const ModelConfig& config) {
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

// Built as nlohmann::json (sorted keys) for callers, as ordered_json (the spec's key order) for the text.
template <typename Json>
Json buildDecodeObject(const DecodeResult& r, const ModelConfig& config) {
    Json attention = Json::array();
    for (const auto& row : r.attention) attention.push_back(floatArray<Json>(row));
    Json j = Json::object();
    j["source_tokens"] = r.source_tokens;
    j["source_ids"] = r.source_ids;
    j["target_tokens"] = r.target_tokens;
    j["target_ids"] = r.target_ids;
    j["attention"] = std::move(attention);
    j["log_probs"] = floatArray<Json>(r.log_probs);
    j["total_log_prob"] = number<Json>(r.total_log_prob);
    j["config"] = orderedConfig<Json>(config);
    return j;
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

std::string csvField(const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string out = "\"";
    for (char c : s) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

}  // namespace

std::string formatFloat(double value) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
    char buf[32];
    const auto [ptr, ec] = std::to_chars(buf, buf + sizeof buf, value);  // shortest round-trip text
    return std::string(buf, ptr);
}

nlohmann::json decodeToJson(const DecodeResult& r, const ModelConfig& config) {
    return buildDecodeObject<nlohmann::json>(r, config);
}

std::string decodeToJsonText(const DecodeResult& result, const ModelConfig& config, int indent) {
    // Tokens are valid UTF-8 (the tokenizer checks); `replace` keeps a stray byte from aborting an export.
    return buildDecodeObject<nlohmann::ordered_json>(result, config)
        .dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
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
    if (config) {
        try {
            *config = configFromJson(need(j, "config"));
        } catch (const ModelError& e) {
            throw InputError(std::string("decode object: ") + e.what());
        }
    }
    return r;
}

std::string decodeToCsv(const DecodeResult& r) {
    std::string out = "target\\source";
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
