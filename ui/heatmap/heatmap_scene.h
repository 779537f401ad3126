// Builds and styles the heatmap inside a QCustomPlot. One scene drives the widget (HeatmapView) and the offscreen
// exporter (heatmap_renderer.h), so that the window and the exported figures look the same.
//
// Geometry: a QCPColorMap with one cell per shown (target, source) pair; key axis = the TOP axis (source tokens, as
// in Bahdanau et al. 2015), value axis = the left axis (target tokens), reversed so the first target token is at the
// top. Cells are centred on integers: display column c spans [c - 0.5, c + 0.5]. No interpolation.
// Colours: weights in [0, 1] map to the gradient's ends (fixed, so colours compare across models and steps) unless
// HeatmapStyle::fit_range asks for [0, max shown weight].
#pragma once
#include "heatmap/alignment_marks.h"
#include "heatmap/heatmap_data.h"
#include "heatmap/heatmap_diagnostics.h"
#include "heatmap/heatmap_fonts.h"
#include "heatmap/token_labels.h"  // isSpecialToken and the labels' rules

#include <qcustomplot.h>
#include <QPoint>
#include <QRectF>
#include <QVector>

namespace attnviz::ui {

class HeatmapOverlay;

// Which data rows/columns are shown, in display order (hide_specials drops <sos>/<eos> columns and the <eos> row).
struct HeatmapLayout {
    QVector<int> rows;  // display row -> data row
    QVector<int> cols;  // display col -> data col
    int displayRow(int dataRow) const { return rows.indexOf(dataRow); }
    int displayCol(int dataCol) const { return cols.indexOf(dataCol); }
    // The display row of dataRow or, when it is hidden (the <eos> row with hide_specials), the last shown row before
    // it: where the current row is marked. -1 for a negative dataRow or none before it.
    int displayRowAtOrBefore(int dataRow) const {
        int shown = -1;
        for (int i = 0; i < rows.size() && rows[i] <= dataRow; ++i) shown = i;
        return shown;
    }
    static HeatmapLayout make(const HeatmapData& data, bool hideSpecials);
};

class HeatmapScene {
public:
    enum class Mode { Interactive, Export };
    HeatmapScene(QCustomPlot* plot, Mode mode);
    ~HeatmapScene();
    HeatmapScene(const HeatmapScene&) = delete;
    HeatmapScene& operator=(const HeatmapScene&) = delete;

    // Rebuilds the colour map, labels, title and colour scale. Rows at or after visibleRows (-1: all) are NaN
    // (drawn as the empty background) and unlabelled. Does not replot and does not touch the axis ranges.
    void setContent(const HeatmapData& data, const HeatmapStyle& style, int visibleRows);
    // Only the outlines (current row, selection): no rebuild.
    void setMarks(const HeatmapStyle& style);
    void setHover(int dataRow, int dataCol);  // thin outline in interactive mode; -1,-1: none
    // The label marks (no rebuild); marks of rows or columns that are not shown are skipped.
    void setLabelMarks(const LabelMarks& marks);
    const LabelMarks& labelMarks() const { return label_marks_; }
    // Where the current row's and the selected cell's outlines are drawn, in plot pixels: their cells' rectangle cut
    // to the matrix (axisRect()->rect()), empty when out of view.
    QRectF currentRowOutline() const;
    QRectF selectedCellOutline() const;
    // Where a row's / a column's mark is drawn, in plot pixels (DISPLAY index).
    QRectF rowMarkRect(int displayRow) const;
    QRectF columnMarkRect(int displayCol) const;

    // Base font size in logical pixels (default 13); the exporter scales the painter for its DPI.
    void setFontPixelSize(double px);
    double fontPixelSize() const { return font_px_; }

    const HeatmapData& data() const { return data_; }
    const HeatmapStyle& style() const { return style_; }
    const HeatmapLayout& layout() const { return layout_; }
    int visibleRows() const { return visible_rows_; }
    const HeatmapDiagnostics& diagnostics() const { return diagnostics_; }  // filled when style().diagnostics
    QCustomPlot* plot() const { return plot_; }
    QCPColorMap* colorMap() const { return map_; }
    QCPColorScale* colorScale() const { return scale_; }
    QCPAxisRect* axisRect() const;
    QCPAxis* keyAxis() const;         // top axis, source tokens
    QCPAxis* valueAxis() const;       // left axis, target tokens (reversed)
    QCPRange fullKeyRange() const;    // (-0.5, cols - 0.5)
    QCPRange fullValueRange() const;  // (-0.5, rows - 0.5)

    // Tick labels for the current ranges and pixel size, by the rules of token_labels.h: every k-th so that they do
    // not overlap, source labels turned when they do not fit across a cell; the target labels' column is as wide as
    // its widest label, undecoded rows included. Call after the axis ranges or the widget size changed (the view
    // does), then replot.
    void updateTicks();
    // Export mode: chooses label and annotation font sizes for the cell size the figure will have at `logical`
    // size, then updateTicks(). Call before rendering.
    void fitForExport(const QSize& logical);
    // Vector output: cells drawn as rectangles (text stays text) and the colour map's bitmap hidden.
    void setVectorCells(bool on);

    // Runs QCustomPlot's layout for a viewport now (no painting), so that the axis rect size is known.
    void layoutNow(const QRect& viewport);

    // (data row, data col) under a pixel of the plot, (-1,-1) outside the matrix or in an empty (undecoded) row.
    QPoint cellAt(const QPointF& pixel) const;  // x = col, y = row
    // The data column whose label (above the matrix) is under a pixel of the plot, or -1.
    int columnLabelAt(const QPointF& pixel) const;
    QRectF displayCellRect(int displayRow, int displayCol) const;  // in plot pixels
    double displayValue(int displayRow, int displayCol) const;     // NaN outside

private:
    friend class HeatmapOverlay;
    void applyFonts();
    void applyColors();                                      // paper, labels and empty rows from style_.background
    void reserveValueLabelWidth(const QStringList& labels);  // all target labels, decoded or not
    QRectF inMatrix(const QRectF& cells) const;
    void reserveKeyLabelHeight(const QStringList& written, bool turned);  // the room above the matrix

    QCustomPlot* plot_;
    Mode mode_;
    QCPColorMap* map_ = nullptr;
    QCPColorScale* scale_ = nullptr;
    QCPTextElement* title_ = nullptr;
    QCPMarginGroup* margins_ = nullptr;
    HeatmapOverlay* overlay_ = nullptr;
    QSharedPointer<QCPAxisTickerText> key_ticker_, value_ticker_;
    HeatmapData data_;
    HeatmapStyle style_;
    HeatmapLayout layout_;
    HeatmapDiagnostics diagnostics_;
    LabelMetrics label_metrics_;  // the tick labels' sizes, kept from one layout pass to the next
    int visible_rows_ = -1;
    double font_px_ = 13;
    double label_px_ = 13;        // source (key) tick labels (the exporter may shrink them for narrow cells)
    double value_label_px_ = 13;  // target (value) tick labels (shrunk for short cells)
    double annotate_px_ = 11;
    int hover_row_ = -1, hover_col_ = -1;
    LabelMarks label_marks_;
    bool vector_cells_ = false;
};

}  // namespace attnviz::ui
