// The head grid's drawing (bertviz's "model view" for an encoder-decoder): one small heatmap per layer (rows) and
// head (columns), labelled, shared by the dock on screen and its exports. The numbers are the decode's own
// (decode/attention_views.h); this file only lays them out and colours them.
#pragma once
#include <QColor>
#include <QFont>
#include <QPoint>
#include <QRect>
#include <QString>
#include <QStringList>

#include <vector>

class QPainter;

namespace attnviz::ui {

using HeadMatrix = std::vector<std::vector<float>>;  // rows × columns of one layer and head

struct HeadGridFigure {
    QString title;                                // drawn above the grid when not empty (exports)
    QStringList row_labels;                       // a label per layer: "layer 1", …
    QStringList col_labels;                       // a label per head: "head 1", … (or one: "mean of 4 heads")
    std::vector<std::vector<HeadMatrix>> cells;   // [layer][head]
    int visible_rows = -1;                        // rows at or after this are drawn empty (stepping); -1: all
    bool causal = false;                          // cells above the diagonal drawn empty (decoder self-attention)
    QString colormap;                             // heatmap/colormaps.h; weights on [0, 1]
    int selected_layer = -1, selected_head = -1;  // outlined: the thumbnail the main heatmap shows
    std::vector<QPoint> removed;                  // (layer, head) turned off in the decode: greyed and crossed out

    int layers() const { return int(cells.size()); }
    int heads() const { return cells.empty() ? 0 : int(cells[0].size()); }
    bool isEmpty() const { return layers() == 0 || heads() == 0; }
    // Whether cell (row, col) of a matrix is drawn (decoded so far, not masked).
    bool shows(int row, int col) const { return (visible_rows < 0 || row < visible_rows) && !(causal && col > row); }
};

struct HeadGridLayout {
    QRectF title;
    std::vector<QRectF> row_labels, col_labels;
    std::vector<std::vector<QRectF>> thumbs;  // [layer][head]
    double cell = 0, cell_h = 0;              // width and height of one matrix cell in the thumbnails
    // Lays `figure` out in `area` with `font`'s labels, whole pixels when they can. Cells are square unless the room
    // is of another shape than the matrices (a long output of a short sentence): then they stretch, up to
    // kMaxCellStretch times as wide as high or the other way, so that the thumbnails fill the room and stay readable.
    static constexpr double kMaxCellStretch = 2.5;
    static HeadGridLayout make(const HeadGridFigure& figure, const QRect& area, const QFont& font);
    // (layer, head) of the thumbnail at `pos`, or (-1, -1).
    QPoint hit(const QPointF& pos) const;
};

struct HeadGridColors {
    QColor text = Qt::black;
    QColor empty = QColor(235, 235, 235);  // cells not decoded yet, or masked
    QColor selected = QColor(0, 114, 178);
};

void paintHeadGrid(QPainter& p, const HeadGridFigure& figure, const HeadGridLayout& layout, const QFont& font,
                   const HeadGridColors& colors);

}  // namespace attnviz::ui
