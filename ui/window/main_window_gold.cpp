// The main window's gold links (docs/gui.md, "Gold alignments"): the field under the reference (views/gold_links_panel)
// and its marks on the heatmap, put into the window's style too so that exports and "copy image" show them.
#include "heatmap/heatmap_view.h"
#include "views/gold_links_panel.h"
#include "window/main_window.h"

#include <QFormLayout>
#include <QLabel>

namespace attnviz::ui {

void MainWindow::createGoldLinks(QFormLayout* form) {
    gold_links_ = new GoldLinksPanel(state_, this);
    form->addRow(gold_links_->label(), gold_links_);
    connect(gold_links_, &GoldLinksPanel::marksChanged, this, [this] {
        const std::vector<AlignmentMark> marks = gold_links_->marks();
        style_.alignment_marks = marks;  // exportOptions()
        showAttentionView();             // the marks belong to the default attention: other views show none
    });
}

}  // namespace attnviz::ui
