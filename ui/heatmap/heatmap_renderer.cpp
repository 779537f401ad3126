#include "heatmap/heatmap_renderer.h"

#include "heatmap/heatmap_legend.h"
#include "heatmap/heatmap_scene.h"

#include <qcustomplot.h>
#include <algorithm>
#include <cmath>

namespace attnviz::ui {

namespace {
constexpr double kLogicalDpi = 96;
constexpr double kLegendShare = 0.85;  // the legend's text against the labels' font size
constexpr double kLegendInset = 8;     // from the figure's left and bottom edges (the plot's own margin)
}  // namespace

HeatmapRenderer::HeatmapRenderer(const HeatmapData& data, const HeatmapStyle& style)
    : plot_(std::make_unique<QCustomPlot>()) {
    plot_->setAttribute(Qt::WA_DontShowOnScreen);
    scene_ = std::make_unique<HeatmapScene>(plot_.get(), HeatmapScene::Mode::Export);
    scene_->setContent(data, style, -1);  // the marks (current row, selection) are drawn if the style has them
}

HeatmapRenderer::~HeatmapRenderer() {
    scene_.reset();  // before the plot that owns the scene's elements
}

QCustomPlot* HeatmapRenderer::plot() { return plot_.get(); }
HeatmapScene& HeatmapRenderer::scene() { return *scene_; }

namespace {

// A painter on `device` set up for figures: antialiased lines and text, crisp cells, text as text (never cached
// pixmaps), vector mode for SVG and PDF.
void setUpPainter(QCPPainter& p, bool vector) {
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setRenderHint(QPainter::TextAntialiasing, true);
    p.setRenderHint(QPainter::SmoothPixmapTransform, false);  // crisp cells
    if (vector) p.setMode(QCPPainter::pmVectorized);
    p.setMode(QCPPainter::pmNoCaching);
}

}  // namespace

QImage figureImage(const QSize& pixels, double dpi, const QColor& paper,
                   const std::function<void(QPaintDevice* image)>& paint) {
    QImage image(pixels, QImage::Format_ARGB32_Premultiplied);
    const int logicalDpm = int(std::lround(kLogicalDpi / 0.0254));
    image.setDotsPerMeterX(logicalDpm);
    image.setDotsPerMeterY(logicalDpm);
    image.fill(paper.isValid() ? paper : QColor(Qt::white));
    paint(&image);
    image.convertTo(QImage::Format_RGB32);  // opaque: smaller and faster PNGs
    const int dpm = int(std::lround(dpi / 0.0254));
    image.setDotsPerMeterX(dpm);
    image.setDotsPerMeterY(dpm);
    return image;
}

void HeatmapRenderer::paint(QPaintDevice* device, const QSize& pixels, double dpi, bool vector) {
    QCPPainter p(device);
    setUpPainter(p, vector);
    paintInto(p, QRect(QPoint(0, 0), pixels), dpi, vector);
    p.end();
}

void HeatmapRenderer::paintInto(QCPPainter& p, const QRect& area, double dpi, bool vector) {
    const double scale = dpi / kLogicalDpi;
    const QSize logical(std::max(1, int(std::lround(area.width() / scale))),
                        std::max(1, int(std::lround(area.height() / scale))));
    // The legend's band under the plot, at the figure's width; left out when it would take over a third of it.
    const std::vector<LegendEntry> entries = heatmapLegendEntries(scene_->style());
    const double legendPx = scene_->fontPixelSize() * kLegendShare;
    const LegendLayout legend = layoutLegend(entries, logical.width() - 2 * kLegendInset, legendPx);
    const double band = legend.height > 0 ? legend.height + kLegendInset : 0;
    const bool withLegend = band > 0 && band <= logical.height() / 3.0;
    const QSize plotSize(logical.width(), logical.height() - (withLegend ? int(std::ceil(band)) : 0));
    plot_->resize(plotSize);
    scene_->fitForExport(plotSize);
    scene_->setVectorCells(vector);
    const double sx = area.width() / double(logical.width()), sy = area.height() / double(logical.height());
    p.save();
    p.translate(area.topLeft());
    p.scale(sx, sy);
    plot_->toPainter(&p, plotSize.width(), plotSize.height());
    legend_rect_ = QRectF();
    if (withLegend) {
        const QColor paper = scene_->style().background.isValid() ? scene_->style().background : QColor(Qt::white);
        p.fillRect(QRectF(0, plotSize.height(), logical.width(), logical.height() - plotSize.height()), paper);
        const QPointF at(kLegendInset, plotSize.height());
        paintLegend(&p, at, entries, legend, legendPx, paper);
        double right = 0;
        for (const QRectF& r : legend.entries) right = std::max(right, r.right());
        legend_rect_ = QRectF(area.left() + at.x() * sx, area.top() + at.y() * sy, right * sx, legend.height * sy);
    }
    p.restore();
}

QImage HeatmapRenderer::toImage(const QSize& pixels, double dpi) {
    return figureImage(pixels, dpi, scene_->style().background,
                       [&](QPaintDevice* image) { paint(image, pixels, dpi, false); });
}

void paintPanels(const std::vector<HeatmapPanel>& panels, QPaintDevice* device, const QSize& pixels, double dpi,
                 bool vector, int columns) {
    if (panels.empty()) return;
    QCPPainter p(device);
    setUpPainter(p, vector);
    const int n = int(panels.size());
    const int cols = columns > 0 ? std::min(columns, n) : n, rows = (n + cols - 1) / cols;
    for (int i = 0; i < n; ++i) {
        // Whole pixels, the last column and row taking what rounding leaves.
        const int c = i % cols, r = i / cols;
        const int x0 = pixels.width() * c / cols, x1 = pixels.width() * (c + 1) / cols;
        const int y0 = pixels.height() * r / rows, y1 = pixels.height() * (r + 1) / rows;
        HeatmapRenderer renderer(panels[size_t(i)].data, panels[size_t(i)].style);
        renderer.paintInto(p, QRect(x0, y0, x1 - x0, y1 - y0), dpi, vector);
    }
    p.end();
}

QImage panelsToImage(const std::vector<HeatmapPanel>& panels, const QSize& pixels, double dpi, int columns) {
    const QColor paper = panels.empty() ? QColor(Qt::white) : panels.front().style.background;
    return figureImage(pixels, dpi, paper,
                       [&](QPaintDevice* image) { paintPanels(panels, image, pixels, dpi, false, columns); });
}

}  // namespace attnviz::ui
