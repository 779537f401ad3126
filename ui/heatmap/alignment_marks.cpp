#include "heatmap/alignment_marks.h"

#include "heatmap/heatmap_scene.h"

#include <algorithm>
#include <cmath>

namespace attnviz::ui {

namespace {
const QColor kRim(0, 0, 0, 220);
}  // namespace

// r is the mark's radius (a third of the cell's smaller side).
void drawAlignmentMark(QPainter* painter, const QRectF& cell, AlignmentCellKind kind) {
    const double r = std::min(cell.width(), cell.height()) / 3.0;
    if (r < 1.5) return;  // cells too small for any mark to be read
    const QPointF c = cell.center();
    const double line = std::max(1.0, r / 3.0);
    const QColor color = alignmentMarkColor(kind);
    switch (kind) {
    case AlignmentCellKind::Correct:
        painter->setPen(QPen(kRim, std::max(1.0, line / 2)));
        painter->setBrush(color);
        painter->drawEllipse(c, r * 0.8, r * 0.8);
        break;
    case AlignmentCellKind::False: {
        const double d = r * 0.75;
        const QLineF a(c + QPointF(-d, -d), c + QPointF(d, d)), b(c + QPointF(-d, d), c + QPointF(d, -d));
        for (const auto& [pen_color, width] : {std::pair{kRim, line + 2.0}, std::pair{color, line}}) {
            painter->setPen(QPen(pen_color, width, Qt::SolidLine, Qt::SquareCap));
            painter->drawLine(a);
            painter->drawLine(b);
        }
        break;
    }
    case AlignmentCellKind::Missed:
        painter->setBrush(Qt::NoBrush);
        for (const auto& [pen_color, width] : {std::pair{kRim, line + 2.0}, std::pair{color, line}}) {
            painter->setPen(QPen(pen_color, width));
            painter->drawEllipse(c, r * 0.85, r * 0.85);
        }
        break;
    }
}

QColor alignmentMarkColor(AlignmentCellKind kind) {
    switch (kind) {
    case AlignmentCellKind::Correct:
        return QColor(0, 158, 115);  // bluish green
    case AlignmentCellKind::False:
        return QColor(213, 94, 0);  // vermillion
    case AlignmentCellKind::Missed:
        return QColor(86, 180, 233);  // sky blue
    }
    return {};
}

void drawAlignmentMarks(QCPPainter* painter, const HeatmapScene& scene) {
    const std::vector<AlignmentMark>& marks = scene.style().alignment_marks;
    if (marks.empty()) return;
    const HeatmapLayout& layout = scene.layout();
    const int visible = scene.visibleRows();
    painter->save();
    painter->setAntialiasing(true);
    for (const AlignmentMark& m : marks) {
        if (visible >= 0 && m.row >= visible) continue;
        const int r = layout.displayRow(m.row), c = layout.displayCol(m.col);
        if (r < 0 || c < 0) continue;
        drawAlignmentMark(painter, scene.displayCellRect(r, c), m.kind);
    }
    painter->restore();
}

}  // namespace attnviz::ui
