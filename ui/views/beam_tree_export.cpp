#include "views/beam_tree_export.h"

#include "heatmap/heatmap_scene.h"
#include "io/beam_json.h"
#include "views/beam_tree_painter.h"

#include <QPainter>

#include <algorithm>
#include <cmath>

namespace attnviz::ui {

namespace {

constexpr double kLogicalDpi = 96;
constexpr int kMaxSide = 20000;  // validateExportOptions' bound

}  // namespace

QSize beamTreeExportPixels(const QSize& logical, double dpi) {
    if (logical.isEmpty()) return {};
    double scale = dpi / kLogicalDpi;
    scale = std::min({scale, kMaxSide / double(logical.width()), kMaxSide / double(logical.height())});
    return {std::max(16, int(std::lround(logical.width() * scale))),
            std::max(16, int(std::lround(logical.height() * scale)))};
}

bool exportBeamTree(const BeamTreeExport& what, const QString& path, const ExportOptions& options, QString* error) {
    if (!what.tree || !what.target_vocab || what.tree->nodes.empty()) {
        if (error) *error = QStringLiteral("%1: nothing to export (no beam search is shown)").arg(path);
        return false;
    }
    const BeamTreeLayout layout = BeamTreeLayout::of(what.tree, what.target_vocab, what.show_pruned);
    const BeamTreeStyle style{beamTreeExportPalette(), heatmapFont(12), what.selected};
    ExportFigure figure;
    figure.title = QStringLiteral("beam search tree");
    figure.description = QStringLiteral("beam search tree: width %1, %2 nodes over %3 steps")
                             .arg(what.beam_width)
                             .arg(what.tree->nodes.size())
                             .arg(layout.columns.size() - 1);
    figure.paper = style.palette.color(QPalette::Base);
    figure.paint = [&](QPaintDevice* device, const QSize& pixels, double, bool) {
        QPainter p(device);
        p.setRenderHint(QPainter::TextAntialiasing);
        p.scale(pixels.width() / double(layout.size.width()), pixels.height() / double(layout.size.height()));
        const QRect all(QPoint(0, 0), layout.size);
        p.fillRect(all, figure.paper);
        paintBeamTree(p, *what.tree, layout, style, all);
    };
    ExportOptions o = options;
    const QSize pixels = beamTreeExportPixels(layout.size, options.dpi);
    o.width = pixels.width();
    o.height = pixels.height();
    return exportFigure(figure, path, o, error, [&](const QString& format) {
        return format == QLatin1String("csv")
                   ? beamTreeToCsv(*what.tree, *what.target_vocab)
                   : beamTreeToJsonText(*what.tree, *what.target_vocab, what.source, what.beam_width, 2) + "\n";
    });
}

}  // namespace attnviz::ui
