// The heatmap's room beside the main window's bottom docks (beam search, corpus, attention heads, head importance;
// all under the heatmap): when one is shown, and when the window is resized, the docks give up height until the heatmap shows kReadableRows rows at its minimum cell size, as far as their own minimum sizes
// allow. Past that the heatmap scrolls (heatmap_view.h). A dock of the beam search, the corpus or the head importance
// shown squeezed gets up to two fifths of the window, within the same room.
// A dock shown where its area has no room for it beside the docks already there goes into a tab of one of them, so
// that a small window (800×600) keeps its size instead of growing past the screen (tabDockIfNoRoom).
// The layout grows the window while its minimum size is more than the window's size, also for a moment (a dock shown
// before it is tabbed, a heatmap's minimum before its first layout); once the minimum allows, the window returns to
// the size last asked for (returnToAskedSize).
// Tabbing goes by the docks' unscrolled minimum sizes: a dock is tabbed, not scrolled, where the window has the choice.
// The bottom docks' height gives way to the heatmap's rows down to a few lines, the rest of their contents then
// scrolling (dock_scroller.h).
#include "dialogs/window_placement.h"
#include "heatmap/heatmap_legend.h"
#include "heatmap/heatmap_view.h"
#include "window/dock_scroller.h"
#include "window/main_window.h"
#include "window/reference_fold.h"
#include "window/source_editor.h"

#include <QDockWidget>
#include <QResizeEvent>
#include <QShowEvent>
#include <QStatusBar>
#include <QStyle>
#include <QTabBar>
#include <QTimer>
#include <QToolBar>

#include <algorithm>

namespace attnviz::ui {

void MainWindow::keepHeatmapRoom(QDockWidget* dock, bool grow) {
    tabWhereNoRoom(dock, nullptr);
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

// Shown in the window, and not behind another dock's tab (Qt moves those out of sight, still "visible").
static bool inFront(const QDockWidget* d) {
    return d->isVisible() && !d->isFloating() && !d->visibleRegion().isEmpty();
}

// A dock's minimum size where its contents do not scroll.
static QSize unscrolledMinimum(const QDockWidget* d) {
    const auto* scroller = dynamic_cast<const DockScroller*>(d->widget());
    if (!scroller) return d->minimumSizeHint();
    const int scrolled = scroller->unscrolledMinimum().height() - scroller->minimumSizeHint().height();
    return d->minimumSizeHint() + QSize(0, scrolled);
}

void MainWindow::tabWhereNoRoom(QDockWidget* dock, QDockWidget* partner) {
    // The window may already have grown for the dock: dockAreaRoom measures at the size it had settled at.
    connect(dock, &QDockWidget::visibilityChanged, this, [this, dock, partner](bool visible) {
        if (!visible || !isVisible() || dock->isFloating()) return;
        if (!shown_size_.isValid()) return tabDockIfNoRoom(dock, partner);
        // Shown with the window (the command line's docks): the others shown with it have no place yet, so the
        // room is judged once the window is laid out, at the size it was shown at, dock after dock in their order.
        QTimer::singleShot(0, this, [this, dock, partner] {
            if (!inFront(dock)) return;
            if (shown_size_.isValid()) settled_size_ = shown_size_;
            tabDockIfNoRoom(dock, partner);
        });
    });
}

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    if (event->spontaneous()) return;
    shown_size_ = size();
    if (fitted_geometry_.isValid() && geometry() == fitted_geometry_)  // not resized since (--size): on its screen
        QTimer::singleShot(0, this, [this, shown = geometry()] {
            if (geometry() == shown && !isMaximized() && !isFullScreen()) fitToScreen(this);  // nor resized since
        });
    fitted_geometry_ = QRect();
    // Cleared after the decisions queued by the docks shown in this round (each queued before this second timer).
    QTimer::singleShot(0, this, [this] { QTimer::singleShot(0, this, [this] { shown_size_ = QSize(); }); });
}

// The length of `area` its docks share at the window's settled size (the layout may already have grown the window
// for the dock just shown): the bottom row's width (the right column runs the full height), the right column's
// height between the toolbars and the status bar.
int MainWindow::dockAreaRoom(Qt::DockWidgetArea area) const {
    const QSize grown = settled_size_.isValid() ? size() - settled_size_ : QSize(0, 0);
    if (area == Qt::RightDockWidgetArea)
        return (statusBar()->isVisible() ? statusBar()->y() : height()) - centralWidget()->y() - grown.height();
    int room = width();
    for (QDockWidget* d : findChildren<QDockWidget*>())
        if (inFront(d) && dockWidgetArea(d) == Qt::RightDockWidgetArea) room = std::min(room, d->x());
    return room - grown.width();
}

// `dock` was shown in its area: when the minimum sizes of the area's shown docks and its own add up to more than the
// area's room, it goes into a tab with `partner` (when shown; else the area's longest dock), in front.
void MainWindow::tabDockIfNoRoom(QDockWidget* dock, QDockWidget* partner) {
    const Qt::DockWidgetArea area = dockWidgetArea(dock);
    if ((area != Qt::BottomDockWidgetArea && area != Qt::RightDockWidgetArea) || !tabifiedDockWidgets(dock).isEmpty())
        return;
    const auto length = [area](QSize s) { return area == Qt::BottomDockWidgetArea ? s.width() : s.height(); };
    const int separator = style()->pixelMetric(QStyle::PM_DockWidgetSeparatorExtent, nullptr, this);
    int need = length(unscrolledMinimum(dock));
    QDockWidget* longest = nullptr;
    for (QDockWidget* d : findChildren<QDockWidget*>()) {  // each tab group once, by the dock in front
        if (d == dock || !inFront(d) || dockWidgetArea(d) != area) continue;
        int group = length(unscrolledMinimum(d));
        for (const QDockWidget* tab : tabifiedDockWidgets(d)) group = std::max(group, length(unscrolledMinimum(tab)));
        need += separator + group;
        if (!longest || length(d->size()) > length(longest->size())) longest = d;
    }
    if (!longest || need <= dockAreaRoom(area)) return;
    QDockWidget* into = partner && partner->isVisible() && !partner->isFloating() && dockWidgetArea(partner) == area
                            ? partner
                            : longest;
    tabifyDockWidget(into, dock);
    dock->raise();
    // The tab bar's titles side by side must not widen the window either: they scroll and elide instead.
    for (QTabBar* bar : findChildren<QTabBar*>(Qt::FindDirectChildrenOnly)) {
        bar->setUsesScrollButtons(true);
        bar->setElideMode(Qt::ElideRight);
    }
    if (settled_size_.isValid() && size() != settled_size_) {
        const QSize before = settled_size_;
        QTimer::singleShot(0, this, [this, before] { resize(before); });  // once the layout's minimum follows the tab
    }
}

void MainWindow::resizeEvent(QResizeEvent* event) {
    QMainWindow::resizeEvent(event);
    // Grown by the layout to its minimum size (Qt's way), the window keeps the size asked for before.
    const QSize old = event->oldSize();
    const bool grown_by_layout = old.isValid() && event->size() != old &&
                                 event->size() == old.expandedTo(minimumSize()) && !isMaximized() && !isFullScreen();
    fitFormToHeight();
    right_column_fit_ = {};  // the right column's room changed: fitted again, the user's heights forgotten
    if (event->size() != returning_to_ && !grown_by_layout) asked_size_ = event->size();
    returning_to_ = QSize();  // returnToAskedSize's step back (the one resize it asked for) is not a new request
    QTimer::singleShot(0, this, [this] { settled_size_ = size(); });  // after any dock shown in this round
    QTimer::singleShot(0, this, [this] {                              // once the central widget has its size
        fitBottomDocks(nullptr);
        fitRightDocks();
    });
}

// The right column's docks (current step, cell inspector, explanation scores, interventions): one in front that is
// shorter than its contents takes the height it lacks from the tallest of the others, as far as that one keeps its
// own contents whole, before it scrolls. Heights the user set by dragging the docks' edge stay until the window is
// resized or the column's docks change. Every dock of the column is given its height: resizeDocks spreads what a
// list leaves over the docks in it.
void MainWindow::fitRightDocks() {
    QList<QDockWidget*> docks;
    QList<int> heights, least;
    int lacking = 0, tallest = -1;
    for (QDockWidget* d : findChildren<QDockWidget*>()) {
        if (!inFront(d) || dockWidgetArea(d) != Qt::RightDockWidgetArea) continue;
        docks << d;
        least << unscrolledMinimum(d).height();
        heights << d->height();
        if (d->height() < least.back())
            lacking += least.back() - d->height();
        else if (tallest < 0 || d->height() > heights[tallest])
            tallest = int(heights.size()) - 1;
    }
    RightColumnFit& fit = right_column_fit_;
    if (docks != fit.docks) fit = {docks, heights, false};
    if (heights != fit.heights) fit.user_sized = true;  // not the heights the last fit left: dragged
    fit.heights = heights;
    if (fit.user_sized || lacking == 0 || tallest < 0) return;
    int given = std::min(lacking, heights[tallest] - least[tallest]);
    if (given <= 0) return;
    heights[tallest] -= given;
    for (int i = 0; i < docks.size() && given > 0; ++i) {
        const int more = std::min(given, std::max(0, least[i] - heights[i]));
        heights[i] += more;
        given -= more;
    }
    resizeDocks(docks, heights, Qt::Vertical);
    for (int i = 0; i < docks.size(); ++i) fit.heights[i] = docks[i]->height();
}

bool MainWindow::event(QEvent* event) {
    const bool done = QMainWindow::event(event);
    if (event->type() == QEvent::LayoutRequest &&
        !fit_pending_) {  // a minimum changed: a dock's contents, the heatmap's
        fit_pending_ = true;
        QTimer::singleShot(0, this, [this] {
            fit_pending_ = false;
            returnToAskedSize();
            fitBottomDocks(nullptr);  // the fields folded or unfolded, the legend's lines: the heatmap's room changed
            fitRightDocks();
        });
    }
    return done;
}

// The window grown by the layout goes back towards the size last asked for, as far as its minimum size allows.
void MainWindow::returnToAskedSize() {
    if (!asked_size_.isValid() || size() == asked_size_ || isMaximized() || isFullScreen()) return;
    const QSize back = asked_size_.expandedTo(minimumSizeHint()).boundedTo(size());
    if (back == size()) return;
    returning_to_ = back;
    resize(back);
}

// A short window (kCompactHeight): the source field takes one line until typed in (source_editor.h), the reference
// and gold links are folded (reference_fold.h), the notice line takes room only while it says something, the
// heatmap's legend takes one line (the rest in its tooltip), the bottom docks' titles stand at their side and the
// toolbars' icons are small.
void MainWindow::fitFormToHeight() {
    const bool compact = height() < kCompactHeight;
    source_->setCompact(compact);
    reference_fold_->setCompact(compact);
    notice_->setVisible(!compact || !notice_->text().isEmpty());
    heatmap_->legend()->setOneLine(compact);
    // The bottom docks' titles stand at their left, turned, rather than taking a line of height; the toolbars' icons
    // are the small ones.
    for (QDockWidget* d : {beam_dock_, corpus_dock_, head_dock_, head_importance_dock_})
        d->setFeatures(compact ? d->features() | QDockWidget::DockWidgetVerticalTitleBar
                               : d->features() & ~QDockWidget::DockWidgetVerticalTitleBar);
    const int icon = style()->pixelMetric(compact ? QStyle::PM_SmallIconSize : QStyle::PM_ToolBarIconSize);
    for (QToolBar* bar : findChildren<QToolBar*>()) bar->setIconSize(QSize(icon, icon));
}

// The bottom row of docks gets the height the heatmap can spare: less when the heatmap has fewer than kReadableRows
// rows' room, down to the docks' least; more (up to two fifths of the window) for `grown` when it is shorter than a
// third. A short window (kCompactHeight) keeps kLeastReadableRows rows first, then the docks' contents (compactContent),
// then the rows up to kReadableRows.
void MainWindow::fitBottomDocks(QDockWidget* grown) {
    QList<QDockWidget*> docks;
    int shown = 0, least = 0, content = 0;
    for (QDockWidget* d : {beam_dock_, corpus_dock_, head_dock_, head_importance_dock_}) {
        if (!d || !d->isVisible() || d->isFloating() || dockWidgetArea(d) != Qt::BottomDockWidgetArea) continue;
        docks << d;
        shown = std::max(shown, d->height());
        least = std::max(least, d->minimumSizeHint().height());  // scrolled: the heatmap's rows come first
        content = std::max(content, compactContent(d));
    }
    if (docks.isEmpty()) return;
    const int spare = heatmap_->height() - heatmap_->heightForRows(kReadableRows);
    const int lacking = heatmap_->heightForRows(kLeastReadableRows) - heatmap_->height();
    int target = shown;
    if (grown && shown < height() / 3) target = std::min(height() * 2 / 5, shown + std::max(0, spare));
    if (spare < 0 && height() >= kCompactHeight) target = std::max(least, shown + spare);
    if (spare < 0 && height() < kCompactHeight) {
        target = std::max({least, std::min(shown, content), shown + spare});      // 8 rows, as far as content allows
        target = std::max(target, std::min(content, shown - lacking));            // the contents from rows past 6
        if (target > shown - lacking) target = std::max(least, shown - lacking);  // 6 rows before any content
    }
    if (target != shown) resizeDocks(docks, QList<int>(docks.size(), target), Qt::Vertical);
}

// The height a bottom dock keeps in a short window before the heatmap gets rows past kLeastReadableRows: its whole
// contents, or kDockContentLines lines of them, or a third of the window where that is more (the head grid's
// thumbnails come after four lines of controls).
int MainWindow::compactContent(const QDockWidget* d) const {
    const int title = d->height() - d->widget()->height();
    const int lines = kDockContentLines * fontMetrics().lineSpacing();
    return std::min(unscrolledMinimum(d).height(), std::max(title + lines, height() / 3));
}

}  // namespace attnviz::ui
