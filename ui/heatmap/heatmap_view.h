// The attention heatmap widget: a QCustomPlot with one crisp cell per (target token, source token), token labels,
// a colour scale, the current row and the selected cell outlined, optional values in the cells and a tooltip.
//
// Coordinates: `row`/`col` in signals, HeatmapStyle::current_row/selected_* and setVisibleRows are DATA indices
// (into HeatmapData: row = target position, col = source position, specials included). cellValue()/matrixSize()
// speak of the colour map itself (DISPLAY indices), which lacks the hidden special rows/columns when
// HeatmapStyle::hide_specials is on; dataRow()/dataColumn() map one to the other.
//
// Long sentences: the initial view keeps cells at least minimumCellSize() pixels wide/high and shows the first
// ones, or the current row and the selected cell when they lie further on (they are scrolled into view whenever
// they change); the mouse wheel scrolls (Shift: sideways), Ctrl+wheel zooms around the pointer, dragging pans, the
// scroll bars move, a double click fits the whole matrix; zoomIn/zoomOut/resetView are the View menu's zoom.
// A right click asks for the cell's context menu (contextMenuRequested): the window builds it.
#pragma once
#include "heatmap/heatmap_data.h"
#include "heatmap/heatmap_diagnostics.h"

#include <QSize>
#include <QWidget>
#include <memory>
#include <optional>

class QCustomPlot;
class QScrollBar;
class QWheelEvent;

namespace attnviz::ui {

class HeatmapLegendStrip;
class HeatmapScene;

class HeatmapView : public QWidget {
    Q_OBJECT
public:
    explicit HeatmapView(QWidget* parent = nullptr);
    ~HeatmapView() override;

    void setData(const HeatmapData& data);  // replots at once; keeps the style
    // New data with its rows shown and marked row (as setVisibleRows/setCurrentRow), in one replot.
    void setData(const HeatmapData& data, int visibleRows, int currentRow);
    void setStyle(const HeatmapStyle& style);
    const HeatmapData& data() const;
    const HeatmapStyle& style() const;

    // Rows decoded so far while stepping (-1: all). Rows at or after n are drawn empty and unlabelled; the matrix
    // keeps its size so that the picture does not jump while stepping.
    void setVisibleRows(int n);
    int visibleRows() const;

    // Convenience setters that change one field of the style.
    void setColormap(const QString& name);
    void setAnnotate(bool on);
    void setHideSpecials(bool on);
    void setCurrentRow(int row);             // data index, -1: none
    void setSelectedCell(int row, int col);  // data indices, -1,-1: none
    // Forced rows and unknown words marked beside their labels (heatmap_data.h), data indices.
    void setLabelMarks(const LabelMarks& marks);
    const LabelMarks& labelMarks() const;
    // Where the mark of DATA row / column is drawn, in plot() pixels; empty when it is hidden.
    QRect rowMarkRect(int row) const;
    QRect columnMarkRect(int col) const;

    QCustomPlot* plot();  // for tests
    // The coverage and row entropies drawn when style().diagnostics (empty otherwise).
    const HeatmapDiagnostics& diagnostics() const;
    // What the colour map holds at DISPLAY cell (row, col); NaN outside or for rows not decoded yet.
    double cellValue(int row, int col) const;
    QSize matrixSize() const;           // (cols, rows) of the QCPColorMap data
    int dataRow(int displayRow) const;  // -1 if out of range
    int dataColumn(int displayCol) const;
    // Pixel centre (in plot() coordinates) of DATA cell (row, col); (-1,-1) if hidden.
    QPoint cellCenter(int row, int col) const;
    // Where DATA cell (row, col) lies in plot() pixels, in view or not; empty if hidden.
    QRectF cellRect(int row, int col) const;
    // The matrix's part of plot() (the axis rect): cells are drawn here, labels and diagnostics around it.
    QRect matrixRect() const;
    // Where the current row's and the selected cell's outlines are drawn, in plot() pixels (within matrixRect());
    // empty when there is none or it is scrolled out of view.
    QRect currentRowOutline() const;
    QRect selectedCellOutline() const;
    // Where the coverage row's label is written (plot() pixels); empty without style().diagnostics.
    QRectF coverageLabelRect() const;
    QScrollBar* horizontalScrollBar() const;
    QScrollBar* verticalScrollBar() const;
    // The legend under the plot (heatmap_legend.h): the coverage colours, the H / ln S column and the gold marks,
    // its entries while the style draws them, shown whenever it has entries, at any height: heightForRows counts it.
    HeatmapLegendStrip* legend() const;
    // Off: the view draws no legend of its own (several maps side by side share one, views/compare_view.h).
    void setLegendShown(bool on);

    void setMinimumCellSize(int pixels);  // default 18
    // The rows (or all, when fewer) the view's minimum height keeps at the minimum cell size, beside its labels and
    // diagnostics; default 2 (the main window's docks keep more where the window allows, main_window_docks.cpp).
    void setLeastRows(int rows);
    int minimumCellSize() const;
    // The height the view needs to show `rows` rows of minimumCellSize() with its labels, diagnostics and scroll bar
    // as they are laid out now.
    int heightForRows(int rows) const;
    void fitAll();     // whole matrix in view (cells may get small)
    void resetView();  // the initial view (minimum cell size, first rows/columns)
    // Cells larger / smaller by kZoomStep around the middle of the view (never beyond the whole matrix, never
    // less than one cell in view).
    void zoomIn();
    void zoomOut();
    static constexpr double kZoomStep = 1.25;

    // The shown matrix as tab-separated text: a header line with the shown source tokens after an empty cell, then
    // one line per decoded shown row (its target token, then its weights to float precision). Hidden specials
    // and rows not decoded yet are left out; tokens are written in full.
    QString shownValuesTsv() const;

    // The picture as exported (whole matrix, not a screenshot) is made by heatmap_export.h.

signals:
    void cellHovered(int row, int col);  // data indices; -1,-1 when leaving the matrix
    void cellClicked(int row, int col);  // data indices (left button, without dragging)
    // Right click (or the menu key) at `globalPos` over data cell (row, col), or (-1, col) over the label of column
    // col; -1,-1 elsewhere.
    void contextMenuRequested(int row, int col, const QPoint& globalPos);

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;  // palette (theme) and language changes redraw the figure
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void rebuild();
    void setData(const HeatmapData& data, bool marksMoved);
    void refresh(bool reshaped, bool marksMoved = false);
    void updateScrollBars();
    void clampRanges();
    void resetCells(bool keepPosition, bool marksMoved = false);
    void updateMinimumHeight();
    static constexpr double kBarUnits = 10;  // scroll bar steps per cell
    void showMarks();
    void hover(const QPoint& pos);
    void wheel(QWheelEvent* event);
    void zoomBy(double factor, std::optional<QPointF> around = std::nullopt);  // > 1: cells larger

    QCustomPlot* plot_ = nullptr;
    QScrollBar* hbar_ = nullptr;
    QScrollBar* vbar_ = nullptr;
    HeatmapLegendStrip* legend_ = nullptr;
    std::unique_ptr<HeatmapScene> scene_;
    HeatmapData data_;
    HeatmapStyle style_;
    int visible_rows_ = -1;
    int min_cell_ = 18;
    int least_rows_ = 2;
    bool user_view_ = false;  // the user zoomed/panned: keep the view on resize
    bool zoomed_ = false;     // the user chose the cell size (zoom, fit all): kept on resize, even below min_cell_
    bool syncing_ = false;    // guards against scroll bar <-> range feedback
    int hover_row_ = -1, hover_col_ = -1;
    QPoint press_pos_;
    bool pressed_ = false;
    bool legend_shown_ = true;
};

}  // namespace attnviz::ui
