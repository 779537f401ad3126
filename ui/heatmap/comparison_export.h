// Two models on one sentence as a figure and as numbers: A's heatmap, B's (forced onto A's target) and the
// difference B − A on a diverging scale centred on 0, side by side, each drawn by HeatmapRenderer as any export; the
// numbers are core's (eval/compare.h, eval/compare_json.h). Shared by the window's compare view and
// `attnviz-cli render --with`.
#pragma once
#include "decode/attention_views.h"
#include "decode/decoding.h"
#include "heatmap/heatmap_export.h"
#include "io/corpus.h"

#include <QString>
#include <optional>
#include <string>
#include <vector>

namespace attnviz::ui {

struct ModelComparison {
    // The same rows and columns (B forced onto A's target); each `attention` is the cross-attention compared
    // (eval/compare_heads.h: withComparedAttention of the decode with a_view / b_view).
    DecodeResult a, b;
    AttentionView a_view, b_view;  // which cross-attention each side shows: the titles and the JSON say so
    QString a_name, b_name;        // the models (paths or file names): the JSON's model / with; the titles' file names
    // Gold links of A's target (a forced reference, Pharaoh indices): each model's AER in the JSON.
    std::optional<GoldAlignment> gold;
    // The difference's scale spans ± its largest |value| (the window's view: differences are often small), else it
    // follows the base style's fit_range (−1 to 1 by default).
    bool fit_difference = false;
    // B's rows when they are not a model's attention but an explanation method's (the compare view's "This model:
    // METHOD"): its name for the JSON ("method_b") and what the rows are for B's title and colour scale.
    std::string b_method;
    QString b_shows;
};

// B − A cell by cell (core's attentionDifference) with A's tokens; InputError when the shapes differ.
HeatmapData differenceData(const DecodeResult& a, const DecodeResult& b);
// `base` for a difference map: diverging, the scale labelled "B − A", no title.
HeatmapStyle differenceStyle(HeatmapStyle base);
// A, B and B − A, titled with the models' file names (without what both names start with) and, for a Transformer,
// the cross-attention shown on a second line ("A: transformer" over "layer 2 · head 3"), each with `base`'s colour map and toggles (the
// difference diverging). With a second line in one title, every title has two, so that the maps line up.
std::vector<HeatmapPanel> comparisonPanels(const ModelComparison& c, const HeatmapStyle& base);

// The comparison's numbers: "csv" a line of distances per target token (comparisonToCsv), else the JSON
// (writeComparisonMembers, pretty-printed, with a final newline; head_a and head_b added when a side shows a chosen head).
std::string comparisonNumbers(const ModelComparison& c, const QString& format);

// png/svg/pdf: the three panels across options.width (options.style is the base style); csv: a line of distances
// per target token (comparisonToCsv); json: writeComparisonMembers. Returns false and sets *error ("PATH: what").
// Which cross-attention a side shows, for titles and choosers (translated, layers and heads from 1): "layer 2 · head
// 3", "layer 2 · mean of heads", or for the default "mean of heads, last layer" (a Transformer, nhead > 0) and ""
// (an RNN model: its one attention needs no name).
QString comparedAttentionName(const AttentionView& view, int nhead);

bool exportComparison(const ModelComparison& c, const QString& path, const ExportOptions& options, QString* error);

}  // namespace attnviz::ui
