#include "heatmap/heatmap_renderer.h"

#include "heatmap/heatmap_scene.h"

#include <qcustomplot.h>
#include <cmath>

namespace attnviz::ui {

namespace {
constexpr double kLogicalDpi = 96;
}

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

void HeatmapRenderer::paint(QPaintDevice* device, const QSize& pixels, double dpi, bool vector) {
    const double scale = dpi / kLogicalDpi;
    const QSize logical(std::max(1, int(std::lround(pixels.width() / scale))),
                        std::max(1, int(std::lround(pixels.height() / scale))));
    plot_->resize(logical);
    scene_->fitForExport(logical);
    scene_->setVectorCells(vector);

    QCPPainter p(device);
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setRenderHint(QPainter::TextAntialiasing, true);
    p.setRenderHint(QPainter::SmoothPixmapTransform, false);  // crisp cells
    if (vector) p.setMode(QCPPainter::pmVectorized);
    p.setMode(QCPPainter::pmNoCaching);  // text drawn as text, never cached pixmaps
    p.scale(pixels.width() / double(logical.width()), pixels.height() / double(logical.height()));
    plot_->toPainter(&p, logical.width(), logical.height());
    p.end();
}

QImage HeatmapRenderer::toImage(const QSize& pixels, double dpi) {
    QImage image(pixels, QImage::Format_ARGB32_Premultiplied);
    // While painting, the image claims 96 dpi so that nothing Qt derives from the device DPI differs from the
    // layout's; the asked DPI is written afterwards.
    const int logicalDpm = int(std::lround(kLogicalDpi / 0.0254));
    image.setDotsPerMeterX(logicalDpm);
    image.setDotsPerMeterY(logicalDpm);
    image.fill(scene_->style().background.isValid() ? scene_->style().background : QColor(Qt::white));
    paint(&image, pixels, dpi, false);
    image.convertTo(QImage::Format_RGB32);  // opaque: smaller and faster PNGs
    const int dpm = int(std::lround(dpi / 0.0254));
    image.setDotsPerMeterX(dpm);
    image.setDotsPerMeterY(dpm);
    return image;
}

}  // namespace attnviz::ui
