#include "heatmap/explanation_data.h"

#include "explain/explain_json.h"
#include "heatmap/intervention_marks.h"
#include "io/decode_json.h"

#include <QCoreApplication>

namespace attnviz::ui {

HeatmapData explanationData(const DecodeResult& r, const Explanation& e) {
    HeatmapData d = HeatmapData::fromDecode(r);
    d.scores.clear();
    d.weights.assign(size_t(e.values.rows()), {});
    for (Eigen::Index t = 0; t < e.values.rows(); ++t)
        d.weights[size_t(t)].assign(e.values.row(t).data(), e.values.row(t).data() + e.values.cols());
    return d;
}

HeatmapStyle explanationStyle(HeatmapStyle base, const Explanation* e) {
    base.diverging = e && methodInfo(e->method).is_signed;
    base.fit_range = e != nullptr;
    base.scale_label = e ? explainMethodTitle(e->method) : QString();
    return base;
}

QString explainMethodTitle(ExplainMethod method) {
    switch (method) {
    case ExplainMethod::Attention:
        return QCoreApplication::translate("attnviz::ui::Explanation", "Attention");
    case ExplainMethod::Norm:
        return QCoreApplication::translate("attnviz::ui::Explanation", "Norm-weighted attention");
    case ExplainMethod::GradInput:
        return QCoreApplication::translate("attnviz::ui::Explanation", "Gradient × input");
    case ExplainMethod::GradNorm:
        return QCoreApplication::translate("attnviz::ui::Explanation", "Gradient norm");
    case ExplainMethod::IntegratedGradients:
        return QCoreApplication::translate("attnviz::ui::Explanation", "Integrated gradients");
    case ExplainMethod::Occlusion:
        return QCoreApplication::translate("attnviz::ui::Explanation", "Occlusion");
    case ExplainMethod::Rollout:
        return QCoreApplication::translate("attnviz::ui::Explanation", "Attention rollout");
    }
    return {};
}

QString explainMethodShortTitle(ExplainMethod method) {
    switch (method) {
    case ExplainMethod::Attention:
        return QCoreApplication::translate("attnviz::ui::Explanation", "Attention");
    case ExplainMethod::Norm:
        return QCoreApplication::translate("attnviz::ui::Explanation", "Norm");
    case ExplainMethod::GradInput:
        return QCoreApplication::translate("attnviz::ui::Explanation", "Grad × input");
    case ExplainMethod::GradNorm:
        return QCoreApplication::translate("attnviz::ui::Explanation", "Grad norm");
    case ExplainMethod::IntegratedGradients:
        return QCoreApplication::translate("attnviz::ui::Explanation", "IG");
    case ExplainMethod::Occlusion:
        return QCoreApplication::translate("attnviz::ui::Explanation", "Occlusion");
    case ExplainMethod::Rollout:
        return QCoreApplication::translate("attnviz::ui::Explanation", "Rollout");
    }
    return {};
}

QString explainMethodHint(ExplainMethod method) {
    switch (method) {
    case ExplainMethod::Attention:
        return QCoreApplication::translate("attnviz::ui::Explanation", "The model's own attention weights");
    case ExplainMethod::Norm:
        return QCoreApplication::translate(
            "attnviz::ui::Explanation",
            "Attention weight times the size of what each source word adds (Kobayashi et al.)");
    case ExplainMethod::GradInput:
        return QCoreApplication::translate(
            "attnviz::ui::Explanation",
            "How log p of each output token changes with each source word's embedding, times that embedding "
            "(signed)");
    case ExplainMethod::GradNorm:
        return QCoreApplication::translate("attnviz::ui::Explanation",
                                           "The size of the gradient of log p with respect to each source word");
    case ExplainMethod::IntegratedGradients:
        return QCoreApplication::translate(
            "attnviz::ui::Explanation",
            "Gradients averaged from an all-zero source to the real one, times the embedding; each row sums to "
            "the change of log p (signed)");
    case ExplainMethod::Occlusion:
        return QCoreApplication::translate("attnviz::ui::Explanation",
                                           "How much log p falls when the source word is replaced by <unk> (signed)");
    case ExplainMethod::Rollout:
        return QCoreApplication::translate(
            "attnviz::ui::Explanation",
            "Attention carried through the encoder's self-attention layers (Abnar & Zuidema)");
    }
    return {};
}

bool exportExplanation(const HeatmapData& data, const DecodeResult& result, const Explanation& e, const Model& model,
                       const QString& path, const ExportOptions& options, QString* error) {
    const Interventions& iv = options.interventions;
    ExportOptions o = options;
    o.style.title = titleWithInterventions(options.style.title, iv, data.source_tokens);
    return exportPanels({HeatmapPanel{data, o.style}}, path, o, error, [&](const QString& format) {
        if (format == QLatin1String("csv")) {
            DecodeResult shown = result;  // the method's matrix in the attention's place: the table of what is drawn
            shown.attention.clear();
            for (Eigen::Index t = 0; t < e.values.rows(); ++t)
                shown.attention.emplace_back(e.values.row(t).data(), e.values.row(t).data() + e.values.cols());
            return decodeToCsv(shown, iv);
        }
        ExplainOptions computed_with;  // what the JSON names: the explanation's own steps and contrast
        computed_with.ig_steps = e.ig_steps > 0 ? e.ig_steps : kDefaultIgSteps;
        computed_with.contrast = e.contrast;
        std::string text;  // the decode object of `explain --json`, written piece by piece
        JsonWriter w([&](std::string_view piece) { text += piece; }, 2);
        w.beginObject();
        writeDecodeMembers(w, result, model.config, iv, options.context);
        writeExplanationMembers(w, {e}, computed_with, model);
        w.endObject().flush();
        return text + "\n";
    });
}

}  // namespace attnviz::ui
