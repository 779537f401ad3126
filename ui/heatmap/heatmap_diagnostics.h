// What the heatmap draws around its matrix when HeatmapStyle::diagnostics is on: a coverage row under it (Σ_t a_tj
// per source token, neglected words in blue, over-attended ones in red, a dashed line at 1) and an entropy column at
// its right (each row's H / ln S as a bar, diffuse rows in orange, a dashed line at the diffuse threshold); and, on
// the selected row, a local span's window. The numbers are eval/attention_diagnostics.h's (docs/diagnostics.md). The
// scene's overlay draws them, so the window and every export look the same.
#pragma once
#include "eval/attention_diagnostics.h"
#include "heatmap/heatmap_data.h"

#include <QColor>
#include <QMargins>
#include <QRectF>
#include <vector>

class QCPPainter;

namespace attnviz::ui {

class HeatmapScene;

struct HeatmapDiagnostics {
    SourceCoverage coverage;         // (S) over the rows shown
    std::vector<RowDiagnosis> rows;  // (T) per data row (rows not shown yet included)
    static HeatmapDiagnostics make(const HeatmapData& data, int visibleRows);
};

// The room around the matrix the diagnostics need at a font size: left for the row's label, right for the entropy
// column, bottom for the coverage row.
QMargins diagnosticsMargins(double fontPx);
// The colours of a coverage bar (`plain` for an unmarked word) and of a diffuse row's entropy bar; the legend's too.
QColor coverageMarkColor(CoverageMark mark, const QColor& plain);
QColor diffuseRowColor();
QColor plainBarColor();
void drawDiagnostics(QCPPainter* painter, const HeatmapScene& scene);
// Where the coverage row's label is written, in plot pixels: as wide as its text, right-aligned left of the matrix
// (inside the plot when the scene kept diagnosticsMargins' room for it).
QRectF coverageLabelRect(const HeatmapScene& scene);
// The window [lo, hi] of the selected row when it is narrower than the row (a local span: scores are NaN outside).
void drawSelectedWindow(QCPPainter* painter, const HeatmapScene& scene);

}  // namespace attnviz::ui
