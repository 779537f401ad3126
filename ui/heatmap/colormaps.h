// Colour maps for the heatmap: names (as used by settings, --colormap and the GUI menu) and QCustomPlot gradients.
// Every gradient maps weight 0 to its first colour and 1 to its last; stops come from published tables
// (matplotlib's viridis/magma/cividis/bone, ColorBrewer's Blues), not eyeballed.
#pragma once
#include <qcustomplot.h>
#include <QColor>
#include <QString>
#include <QStringList>

namespace attnviz::ui {

// "viridis" (default, perceptually uniform), "magma", "cividis" (colour-blind safe), "bone", "gray" (black = 0,
// white = 1, as in Bahdanau et al. 2015, fig. 3), "greys" (white = 0, black = 1: for print), "blues".
QStringList colormapNames();
QString defaultColormap();                               // "viridis"
bool isColormap(const QString& name);                    // case-insensitive
QCPColorGradient colormapGradient(const QString& name);  // unknown name -> viridis
// For signed values (a difference of attention): ColorBrewer's diverging RdBu, blue at the low end, a light grey at
// the centre, red at the high end; not among colormapNames(), a scale centred on 0 uses it whatever the colour map.
QCPColorGradient divergingGradient();
QString colormapDisplayName(const QString& name);  // "Viridis (perceptually uniform)"; unknown -> the viridis one
// Black or white, whichever reads better on `background` (WCAG contrast against the relative luminance).
QColor contrastingTextColor(const QColor& background);
// WCAG contrast ratio of two colours: 1 (the same luminance) to 21 (black on white).
double contrastRatio(const QColor& a, const QColor& b);

}  // namespace attnviz::ui
