#include "explain/explain_json.h"

#include "io/decode_json.h"

#include <cmath>

namespace attnviz {
namespace {

nlohmann::json matrixJson(const Mat& m) {
    nlohmann::json rows = nlohmann::json::array();
    for (Eigen::Index t = 0; t < m.rows(); ++t) {
        nlohmann::json row = nlohmann::json::array();
        for (Eigen::Index j = 0; j < m.cols(); ++j) row.push_back(jsonNumber(double(m(t, j))));
        rows.push_back(std::move(row));
    }
    return rows;
}

}  // namespace

void addExplanationsToJson(nlohmann::json& decode_object, const std::vector<Explanation>& explanations,
                           const ExplainOptions& options, const Model& model) {
    nlohmann::json all = nlohmann::json::object();
    for (const Explanation& e : explanations) {
        all[methodInfo(e.method).name] = matrixJson(e.values);
        if (e.method != ExplainMethod::IntegratedGradients) continue;
        decode_object["ig_steps"] = options.ig_steps;
        nlohmann::json delta = nlohmann::json::array();
        for (double d : e.ig_delta) delta.push_back(jsonNumber(d));
        decode_object["ig_delta"] = std::move(delta);
    }
    decode_object["explanations"] = std::move(all);
    if (options.contrast)
        decode_object["contrast"] = {{"row", options.contrast->row},
                                     {"token", model.target_vocab.token(options.contrast->token)}};
}

}  // namespace attnviz
