// The heatmap as a figure: an offscreen QCustomPlot built by the same HeatmapScene as the widget, showing the WHOLE
// matrix with every token label, the colour scale and the optional title, painted at a chosen pixel size and DPI
// (not a screenshot of the widget). Used by heatmap_export.h, the GUI's "copy image" and `attnviz-cli render`.
//
// Size model: the figure is `pixels` device pixels at `dpi`; it is laid out at 96 dpi logical pixels
// (pixels * 96 / dpi) and painted scaled by dpi / 96, so that a higher DPI gives larger text and lines at the same
// pixel size, like a figure printed at that resolution. Fonts are given in pixels, so the result does not depend
// on the screen.
#pragma once
#include "heatmap/heatmap_data.h"

#include <QImage>
#include <QRect>
#include <QRectF>
#include <QSize>
#include <functional>
#include <memory>
#include <vector>

class QCustomPlot;
class QCPPainter;
class QPaintDevice;

namespace attnviz::ui {

class HeatmapScene;

class HeatmapRenderer {
public:
    // Needs a QGuiApplication (QCustomPlot is a QWidget): attnviz-cli creates one on the offscreen platform.
    HeatmapRenderer(const HeatmapData& data, const HeatmapStyle& style);
    ~HeatmapRenderer();

    // Paints the figure onto `device` (an image, QSvgGenerator, QPdfWriter ...; no painter may be active on it)
    // filling `pixels` device pixels. `vector` keeps text as text and lines as lines (SVG, PDF); the colour cells
    // are then an embedded image without smoothing.
    void paint(QPaintDevice* device, const QSize& pixels, double dpi, bool vector);
    // The same into `area` (device pixels) of a painter already active on its device (paint's set-up done).
    void paintInto(QCPPainter& painter, const QRect& area, double dpi, bool vector);
    // The figure as an ARGB32 image of exactly `pixels`, white background, with the DPI in its metadata.
    QImage toImage(const QSize& pixels, double dpi);

    QCustomPlot* plot();  // for tests
    HeatmapScene& scene();
    // Where the last paint drew the legend (heatmap_legend.h: a band under the plot while the style draws coverage
    // or gold marks, left out of a figure too short for it), in the device's pixels; empty when it drew none.
    QRectF legendRect() const { return legend_rect_; }

private:
    std::unique_ptr<QCustomPlot> plot_;
    std::unique_ptr<HeatmapScene> scene_;
    QRectF legend_rect_;
};

// One heatmap of a figure with several side by side (a comparison's A, B and B − A), each with its own style.
struct HeatmapPanel {
    HeatmapData data;
    HeatmapStyle style;
};
// Paints `panels` left to right onto `device`, each in an equal share of `pixels`' width and its full height, each
// drawn by its own HeatmapRenderer (so each looks as it would exported alone at that size). With `columns` > 0 they
// fill a grid of that many columns row by row (a filmstrip), each row an equal share of the height.
void paintPanels(const std::vector<HeatmapPanel>& panels, QPaintDevice* device, const QSize& pixels, double dpi,
                 bool vector, int columns = 0);
// The panels as an opaque image of exactly `pixels` on the first panel's background, with the DPI in its metadata.
QImage panelsToImage(const std::vector<HeatmapPanel>& panels, const QSize& pixels, double dpi, int columns = 0);
// Any figure as such an image: `pixels` filled with `paper`, painted by `paint` (while it paints, the image claims
// 96 dpi, so that nothing Qt derives from the device DPI differs from the layout's), then `dpi` in the metadata.
QImage figureImage(const QSize& pixels, double dpi, const QColor& paper,
                   const std::function<void(QPaintDevice* image)>& paint);

}  // namespace attnviz::ui
