// The heatmap's own actions in the window: zoom in / out / reset (View menu; Ctrl+plus, Ctrl+minus, Ctrl+0) and
// the context menu of a right click on the heatmap: copy image, copy cell values (the shown matrix as
// tab-separated text with its token labels, for a spreadsheet), export…, and inspect cell (selects that cell in
// the DecodeState; the cell inspector shows the selection).
#pragma once
#include <QList>
#include <QObject>

class QAction;
class QMenu;
class QPoint;
class QWidget;

namespace attnviz::ui {

class DecodeState;
class HeatmapView;

class HeatmapActions : public QObject {
    Q_OBJECT
public:
    HeatmapActions(HeatmapView* view, DecodeState* state, QObject* parent);

    // Texts, tips and shortcuts: again after a language change (MainWindow::createActions calls it).
    void retranslate();
    void addZoomActions(QMenu* menu) const;
    // Shows the context menu at `globalPos` for data cell (row, col) (-1,-1: outside the matrix), with the
    // window's `copy_image` and `export_heatmap` actions; returns when it closes.
    void showContextMenu(int row, int col, const QPoint& globalPos, QAction* copy_image, QAction* export_heatmap);

    // Puts HeatmapView::shownValuesTsv() on the clipboard.
    void copyCellValues();

    QAction* zoomInAction() const { return zoom_in_; }
    QAction* zoomOutAction() const { return zoom_out_; }
    QAction* zoomResetAction() const { return zoom_reset_; }
    QAction* copyValuesAction() const { return copy_values_; }
    QAction* inspectAction() const { return inspect_; }

private:
    HeatmapView* view_;
    DecodeState* state_;
    QAction* zoom_in_;
    QAction* zoom_out_;
    QAction* zoom_reset_;
    QAction* copy_values_;
    QAction* inspect_;
    int menu_row_ = -1, menu_col_ = -1;  // the cell the context menu was opened on
};

}  // namespace attnviz::ui
