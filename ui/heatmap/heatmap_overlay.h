// The heatmap's overlay layer (HeatmapScene's friend): draws what QCustomPlot has no element for, values in the
// cells, the current row, the selected and hovered cell, the cell grid of pale colour maps and the label marks.
#pragma once
#include "heatmap/heatmap_scene.h"

#include <qcustomplot.h>
#include <QFont>
#include <QString>

namespace attnviz::ui {

inline const QString kMarksLayer = QStringLiteral("heatmap-marks");  // the overlay's layer, above the axes
// The gap between the labels and the matrix (tick length 4 + padding 2): where the label marks are drawn.
inline constexpr double kMarkDepth = 6;

// The heatmap's font at `px` pixels, antialiased.
QFont heatmapBaseFont(double px);

// Draws what QCustomPlot has no element for: values in the cells, the current row, the selected and hovered cell.
class HeatmapOverlay : public QCPLayerable {
public:
    HeatmapOverlay(QCustomPlot* plot, HeatmapScene* scene) : QCPLayerable(plot, kMarksLayer), scene_(scene) {}

protected:
    void applyDefaultAntialiasingHint(QCPPainter* painter) const override {
        applyAntialiasingHint(painter, true, QCP::aeOther);
    }
    QRect clipRect() const override {
        const int m = int(kMarkDepth);
        const QRect matrix = scene_->axisRect()->rect().adjusted(-m, -m, 4, 4);
        return scene_->style_.diagnostics ? matrix.united(scene_->axisRect()->outerRect()) : matrix;
    }
    void draw(QCPPainter* painter) override;

private:
    void drawLabelMarks(QCPPainter* painter, int r0, int r1, int c0, int c1) const;
    void outline(QCPPainter* painter, const QRectF& r, const QColor& inner, double width) const;
    void cellGrid(QCPPainter* painter, int r0, int r1, int c0, int c1) const;
    double snap(QCPPainter* painter, double v) const;
    HeatmapScene* scene_;
};

}  // namespace attnviz::ui
