// HeatmapView's cells, zoom and scrolling (heatmap_view.h): the minimum cell size and the rows it keeps, fit all and
// reset, zoom around a point, the scroll bars that follow the axes' ranges, and the wheel.
#include "heatmap/heatmap_legend.h"
#include "heatmap/heatmap_scene.h"
#include "heatmap/heatmap_view.h"

#include <qcustomplot.h>
#include <QApplication>
#include <QScrollBar>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

namespace attnviz::ui {

void HeatmapView::setMinimumCellSize(int pixels) {
    min_cell_ = std::max(4, pixels);
    if (!user_view_) resetView();
}

int HeatmapView::minimumCellSize() const { return min_cell_; }

int HeatmapView::heightForRows(int rows) const { return height() - matrixRect().height() + rows * min_cell_; }

void HeatmapView::fitAll() {
    zoomed_ = true;
    syncing_ = true;
    scene_->keyAxis()->setRange(scene_->fullKeyRange());
    scene_->valueAxis()->setRange(scene_->fullValueRange());
    syncing_ = false;
    user_view_ = true;
    scene_->layoutNow(plot_->rect());
    scene_->updateTicks();
    updateScrollBars();
    plot_->replot();
}

void HeatmapView::resetView() { resetCells(false); }

// Cells of the minimum size (or the whole matrix, when it fits): from the first row and column, then scrolled to the
// current row and the selection; or, with keepPosition, from the rows and columns in view now (a resize after the
// user scrolled).
void HeatmapView::resetCells(bool keepPosition, bool marksMoved) {
    const bool marksShown = !scene_->currentRowOutline().isEmpty() || !scene_->selectedCellOutline().isEmpty();
    const double fromK = scene_->keyAxis()->range().lower, fromV = scene_->valueAxis()->range().lower;
    syncing_ = true;
    const QCPRange fk = scene_->fullKeyRange(), fv = scene_->fullValueRange();
    scene_->keyAxis()->setRange(fk);
    scene_->valueAxis()->setRange(fv);
    // Three layout passes: the tick labels (and so the margins) depend on the cell size, and the cell size on them.
    for (int pass = 0; pass < 2; ++pass) {
        scene_->updateTicks();
        scene_->layoutNow(plot_->rect());
        const int fitCols = std::max(1, scene_->axisRect()->width() / min_cell_);
        const int fitRows = std::max(1, scene_->axisRect()->height() / min_cell_);
        scene_->keyAxis()->setRange(fk.size() > fitCols ? QCPRange(-0.5, fitCols - 0.5) : fk);
        scene_->valueAxis()->setRange(fv.size() > fitRows ? QCPRange(-0.5, fitRows - 0.5) : fv);
    }
    // The labels chosen for the last pass's cells may take another margin: never leave cells below the minimum.
    scene_->updateTicks();
    scene_->layoutNow(plot_->rect());
    for (QCPAxis* axis : {scene_->keyAxis(), scene_->valueAxis()}) {
        const int pixels = axis == scene_->keyAxis() ? scene_->axisRect()->width() : scene_->axisRect()->height();
        const int fit = std::max(1, pixels / min_cell_);
        if (axis->range().size() > fit) axis->setRange(axis->range().lower, axis->range().lower + fit);
    }
    zoomed_ = false;
    if (keepPosition) {
        scene_->keyAxis()->setRange(scene_->keyAxis()->range() + (fromK - scene_->keyAxis()->range().lower));
        scene_->valueAxis()->setRange(scene_->valueAxis()->range() + (fromV - scene_->valueAxis()->range().lower));
        syncing_ = false;
        clampRanges();
        if (marksShown || marksMoved) {
            showMarks();  // a smaller view keeps the current row and the selection that were in view
        } else {
            scene_->updateTicks();
            updateScrollBars();
            plot_->replot();
        }
        updateMinimumHeight();
        return;
    }
    syncing_ = false;
    user_view_ = false;
    showMarks();  // a long sentence opens at its current row, not at its first rows
    updateMinimumHeight();
}

// The plot never shorter than its labels, diagnostics and least_rows_ rows (or all) of the minimum cell size: past that the
// window keeps its size and the docks give way, rather than the cells going below the minimum.
void HeatmapView::updateMinimumHeight() {
    const int overhead = plot_->height() - scene_->axisRect()->height();
    if (plot_->height() <= 0 || overhead <= 0) return;
    const int rows = std::min<int>(least_rows_, std::max<int>(1, scene_->layout().rows.size()));
    const int least = std::max(120, overhead + rows * min_cell_);
    if (plot_->minimumHeight() != least) plot_->setMinimumHeight(least);
}

void HeatmapView::setLeastRows(int rows) {
    least_rows_ = std::max(1, rows);
    updateMinimumHeight();
}

void HeatmapView::zoomIn() { zoomBy(kZoomStep); }
void HeatmapView::zoomOut() { zoomBy(1.0 / kZoomStep); }

void HeatmapView::zoomBy(double factor, std::optional<QPointF> around) {
    zoomed_ = true;
    syncing_ = true;
    for (QCPAxis* axis : {scene_->keyAxis(), scene_->valueAxis()}) {
        const double at = around ? axis->pixelToCoord(axis->orientation() == Qt::Horizontal ? around->x() : around->y())
                                 : axis->range().center();
        axis->scaleRange(1.0 / factor, at);
    }
    syncing_ = false;
    user_view_ = true;
    clampRanges();
    scene_->layoutNow(plot_->rect());
    scene_->updateTicks();
    updateScrollBars();
    plot_->replot();
}

void HeatmapView::clampRanges() {
    const bool was = syncing_;
    syncing_ = true;
    for (auto [axis, full] : {std::pair{scene_->keyAxis(), scene_->fullKeyRange()},
                              std::pair{scene_->valueAxis(), scene_->fullValueRange()}}) {
        QCPRange r = axis->range();
        if (r.size() > full.size()) r = full;
        if (r.size() < 1.0) r = QCPRange(r.center() - 0.5, r.center() + 0.5);  // at most one cell across
        if (r.lower < full.lower) r += full.lower - r.lower;
        if (r.upper > full.upper) r -= r.upper - full.upper;
        if (r != axis->range()) axis->setRange(r);
    }
    syncing_ = was;
}

void HeatmapView::updateScrollBars() {
    const bool was = syncing_;
    syncing_ = true;
    auto sync = [](QScrollBar* bar, const QCPRange& r, const QCPRange& full) {
        const int maximum = int(std::lround((full.size() - r.size()) * kBarUnits));
        bar->setVisible(maximum > 0);
        bar->setRange(0, std::max(0, maximum));
        bar->setPageStep(std::max(1, int(std::lround(r.size() * kBarUnits))));
        bar->setSingleStep(int(kBarUnits));
        bar->setValue(int(std::lround((r.lower - full.lower) * kBarUnits)));
    };
    sync(hbar_, scene_->keyAxis()->range(), scene_->fullKeyRange());
    sync(vbar_, scene_->valueAxis()->range(), scene_->fullValueRange());
    syncing_ = was;
}

// The wheel scrolls where there is something to scroll (the vertical bar, else the horizontal one; Shift or a
// sideways wheel: the horizontal bar) by the platform's lines per notch, one cell a line; Ctrl+wheel zooms both axes
// around the pointer.
void HeatmapView::wheel(QWheelEvent* event) {
    const QPoint delta = event->angleDelta();
    const int along = delta.y() != 0 ? delta.y() : delta.x();  // some platforms turn Shift+wheel into a sideways one
    if (along == 0) return;
    if (event->modifiers() & Qt::ControlModifier) {
        zoomBy(std::pow(kZoomStep, along / 120.0), event->position());
        return;
    }
    const bool sideways = (event->modifiers() & Qt::ShiftModifier) || std::abs(delta.x()) > std::abs(delta.y());
    QScrollBar* bar = sideways || vbar_->maximum() == 0 ? hbar_ : vbar_;
    const double cells = along / 120.0 * QApplication::wheelScrollLines();
    bar->setValue(bar->value() - int(std::lround(cells * kBarUnits)));
}

}  // namespace attnviz::ui
