#include "eval/compare_json.h"

#include "io/decode_json.h"

namespace attnviz {

namespace {

// T rows of S numbers.
void writeMatrix(JsonWriter& w, const std::vector<std::vector<float>>& m) {
    w.beginArray();
    for (const std::vector<float>& row : m) w.numbers(row);
    w.endArray();
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

void writeComparisonMembers(JsonWriter& w, const DecodeResult& a, const DecodeResult& b, const std::string& a_name,
                            const std::string& b_name, const GoldAlignment* gold) {
    const std::vector<RowComparison> rows = compareRows(a, b);  // checks the shapes first
    w.key("model").string(a_name);
    w.key("with").string(b_name);
    w.key("log_base").string("e");
    w.key("source_tokens").strings(a.source_tokens);
    w.key("target_tokens").strings(a.target_tokens);
    const nlohmann::ordered_json summary = comparisonSummaryJson(compareAttention(a, b, gold));
    for (const auto& [key, value] : summary.items()) w.key(key).value(value);
    w.key("per_row").beginArray();
    for (size_t t = 0; t < rows.size(); ++t) {
        const RowComparison& r = rows[t];
        w.beginObject();
        w.key("target").string(t < a.target_tokens.size() ? a.target_tokens[t] : std::string());
        w.key("tv").number(r.tv);
        w.key("js").number(r.js);
        w.key("argmax_a").integer(r.argmax_a);
        w.key("argmax_b").integer(r.argmax_b);
        w.key("agree").value(r.agree());
        w.key("entropy_a").number(r.entropy_a);
        w.key("entropy_b").number(r.entropy_b);
        w.endObject();
    }
    w.endArray();
    w.key("attention_a");
    writeMatrix(w, a.attention);
    w.key("attention_b");
    writeMatrix(w, b.attention);
    w.key("difference");
    writeMatrix(w, attentionDifference(a, b));
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
