#include "heatmap/heatmap_overlay.h"

#include "heatmap/colormaps.h"
#include "heatmap/heatmap_fonts.h"
#include "heatmap/intervention_marks.h"

#include <algorithm>
#include <cmath>

namespace attnviz::ui {

namespace {
constexpr double kDistinctContrast = 1.25;  // contrast ratio (WCAG) at which a zero cell stands out from the paper
}

QFont heatmapBaseFont(double px) {
    QFont f = heatmapFont(px);
    f.setStyleStrategy(QFont::PreferAntialias);
    return f;
}

// On screen: `v` on a whole device pixel (crisp lines); exports: as it is.
double HeatmapOverlay::snap(QCPPainter* painter, double v) const {
    if (scene_->mode_ != HeatmapScene::Mode::Interactive || !painter->device()) return v;
    const double dpr = painter->device()->devicePixelRatioF();
    return std::round(v * dpr) / dpr;
}

// Hairlines between the decoded cells of display rows r0..r1, columns c0..c1, and around them: drawn when the colour
// of weight 0 is hard to tell from the paper (greys or blues on white, gray on black), so that a zero cell still
// reads as a cell of the matrix and not as the empty background.
void HeatmapOverlay::cellGrid(QCPPainter* painter, int r0, int r1, int c0, int c1) const {
    const HeatmapScene& s = *scene_;
    const QColor paper = s.style_.background.isValid() ? s.style_.background : QColor(Qt::white);
    const double zero = 0.0;
    QRgb rgb = 0;
    s.map_->gradient().colorize(&zero, s.map_->dataRange(), &rgb, 1);
    if (contrastRatio(QColor(rgb), paper) >= kDistinctContrast) return;
    while (r1 >= r0 && !std::isfinite(s.displayValue(r1, c0))) --r1;  // undecoded rows are the background already
    if (r1 < r0) return;
    const bool light = contrastingTextColor(paper) == QColor(Qt::black);
    painter->setPen(QPen(light ? paper.darker(135) : paper.lighter(170), 0));  // cosmetic: one device pixel
    painter->setBrush(Qt::NoBrush);
    const bool antialiased = painter->antialiasing();
    painter->setAntialiasing(false);  // on whole pixels, not smeared over two
    const QRectF first = s.displayCellRect(r0, c0), last = s.displayCellRect(r1, c1);
    const double left = snap(painter, first.left()), right = snap(painter, last.right());
    const double top = snap(painter, first.top()), bottom = snap(painter, last.bottom());
    const bool inner = first.width() >= 4 && first.height() >= 4;  // smaller cells: the border only
    for (int c = c0; c <= c1 + 1; ++c) {
        if (!inner && c != c0 && c != c1 + 1) continue;
        const double x = c <= c1 ? snap(painter, s.displayCellRect(r0, c).left()) : right;
        painter->drawLine(QPointF(x, top), QPointF(x, bottom));
    }
    for (int r = r0; r <= r1 + 1; ++r) {
        if (!inner && r != r0 && r != r1 + 1) continue;
        const double y = r <= r1 ? snap(painter, s.displayCellRect(r, c0).top()) : bottom;
        painter->drawLine(QPointF(left, y), QPointF(right, y));
    }
    painter->setAntialiasing(antialiased);
}

// On screen (any scale factor, e.g. 200 %: half logical pixels) the outline's edges and widths are whole device
// pixels, so that it stays sharp instead of smeared over two pixels by antialiasing. Exports are drawn through a
// scaled painter and are left as they are.
void HeatmapOverlay::outline(QCPPainter* painter, const QRectF& cell, const QColor& inner, double width) const {
    QRectF r = cell;
    if (scene_->mode_ == HeatmapScene::Mode::Interactive && painter->device()) {
        const double dpr = painter->device()->devicePixelRatioF();
        r = QRectF(QPointF(snap(painter, cell.left()), snap(painter, cell.top())),
                   QPointF(snap(painter, cell.right()), snap(painter, cell.bottom())));
        // An even number of device pixels, centred on the (whole-pixel) edge: no half-covered pixel on either side.
        width = std::max(2.0, 2.0 * std::round(width * dpr / 2.0)) / dpr;
    }
    // A dark rim under a light line: visible on every colour map, dark or light cells.
    painter->setBrush(Qt::NoBrush);
    painter->setPen(QPen(QColor(0, 0, 0, 220), width + 2.0, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
    painter->drawRect(r);
    painter->setPen(QPen(inner, width, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
    painter->drawRect(r);
}

void HeatmapOverlay::draw(QCPPainter* painter) {
    const HeatmapScene& s = *scene_;
    const HeatmapLayout& l = s.layout_;
    const int C = int(l.cols.size()), R = int(l.rows.size());
    if (C == 0 || R == 0) return;
    const QCPRange kr = s.keyAxis()->range(), vr = s.valueAxis()->range();
    const int c0 = std::max(0, int(std::ceil(kr.lower - 0.5))), c1 = std::min(C - 1, int(std::floor(kr.upper + 0.5)));
    const int r0 = std::max(0, int(std::ceil(vr.lower - 0.5))), r1 = std::min(R - 1, int(std::floor(vr.upper + 0.5)));

    if (s.vector_cells_) {
        // Vector figures (SVG, PDF): one filled rectangle per cell instead of the colour map's bitmap, each widened by
        // a hair so that viewers' antialiasing leaves no seams between neighbours.
        QCPColorGradient g = s.map_->gradient();
        const QCPRange range = s.map_->dataRange();
        painter->setPen(Qt::NoPen);
        for (int r = r0; r <= r1; ++r)
            for (int c = c0; c <= c1; ++c) {
                const double v = s.displayValue(r, c);
                if (!std::isfinite(v)) continue;
                QRgb rgb = 0;
                g.colorize(&v, range, &rgb, 1);
                painter->setBrush(QColor(rgb));
                painter->drawRect(s.displayCellRect(r, c).normalized().adjusted(0, 0, 0.25, 0.25));
            }
    }

    cellGrid(painter, r0, r1, c0, c1);

    if (s.style_.annotate && s.annotate_px_ >= 5) {
        QCPColorGradient g = s.map_->gradient();
        const QCPRange range = s.map_->dataRange();
        QFont f = heatmapBaseFont(s.annotate_px_);
        painter->setFont(f);
        const QFontMetricsF fm(f);
        const double need = fm.horizontalAdvance(QStringLiteral("0.00")) + 2;
        for (int r = r0; r <= r1; ++r)
            for (int c = c0; c <= c1; ++c) {
                const double v = s.displayValue(r, c);
                if (!std::isfinite(v)) continue;
                const QRectF cell = s.displayCellRect(r, c);
                if (cell.width() < need || cell.height() < fm.height() * 0.9) continue;
                QRgb rgb = 0;
                g.colorize(&v, range, &rgb, 1);
                painter->setPen(contrastingTextColor(QColor(rgb)));
                painter->drawText(cell, Qt::AlignCenter, QString::number(v, 'f', 2));
            }
    }

    drawLabelMarks(painter, r0, r1, c0, c1);
    if (s.style_.diagnostics) drawDiagnostics(painter, s);
    // The marks of cells stay on the matrix (and the label marks' gap): rows and columns scrolled out of view leave
    // no mark on the labels or the coverage row. The outlines' lines may stand out of the matrix by their width.
    const QRect matrix = s.axisRect()->rect();
    painter->save();
    painter->setClipRect(matrix.adjusted(-int(kMarkDepth), -int(kMarkDepth), 3, 3), Qt::IntersectClip);
    drawAlignmentMarks(painter, s);
    drawInterventionMarks(painter, s);
    painter->restore();
    painter->save();
    painter->setClipRect(matrix.adjusted(-3, -3, 3, 3), Qt::IntersectClip);
    if (const QRectF row = s.currentRowOutline(); !row.isEmpty()) outline(painter, row, QColor(255, 255, 255), 1.6);
    drawSelectedWindow(painter, s);
    const int sr = l.displayRow(s.style_.selected_row), sc = l.displayCol(s.style_.selected_col);
    if (const QRectF cell = s.selectedCellOutline(); !cell.isEmpty()) outline(painter, cell, QColor(255, 64, 54), 2.0);
    const int hr = l.displayRow(s.hover_row_), hc = l.displayCol(s.hover_col_);
    if (s.mode_ == HeatmapScene::Mode::Interactive && hr >= 0 && hc >= 0 && !(hr == sr && hc == sc)) {
        painter->setBrush(Qt::NoBrush);
        painter->setPen(QPen(QColor(255, 255, 255, 200), 1.0));
        painter->drawRect(s.displayCellRect(hr, hc).adjusted(0.5, 0.5, -0.5, -0.5));
    }
    painter->restore();
}

// Unknown words: a red bar along the matrix's edge beside the label; forced rows: an orange triangle pointing at
// the row (drawn over the bar when a row is both).
void HeatmapOverlay::drawLabelMarks(QCPPainter* painter, int r0, int r1, int c0, int c1) const {
    const HeatmapScene& s = *scene_;
    const LabelMarks& marks = s.label_marks_;
    const QColor unknown(220, 30, 30), forced(255, 140, 0);
    painter->setPen(Qt::NoPen);
    painter->setBrush(unknown);
    for (int row : marks.unknown_rows) {
        const int r = s.layout_.displayRow(row);
        if (r < r0 || r > r1) continue;
        const QRectF m = s.rowMarkRect(r);
        painter->drawRect(QRectF(m.center().x(), m.top(), m.width() / 2, m.height()));
    }
    for (int col : marks.unknown_cols) {
        const int c = s.layout_.displayCol(col);
        if (c < c0 || c > c1) continue;
        const QRectF m = s.columnMarkRect(c);
        painter->drawRect(QRectF(m.left(), m.center().y(), m.width(), m.height() / 2));
    }
    painter->setPen(QPen(QColor(0, 0, 0, 200), 1.0));
    painter->setBrush(forced);
    for (int row : marks.forced_rows) {
        const int r = s.layout_.displayRow(row);
        if (r < r0 || r > r1) continue;
        const QRectF m = s.rowMarkRect(r);
        const double half = std::min(m.height() / 2, 5.0);
        const QPointF tip(m.right(), m.center().y());
        const QPointF triangle[] = {QPointF(m.left(), tip.y() - half), QPointF(m.left(), tip.y() + half), tip};
        painter->drawPolygon(triangle, 3);
    }
}

}  // namespace attnviz::ui
