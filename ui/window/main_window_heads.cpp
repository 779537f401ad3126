// The main window's head grid dock (views/head_grid.h; View ▸ Attention heads, hidden at first, under the heatmap),
// and what follows the attention the heatmap shows: the line above it naming that attention and its axes, and the
// gold links' marks, which belong to the default attention only.
#include "heatmap/attention_view_data.h"
#include "heatmap/heatmap_view.h"
#include "state/decode_state.h"
#include "views/head_grid.h"
#include "window/dock_scroller.h"
#include "window/main_window.h"

#include <QDockWidget>
#include <QLabel>

namespace attnviz::ui {

void MainWindow::createHeadGridDock() {
    head_grid_ = new HeadGridView(this);
    head_grid_->setDecodeState(state_);
    head_grid_->setColormap(style_.colormap);
    head_dock_ = new QDockWidget(this);
    head_dock_->setObjectName(QStringLiteral("HeadGridDock"));
    head_dock_->setWidget(new DockScroller(head_grid_, head_dock_));
    addDockWidget(Qt::BottomDockWidgetArea, head_dock_);
    head_dock_->hide();  // shown at the grid's own height (HeadGridCanvas::sizeHint), not squeezing the heatmap
    keepHeatmapRoom(head_dock_, false);
    connect(state_, &DecodeState::attentionViewChanged, this, &MainWindow::showAttentionView);
    view_label_->setWordWrap(true);
    view_label_->setTextFormat(Qt::PlainText);  // "<sos>" is a token, not a tag
}

QString MainWindow::attentionViewText() const {
    const QString words = wordsText();  // pieces merged into words: what that means here (main_window_words.cpp)
    const auto joined = [&words](const QString& text) {
        return words.isEmpty() ? text : text.isEmpty() ? words : text + QLatin1Char('\n') + words;
    };
    if (const QString explained = explanationText(); !explained.isEmpty()) return joined(explained);
    const AttentionView& view = state_->attentionView();
    if (view.isDefault() || !state_->decode()) return joined({});
    const int heads = attentionHeads(state_->decode()->result, view.kind);
    return joined(tr("Heatmap: %1 — %2").arg(attentionViewTitle(view, heads), attentionViewAxesText(view.kind)));
}

void MainWindow::showAttentionView() {
    if (!view_label_ || !heatmap_) return;  // still being built
    const QString text = attentionViewText();
    view_label_->setText(text);
    view_label_->setVisible(!text.isEmpty());
    view_label_->setToolTip(tr("Attention heads ▸ Default view returns to the model's attention"));
    std::vector<AlignmentMark> marks;
    if (state_->attentionView().isDefault()) marks = style_.alignment_marks;
    if (marks == heatmap_->style().alignment_marks) return;
    HeatmapStyle shown = heatmap_->style();
    shown.alignment_marks = marks;
    heatmap_->setStyle(shown);
}

}  // namespace attnviz::ui
