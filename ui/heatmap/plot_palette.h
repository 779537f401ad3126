// Colours that follow a widget's palette, light or dark: QCustomPlot draws with its own pens (black on white by
// default), so the window's plots take theirs from the palette here; warnings pick a red readable on the palette.
#pragma once
#include <QColor>
#include <QString>

class QCustomPlot;
class QPalette;

namespace attnviz::ui {

bool isDarkPalette(const QPalette& palette);  // the window colour is darker than its text
// Background, axes, ticks, labels and grid of every axis of `plot` from `palette` (Base, Text, Mid).
void applyPaletteToPlot(QCustomPlot* plot, const QPalette& palette);
QColor warningColor(const QPalette& palette);        // a red with good contrast on the window colour
QString warningStyleSheet(const QPalette& palette);  // "color: #rrggbb;" of warningColor()
QColor dimmedTextColor(const QPalette& palette);     // for text not reached yet (e.g. future output tokens)

}  // namespace attnviz::ui
