#include "eval/compare_json.h"

#include "io/decode_json.h"

namespace attnviz {

namespace {

nlohmann::ordered_json matrixJson(const std::vector<std::vector<float>>& m) {
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    for (const std::vector<float>& row : m) {
        nlohmann::ordered_json r = nlohmann::ordered_json::array();
        for (const float v : row) r.push_back(static_cast<double>(v));
        rows.push_back(std::move(r));
    }
    return rows;
}

}  // namespace

nlohmann::ordered_json comparisonSummaryJson(const AttentionComparisonCounts& c) {
    const AttentionComparison s = comparisonSummary(c);
    nlohmann::ordered_json j;
    j["rows"] = s.rows;
    j["tv"] = s.mean_tv;
    j["js"] = s.mean_js;
    j["argmax_agreement"] = s.argmax_agreement;
    j["entropy_a"] = s.mean_entropy_a;
    j["entropy_b"] = s.mean_entropy_b;
    if (s.aer_a) {
        j["aer_a"] = *s.aer_a;
        j["aer_b"] = *s.aer_b;
    }
    return j;
}

nlohmann::ordered_json headChoiceJson(const AttentionView& view) {
    if (view.isDefault()) return nullptr;
    nlohmann::ordered_json j;
    j["layer"] = view.layer + 1;
    if (view.head < 0)
        j["head"] = "mean";
    else
        j["head"] = view.head + 1;
    return j;
}

nlohmann::ordered_json comparisonToJson(const DecodeResult& a, const DecodeResult& b, const std::string& a_name,
                                        const std::string& b_name, const GoldAlignment* gold) {
    const std::vector<RowComparison> rows = compareRows(a, b);  // checks the shapes first
    nlohmann::ordered_json j;
    j["model"] = a_name;
    j["with"] = b_name;
    j["log_base"] = "e";
    j["source_tokens"] = a.source_tokens;
    j["target_tokens"] = a.target_tokens;
    j.update(comparisonSummaryJson(compareAttention(a, b, gold)));
    nlohmann::ordered_json per_row = nlohmann::ordered_json::array();
    for (size_t t = 0; t < rows.size(); ++t) {
        const RowComparison& r = rows[t];
        nlohmann::ordered_json o;
        o["target"] = t < a.target_tokens.size() ? a.target_tokens[t] : std::string();
        o["tv"] = r.tv;
        o["js"] = r.js;
        o["argmax_a"] = r.argmax_a;
        o["argmax_b"] = r.argmax_b;
        o["agree"] = r.agree();
        o["entropy_a"] = r.entropy_a;
        o["entropy_b"] = r.entropy_b;
        per_row.push_back(std::move(o));
    }
    j["per_row"] = std::move(per_row);
    j["attention_a"] = matrixJson(a.attention);
    j["attention_b"] = matrixJson(b.attention);
    j["difference"] = matrixJson(attentionDifference(a, b));
    return j;
}

std::string comparisonToCsv(const DecodeResult& a, const DecodeResult& b) {
    const std::vector<RowComparison> rows = compareRows(a, b);
    std::string out = "target,tv,js,argmax_a,argmax_b,agree,entropy_a,entropy_b\n";
    for (size_t t = 0; t < rows.size(); ++t) {
        const RowComparison& r = rows[t];
        out += csvField(t < a.target_tokens.size() ? a.target_tokens[t] : std::string());
        for (const double v : {r.tv, r.js}) out += ',' + formatFloat(v);
        out += ',' + std::to_string(r.argmax_a) + ',' + std::to_string(r.argmax_b) + ',' + (r.agree() ? "1" : "0");
        for (const double v : {r.entropy_a, r.entropy_b}) out += ',' + formatFloat(v);
        out += '\n';
    }
    return out;
}

}  // namespace attnviz
