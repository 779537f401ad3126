// What a heatmap shows: tokens and the engine's numbers, copied from a DecodeResult (never recomputed here).
#pragma once
#include "decode/decoding.h"
#include "eval/alignment.h"
#include "heatmap/utf8_text.h"

#include <QColor>
#include <QString>
#include <QStringList>
#include <QVector>
#include <vector>

namespace attnviz::ui {

struct HeatmapData {
    QStringList source_tokens;                // columns, <sos> ... <eos>
    QStringList target_tokens;                // rows, one per produced token (<eos> included)
    std::vector<std::vector<float>> weights;  // (T, S) attention a, as the engine computed it
    std::vector<std::vector<float>> scores;   // (T, S) raw e_j (NaN outside a local window); may be empty
    // A causal self-attention (decoder self-attention, heatmap/attention_view_data.h): the cells above the diagonal
    // (exact zeros, masked in the engine) are drawn empty rather than as weight 0.
    bool causal = false;

    int rows() const { return int(target_tokens.size()); }
    int cols() const { return int(source_tokens.size()); }
    bool isEmpty() const { return target_tokens.isEmpty() || source_tokens.isEmpty(); }

    static HeatmapData fromDecode(const DecodeResult& r) {
        HeatmapData d;
        for (const auto& t : r.source_tokens) d.source_tokens << qs(t);
        for (const auto& t : r.target_tokens) d.target_tokens << qs(t);
        d.weights = r.attention;
        d.scores = r.scores;
        return d;
    }
};

// A gold-alignment mark on one cell (heatmap/alignment_marks.h), in data indices: row = target word j, col = source
// position i + 1 of source word i. The kinds are eval/alignment.h's (correct, false, missed).
struct AlignmentMark {
    int row = -1, col = -1;
    AlignmentCellKind kind = AlignmentCellKind::Correct;
    bool operator==(const AlignmentMark&) const = default;
};

// How it is drawn; shared by the widget and every export so that both look the same.
struct HeatmapStyle {
    QString colormap = QStringLiteral("viridis");  // see colormaps.h
    bool annotate = false;                         // write the weight in each cell
    bool hide_specials = false;                    // hide <sos>/<eos> columns and the <eos> row
    QString title;                                 // drawn above the matrix when not empty
    bool fit_range = false;                        // colour scale [0, max shown weight] instead of the fixed [0, 1]
    int current_row = -1;                          // marked row while stepping (-1: none)
    int selected_row = -1, selected_col = -1;
    bool diagnostics = false;  // coverage row under the matrix, entropy column at its right (heatmap_diagnostics.h)
    QColor background = Qt::white;  // the figure's paper; labels take black or white against it
    // Signed values (a difference B − A, in [-1, 1]): the diverging colour map (colormaps.h) on a scale centred on 0,
    // [-1, 1], or ± the largest |value| shown with fit_range; `colormap` is then not used.
    bool diverging = false;
    QString scale_label;  // the colour scale's label; empty: "attention weight"
    // Cells marked against gold links (the window's gold links field); drawn on rows shown so far.
    std::vector<AlignmentMark> alignment_marks;
    // The decode's interventions (docs/explain.md), drawn when the columns are source positions
    // (heatmap/intervention_marks.h): knocked-out columns struck through, each attended row's one cell marked. An
    // export's JSON and CSV name them, its title lists them.
    Interventions interventions;
};

// Marks beside the labels, in data indices: rows whose token the user forced ("what if?") and words the model does
// not know (they became <unk>), as rows (a reference's words) and columns (the source's). Drawn in the gap between
// the labels and the matrix, so that the labels and the layout stay as they are.
struct LabelMarks {
    QVector<int> forced_rows;
    QVector<int> unknown_rows;
    QVector<int> unknown_cols;
    bool operator==(const LabelMarks&) const = default;
};

}  // namespace attnviz::ui
