// The heatmap's room beside the main window's bottom docks (beam search, compare models, corpus, attention heads,
// head importance; all under the heatmap): when one is shown, and when the window is resized, the docks give up
// height until the heatmap shows kReadableRows rows at its minimum cell size, as far as their own minimum sizes
// allow. Past that the heatmap scrolls (heatmap_view.h). A dock of the beam search, the corpus or the head importance
// shown squeezed gets up to two fifths of the window, within the same room.
#include "heatmap/heatmap_view.h"
#include "window/main_window.h"

#include <QDockWidget>
#include <QResizeEvent>
#include <QTimer>

#include <algorithm>

namespace attnviz::ui {

void MainWindow::keepHeatmapRoom(QDockWidget* dock, bool grow) {
    connect(dock, &QDockWidget::visibilityChanged, this, [this, dock, grow](bool visible) {
        if (!visible || dock->isFloating()) return;
        QTimer::singleShot(0, this, [this, dock, grow] {  // once the shown dock is laid out
            if (dock->isVisible() && !dock->isFloating()) fitBottomDocks(grow ? dock : nullptr);
        });
    });
    // A decode changes the labels' room (a long sentence's turned labels): the rows' room is measured again.
    connect(this, &MainWindow::decodeFinished, dock, [this, dock] {
        if (dock->isVisible()) QTimer::singleShot(0, this, [this] { fitBottomDocks(nullptr); });
    });
}

void MainWindow::resizeEvent(QResizeEvent* event) {
    QMainWindow::resizeEvent(event);
    QTimer::singleShot(0, this, [this] { fitBottomDocks(nullptr); });  // once the central widget has its size
}

// The bottom row of docks gets the height the heatmap can spare: less when the heatmap has fewer than
// kReadableRows rows' room; more (up to two fifths of the window) for `grown` when it is shorter than a third.
void MainWindow::fitBottomDocks(QDockWidget* grown) {
    QList<QDockWidget*> docks;
    int shown = 0, least = 0;
    for (QDockWidget* d : {beam_dock_, compare_dock_, corpus_dock_, head_dock_, head_importance_dock_}) {
        if (!d || !d->isVisible() || d->isFloating() || dockWidgetArea(d) != Qt::BottomDockWidgetArea) continue;
        docks << d;
        shown = std::max(shown, d->height());
        least = std::max(least, d->minimumSizeHint().height());
    }
    if (docks.isEmpty()) return;
    const int spare = heatmap_->height() - heatmap_->heightForRows(kReadableRows);
    int target = shown;
    if (grown && shown < height() / 3) target = std::min(height() * 2 / 5, shown + std::max(0, spare));
    if (spare < 0) target = std::max(least, shown + spare);
    if (target != shown) resizeDocks(docks, QList<int>(docks.size(), target), Qt::Vertical);
}

}  // namespace attnviz::ui
