#include "window/heatmap_actions.h"

#include "heatmap/heatmap_view.h"
#include "state/decode_state.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QIcon>
#include <QMenu>

namespace attnviz::ui {

namespace {
QAction* makeAction(QObject* parent, const char* theme_icon, const QString& object_name) {
    auto* a = new QAction(QIcon::fromTheme(QString::fromLatin1(theme_icon)), QString(), parent);
    a->setObjectName(object_name);  // found by tests and by QMainWindow's saved state alike
    return a;
}

void setTexts(QAction* a, const QString& text, const QString& tip) {
    a->setText(text);
    a->setStatusTip(tip);
    const QKeySequence key = a->shortcut();
    a->setToolTip(key.isEmpty() ? tip : QStringLiteral("%1 (%2)").arg(tip, key.toString(QKeySequence::NativeText)));
}
}  // namespace

HeatmapActions::HeatmapActions(HeatmapView* view, DecodeState* state, QObject* parent)
    : QObject(parent), view_(view), state_(state) {
    zoom_in_ = makeAction(this, "zoom-in", QStringLiteral("zoomIn"));
    zoom_in_->setShortcuts(QKeySequence::ZoomIn);
    connect(zoom_in_, &QAction::triggered, view_, &HeatmapView::zoomIn);
    zoom_out_ = makeAction(this, "zoom-out", QStringLiteral("zoomOut"));
    zoom_out_->setShortcuts(QKeySequence::ZoomOut);
    connect(zoom_out_, &QAction::triggered, view_, &HeatmapView::zoomOut);
    zoom_reset_ = makeAction(this, "zoom-original", QStringLiteral("zoomReset"));
    connect(zoom_reset_, &QAction::triggered, view_, &HeatmapView::resetView);
    copy_values_ = makeAction(this, "edit-copy", QStringLiteral("copyCellValues"));
    connect(copy_values_, &QAction::triggered, this, &HeatmapActions::copyCellValues);
    inspect_ = makeAction(this, "zoom-select", QStringLiteral("inspectCell"));
    connect(inspect_, &QAction::triggered, this, [this] {
        if (menu_row_ >= 0) state_->setSelection(menu_row_, menu_col_);
    });
    retranslate();
}

void HeatmapActions::retranslate() {
    zoom_reset_->setShortcut(QKeySequence(tr("Ctrl+0")));
    setTexts(zoom_in_, tr("&Zoom in"), tr("Larger heatmap cells"));
    setTexts(zoom_out_, tr("Zoom &out"), tr("Smaller heatmap cells, more of a long sentence in view"));
    setTexts(zoom_reset_, tr("&Reset zoom"), tr("The heatmap's first view again"));
    setTexts(copy_values_, tr("Copy cell &values"),
             tr("Copy the weights shown, with their tokens, as tab-separated text (for a spreadsheet)"));
    setTexts(inspect_, tr("&Inspect cell"), tr("Select this cell: the cell inspector shows how its weight was made"));
}

void HeatmapActions::addZoomActions(QMenu* menu) const {
    menu->addAction(zoom_in_);
    menu->addAction(zoom_out_);
    menu->addAction(zoom_reset_);
}

void HeatmapActions::showContextMenu(int row, int col, const QPoint& globalPos, QAction* copy_image,
                                     QAction* export_heatmap) {
    menu_row_ = row;
    menu_col_ = col;
    const bool has_matrix = !view_->data().isEmpty();
    copy_values_->setEnabled(has_matrix);
    inspect_->setEnabled(row >= 0 && col >= 0 && state_->attentionView().isDefault());  // a cell of `attention`
    QMenu menu(view_);
    menu.addAction(copy_image);
    menu.addAction(copy_values_);
    menu.addAction(export_heatmap);
    menu.addSeparator();
    menu.addAction(inspect_);
    menu.addSeparator();
    addZoomActions(&menu);
    menu.exec(globalPos);
}

void HeatmapActions::copyCellValues() {
    if (view_->data().isEmpty()) return;
    QApplication::clipboard()->setText(view_->shownValuesTsv());
}

}  // namespace attnviz::ui
