// The gold-alignment marks of HeatmapStyle::alignment_marks drawn on their cells by the scene's overlay, so that the
// window and every export (PNG, SVG, PDF) show them alike. Shapes tell the kinds apart without colour, and the colours
// are Okabe & Ito's colour-blind-safe palette, each on a dark rim so that it shows on every colour map:
//   correct: a filled disc (bluish green), false: a cross (vermillion), missed: a ring (sky blue).
#pragma once
#include "heatmap/heatmap_data.h"

#include <QColor>

class QCPPainter;
class QPainter;
class QRectF;

namespace attnviz::ui {

class HeatmapScene;

QColor alignmentMarkColor(AlignmentCellKind kind);
// One mark centred in `cell` (a third of its smaller side in radius; nothing in a cell too small to read it): the
// cells' marks and the legend's.
void drawAlignmentMark(QPainter* painter, const QRectF& cell, AlignmentCellKind kind);
// Every mark whose row and column are shown (and whose row is decoded so far).
void drawAlignmentMarks(QCPPainter* painter, const HeatmapScene& scene);

}  // namespace attnviz::ui
