#include "views/head_grid_painter.h"

#include "heatmap/colormaps.h"
#include "heatmap/fitted_title.h"

#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace attnviz::ui {

namespace {

constexpr double kGap = 8;  // between thumbnails, and between labels and thumbnails

int matrixRows(const HeadGridFigure& f) { return f.isEmpty() ? 0 : int(f.cells[0][0].size()); }
int matrixCols(const HeadGridFigure& f) {
    return f.isEmpty() || f.cells[0][0].empty() ? 0 : int(f.cells[0][0][0].size());
}

// The side of a matrix cell so that `count` thumbnails of `n` cells (and their gaps) fit `length`.
double cellSide(double length, int count, int n) {
    return n > 0 && count > 0 ? (length - kGap * (count - 1)) / count / n : 0;
}

void paintThumb(QPainter& p, const HeadGridFigure& f, const HeadMatrix& m, const QRectF& r, double cell, double cell_h,
                const HeadGridColors& colors) {
    QCPColorGradient gradient = colormapGradient(f.colormap);  // color() is not const
    const QCPRange range(0, 1);
    p.fillRect(r, colors.empty);
    for (int i = 0; i < int(m.size()); ++i)
        for (int j = 0; j < int(m[size_t(i)].size()); ++j) {
            if (!f.shows(i, j)) continue;
            // Edges on the same grid for every cell, so that neighbours meet without seams.
            const QRectF c(QPointF(r.left() + j * cell, r.top() + i * cell_h),
                           QPointF(r.left() + (j + 1) * cell, r.top() + (i + 1) * cell_h));
            p.fillRect(c, QColor::fromRgb(gradient.color(double(m[size_t(i)][size_t(j)]), range)));
        }
}

// A head turned off: its thumbnail washed grey and crossed out corner to corner (a cue without colour).
void paintRemoved(QPainter& p, const QRectF& r, const HeadGridColors& colors) {
    p.save();
    QColor wash = colors.empty;
    wash.setAlpha(190);
    p.fillRect(r, wash);
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(QPen(colors.text, 2, Qt::SolidLine, Qt::RoundCap));
    p.drawLine(r.topLeft(), r.bottomRight());
    p.drawLine(r.bottomLeft(), r.topRight());
    p.setPen(QPen(colors.text, 1, Qt::DashLine));
    p.setBrush(Qt::NoBrush);
    p.drawRect(r);
    p.restore();
}

}  // namespace

HeadGridLayout HeadGridLayout::make(const HeadGridFigure& f, const QRect& area, const QFont& font) {
    HeadGridLayout l;
    if (f.isEmpty() || matrixRows(f) == 0 || matrixCols(f) == 0) return l;
    const QFontMetricsF fm(font);
    double label_w = 0;
    for (const QString& s : f.row_labels) label_w = std::max(label_w, fm.horizontalAdvance(s));
    double top = area.top();
    if (!f.title.isEmpty()) {
        l.title = QRectF(area.left(), top, area.width(), fm.height() * 1.4);
        top += l.title.height() + kGap / 2;
    }
    const double left = area.left() + label_w + kGap;
    const double head_h = fm.height() + kGap;  // room for the selected thumbnail's outline too
    const double w = area.right() + 1 - left, h = area.bottom() + 1 - top - head_h;
    const double wide = cellSide(w, f.heads(), matrixCols(f)), high = cellSide(h, f.layers(), matrixRows(f));
    l.cell = std::min(wide, kMaxCellStretch * high);
    l.cell_h = std::min(high, kMaxCellStretch * l.cell);
    for (double* side : {&l.cell, &l.cell_h}) {
        if (*side >= 2) *side = std::floor(*side);  // whole pixels: crisp cells on screen
        *side = std::max(*side, 0.25);
    }
    const double tw = l.cell * matrixCols(f), th = l.cell_h * matrixRows(f);
    const double step_x = std::max(tw + kGap, fm.horizontalAdvance(f.col_labels.value(0)) + kGap);
    l.thumbs.assign(size_t(f.layers()), std::vector<QRectF>(size_t(f.heads())));
    for (int head = 0; head < f.heads(); ++head)
        l.col_labels.push_back(QRectF(left + head * step_x, top, std::max(tw, step_x - kGap), head_h));
    for (int layer = 0; layer < f.layers(); ++layer) {
        const double y = top + head_h + layer * (th + kGap);
        l.row_labels.push_back(QRectF(area.left(), y, label_w, th));
        for (int head = 0; head < f.heads(); ++head)
            l.thumbs[size_t(layer)][size_t(head)] = QRectF(left + head * step_x, y, tw, th);
    }
    return l;
}

QPoint HeadGridLayout::hit(const QPointF& pos) const {
    for (size_t layer = 0; layer < thumbs.size(); ++layer)
        for (size_t head = 0; head < thumbs[layer].size(); ++head)
            if (thumbs[layer][head].contains(pos)) return {int(layer), int(head)};
    return {-1, -1};
}

void paintHeadGrid(QPainter& p, const HeadGridFigure& f, const HeadGridLayout& l, const QFont& font,
                   const HeadGridColors& colors) {
    p.save();
    p.setFont(font);
    p.setPen(colors.text);
    if (!l.title.isEmpty()) {
        const TitleFit fit = fitTitle(f.title, font, l.title.width(), p.device());
        p.setFont(fit.font);
        p.drawText(l.title, Qt::AlignLeft | Qt::AlignVCenter, fit.text);
        p.setFont(font);
    }
    for (size_t i = 0; i < l.col_labels.size(); ++i)
        p.drawText(l.col_labels[i], Qt::AlignLeft | Qt::AlignTop, f.col_labels.value(int(i)));
    for (size_t i = 0; i < l.row_labels.size(); ++i)
        p.drawText(l.row_labels[i], Qt::AlignRight | Qt::AlignVCenter, f.row_labels.value(int(i)));
    p.setRenderHint(QPainter::Antialiasing, false);
    for (size_t layer = 0; layer < l.thumbs.size(); ++layer)
        for (size_t head = 0; head < l.thumbs[layer].size(); ++head)
            paintThumb(p, f, f.cells[layer][head], l.thumbs[layer][head], l.cell, l.cell_h, colors);
    for (const QPoint& off : f.removed)
        if (off.x() >= 0 && off.x() < f.layers() && off.y() >= 0 && off.y() < f.heads())
            paintRemoved(p, l.thumbs[size_t(off.x())][size_t(off.y())], colors);
    if (f.selected_layer >= 0 && f.selected_layer < f.layers() && f.selected_head >= 0 && f.selected_head < f.heads()) {
        p.setPen(QPen(colors.selected, 3));
        p.setBrush(Qt::NoBrush);
        p.drawRect(l.thumbs[size_t(f.selected_layer)][size_t(f.selected_head)].adjusted(-3, -3, 3, 3));
    }
    p.restore();
}

}  // namespace attnviz::ui
