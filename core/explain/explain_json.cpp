#include "explain/explain_json.h"

#include <string>
#include <string_view>

namespace attnviz {

void writeExplanationMembers(JsonWriter& w, const std::vector<Explanation>& explanations, const ExplainOptions& options,
                             const Model& model) {
    w.key("explanations").beginObject();
    for (const Explanation& e : explanations) {
        w.key(methodInfo(e.method).name).beginArray();
        for (Eigen::Index t = 0; t < e.values.rows(); ++t) {
            w.beginArray();
            for (Eigen::Index j = 0; j < e.values.cols(); ++j) w.number(double(e.values(t, j)));
            w.endArray();
        }
        w.endArray();
    }
    w.endObject();
    for (const Explanation& e : explanations) {
        if (e.method != ExplainMethod::IntegratedGradients) continue;
        w.key("ig_steps").integer(options.ig_steps);
        w.key("ig_delta").beginArray();
        for (double d : e.ig_delta) w.number(d);
        w.endArray();
    }
    if (options.contrast) {
        w.key("contrast").beginObject();
        w.key("row").integer(options.contrast->row);
        w.key("token").string(model.target_vocab.token(options.contrast->token));
        w.endObject();
    }
}

}  // namespace attnviz
