#include "heatmap/plot_palette.h"

#include <qcustomplot.h>
#include <QPalette>

namespace attnviz::ui {

bool isDarkPalette(const QPalette& palette) {
    return palette.color(QPalette::Window).lightnessF() < palette.color(QPalette::WindowText).lightnessF();
}

void applyPaletteToPlot(QCustomPlot* plot, const QPalette& palette) {
    const QColor paper = palette.color(QPalette::Base), ink = palette.color(QPalette::Text);
    const QColor grid = palette.color(QPalette::Mid);
    plot->setBackground(paper);
    for (QCPAxisRect* rect : plot->axisRects())
        for (QCPAxis* axis : rect->axes()) {
            axis->setBasePen(QPen(ink, 1));
            axis->setTickPen(QPen(ink, 1));
            axis->setSubTickPen(QPen(ink, 1));
            axis->setTickLabelColor(ink);
            axis->setLabelColor(ink);
            axis->grid()->setPen(QPen(grid, 1, Qt::DotLine));
        }
}

QColor warningColor(const QPalette& palette) {
    return isDarkPalette(palette) ? QColor(255, 120, 120) : QColor(176, 0, 32);
}

QString warningStyleSheet(const QPalette& palette) {
    return QStringLiteral("color: %1;").arg(warningColor(palette).name());
}

QColor dimmedTextColor(const QPalette& palette) {
    return isDarkPalette(palette) ? QColor(140, 140, 140) : QColor(153, 153, 153);
}

}  // namespace attnviz::ui
