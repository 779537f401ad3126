// The fonts of the heatmap's labels, in the widget and in every export (CJK fallbacks included).
#pragma once
#include <QFont>
#include <QStringList>

namespace attnviz::ui {

QStringList heatmapFontFamilies();  // label fonts, in fallback order
// Those fonts at a size in pixels (at least 1), so that a device's resolution (an SVG's or a PDF's dpi) does not
// scale the text a second time.
QFont heatmapFont(double pixels);

}  // namespace attnviz::ui
