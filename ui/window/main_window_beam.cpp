// The main window's beam search dock: the beam tree view (views/beam_tree.h) observing the window's state, under
// the heatmap and hidden until View ▸ Beam search shows it (a hidden view does not search).
#include "state/decode_state.h"
#include "views/beam_tree.h"
#include "window/dock_scroller.h"
#include "window/main_window.h"

#include <QAction>
#include <QDockWidget>

namespace attnviz::ui {

void MainWindow::createBeamDock() {
    beam_tree_ = new BeamTreeView(this);
    beam_tree_->setDecodeState(state_);
    beam_dock_ = new QDockWidget(this);
    beam_dock_->setObjectName(QStringLiteral("BeamDock"));
    beam_dock_->setWidget(new DockScroller(beam_tree_, beam_dock_));
    addDockWidget(Qt::BottomDockWidgetArea, beam_dock_);
    beam_dock_->hide();
    keepHeatmapRoom(beam_dock_, true);
    // Closing the dock takes its hypothesis away too: the window goes back to its own decode. (A dock only hidden
    // behind another tab keeps its view action checked, and the hypothesis stays.)
    connect(beam_dock_, &QDockWidget::visibilityChanged, this, [this](bool visible) {
        if (!visible && !beam_dock_->toggleViewAction()->isChecked()) state_->showMainDecode();
    });
}

}  // namespace attnviz::ui
