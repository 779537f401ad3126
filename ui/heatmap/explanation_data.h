// The heatmap of an explanation (core/explain, docs/explain.md): the method's T × S matrix on the decode's tokens,
// and the method's name for the toolbar, titles, the colour scale and exports.
#pragma once
#include "explain/explanation.h"
#include "heatmap/heatmap_data.h"
#include "heatmap/heatmap_export.h"

#include <QString>

namespace attnviz::ui {

// The decode's tokens with the explanation's values as the cells (no raw scores: they belong to attention).
HeatmapData explanationData(const DecodeResult& r, const Explanation& e);
// `base` for drawing `e` (nullptr: the attention): signed methods on the diverging map centred on 0, every method
// but attention on a scale fitted to its values, labelled with the method's name.
HeatmapStyle explanationStyle(HeatmapStyle base, const Explanation* e);
// "Integrated gradients" (translated); attention is "Attention".
QString explainMethodTitle(ExplainMethod method);
// A short name for narrow places ("IG", "Grad × input"; translated).
QString explainMethodShortTitle(ExplainMethod method);
// One line on what the method's numbers are, for tooltips and status tips (translated).
QString explainMethodHint(ExplainMethod method);

// exportHeatmap for an explanation shown in place of the attention: png/svg/pdf draw `data` (the explanation's
// matrix) with options.style, the title naming options.interventions; csv writes the explanation's matrix on the
// decode's tokens (the interventions in its first header cell); json the decode object with docs/explain.md's keys
// ("explanations" holding this method's matrix) and the "interventions" object, as `explain --json` writes it.
bool exportExplanation(const HeatmapData& data, const DecodeResult& result, const Explanation& e, const Model& model,
                       const QString& path, const ExportOptions& options, QString* error);

}  // namespace attnviz::ui
