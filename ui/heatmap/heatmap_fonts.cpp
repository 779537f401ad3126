#include "heatmap/heatmap_fonts.h"

#include <algorithm>
#include <cmath>

namespace attnviz::ui {

QStringList heatmapFontFamilies() {
    // A Latin face first, then a Simplified Chinese one so that Han characters get SC glyph forms (fontconfig's own
    // fallback may pick the JP variant); further scripts fall back through fontconfig.
    return {QStringLiteral("DejaVu Sans"), QStringLiteral("Noto Sans CJK SC"), QStringLiteral("Droid Sans Fallback")};
}

QFont heatmapFont(double pixels) {
    QFont f;
    f.setFamilies(heatmapFontFamilies());
    f.setPixelSize(std::max(1, int(std::lround(pixels))));
    return f;
}

}  // namespace attnviz::ui
