// MainWindow's compare view (views/compare_view.h): two models side by side on the window's sentence, in a tab of
// its own beside the heatmap's (the heatmap is model A's map, which the compare view shows too), so that its three
// maps and its table get the central area's room rather than a strip under the heatmap. View ▸ Compare models (or
// the tab's close button) shows and hides the tab; it follows the window's decode, step and colour map, and decodes
// only while its tab is in front.
#include "window/main_window.h"

#include "heatmap/heatmap_view.h"
#include "views/compare_view.h"
#include "window/dock_scroller.h"

#include <qcustomplot.h>
#include <QAction>
#include <QTabBar>
#include <QTabWidget>

namespace attnviz::ui {

// `heatmap_page` is the heatmap's tab (the line naming its attention, the heatmap).
void MainWindow::createCompareTab(QWidget* heatmap_page) {
    compare_view_ = new CompareView(state_, this);
    compare_view_->setActive(false);
    // The stepping keys work on its maps as on the main heatmap.
    for (HeatmapView* v : {compare_view_->viewA(), compare_view_->viewB(), compare_view_->viewDifference()}) {
        v->installEventFilter(this);
        if (v->plot()) v->plot()->installEventFilter(this);
    }
    // Scrolled where the window is short, rather than growing it: two rows of maps have a tall minimum.
    compare_page_ = new DockScroller(compare_view_, this);
    compare_page_->hide();
    central_tabs_ = new QTabWidget(this);
    central_tabs_->setDocumentMode(true);
    central_tabs_->tabBar()->setAutoHide(true);  // the heatmap alone: no tab bar
    central_tabs_->setTabsClosable(true);
    central_tabs_->addTab(heatmap_page, QString());
    central_tabs_->tabBar()->setTabButton(0, QTabBar::RightSide, nullptr);  // the heatmap's tab always stays
    central_tabs_->tabBar()->setTabButton(0, QTabBar::LeftSide, nullptr);
    compare_act_ = new QAction(this);
    compare_act_->setCheckable(true);
    connect(compare_act_, &QAction::toggled, this, &MainWindow::showCompare);
    connect(central_tabs_, &QTabWidget::tabCloseRequested, this, [this](int index) {
        if (central_tabs_->widget(index) == compare_page_) showCompare(false);
    });
    // Behind the heatmap's tab, or hidden: nothing is decoded until it is in front again.
    connect(central_tabs_, &QTabWidget::currentChanged, this,
            [this] { compare_view_->setActive(central_tabs_->currentWidget() == compare_page_); });
}

void MainWindow::showCompare(bool on) {
    const int at = central_tabs_->indexOf(compare_page_);
    if (on && at < 0) central_tabs_->addTab(compare_page_, tr("Compare models"));
    if (on) central_tabs_->setCurrentWidget(compare_page_);
    if (!on && at >= 0) central_tabs_->removeTab(at);
    const QSignalBlocker block(compare_act_);
    compare_act_->setChecked(on);
    compare_view_->setActive(on);
}

bool MainWindow::compareShown() const { return central_tabs_->currentWidget() == compare_page_; }

void MainWindow::retranslateCompare() {
    central_tabs_->setTabText(0, tr("Heatmap"));
    if (const int at = central_tabs_->indexOf(compare_page_); at >= 0)
        central_tabs_->setTabText(at, tr("Compare models"));
    compare_act_->setText(tr("&Compare models"));
    compare_act_->setStatusTip(tr("Two models side by side on this sentence, in a tab beside the heatmap"));
}

}  // namespace attnviz::ui
