// MainWindow's compare dock (views/compare_view.h): two models side by side on the window's sentence, hidden until
// View ▸ Compare models shows it; it follows the window's decode, step and colour map, and decodes only while shown.
#include "window/dock_scroller.h"
#include "window/main_window.h"

#include "heatmap/heatmap_view.h"
#include "views/compare_view.h"

#include <qcustomplot.h>
#include <QDockWidget>

namespace attnviz::ui {

void MainWindow::createCompareDock() {
    compare_view_ = new CompareView(state_, this);
    compare_view_->setActive(false);
    // The stepping keys work on its maps as on the main heatmap.
    for (HeatmapView* v : {compare_view_->viewA(), compare_view_->viewB(), compare_view_->viewDifference()}) {
        v->installEventFilter(this);
        if (v->plot()) v->plot()->installEventFilter(this);
    }
    compare_dock_ = new QDockWidget(this);
    compare_dock_->setObjectName(QStringLiteral("CompareDock"));
    compare_dock_->setWidget(new DockScroller(compare_view_, compare_dock_));
    addDockWidget(Qt::BottomDockWidgetArea, compare_dock_);
    compare_dock_->hide();
    keepHeatmapRoom(compare_dock_, false);
    // Hidden, or tabbed behind another dock: nothing is decoded until it is in view again.
    connect(compare_dock_, &QDockWidget::visibilityChanged, compare_view_, &CompareView::setActive);
}

}  // namespace attnviz::ui
