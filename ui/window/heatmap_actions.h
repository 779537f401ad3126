// The heatmap's own actions in the window: zoom in / out / reset (View menu; Ctrl+plus, Ctrl+minus, Ctrl+0) and
// the context menu of a right click on the heatmap: copy image, copy cell values (the shown matrix as
// tab-separated text with its token labels, for a spreadsheet), export…, inspect cell (selects that cell in
// the DecodeState; the cell inspector shows the selection), and the interventions (docs/gui.md): knock out the
// column's source word (or restore it) and, for the RNN models, attend only to this cell at its step.
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
class InterventionEdits;

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

    // Where the knockout and attend items put their edits (without: they are not offered).
    void setInterventionEdits(InterventionEdits* edits) { edits_ = edits; }

    // Puts HeatmapView::shownValuesTsv() on the clipboard.
    void copyCellValues();

    QAction* zoomInAction() const { return zoom_in_; }
    QAction* zoomOutAction() const { return zoom_out_; }
    QAction* zoomResetAction() const { return zoom_reset_; }
    QAction* copyValuesAction() const { return copy_values_; }
    QAction* inspectAction() const { return inspect_; }
    QAction* knockOutAction() const { return knock_out_; }
    QAction* attendAction() const { return attend_; }

signals:
    // An intervention could not be made (e.g. every word knocked out): the reason, for the window to show.
    void interventionRefused(const QString& why);

private:
    // The items' texts and whether they apply to (row, col) of the decode shown.
    void prepareInterventions(int row, int col);
    void knockOut();
    void attendHere();

    HeatmapView* view_;
    DecodeState* state_;
    QAction* zoom_in_;
    QAction* zoom_out_;
    QAction* zoom_reset_;
    QAction* copy_values_;
    QAction* inspect_;
    QAction* knock_out_;
    QAction* attend_;
    InterventionEdits* edits_ = nullptr;
    int menu_row_ = -1, menu_col_ = -1;  // the cell the context menu was opened on
};

}  // namespace attnviz::ui
