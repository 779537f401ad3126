#include "heatmap/fitted_title.h"

#include <QFontMetricsF>
#include <QPaintDevice>
#include <QPen>
#include <QStringList>
#include <algorithm>
#include <cmath>

namespace attnviz::ui {
namespace {

QFontMetricsF metricsOn(const QFont& font, QPaintDevice* device) {
    return device ? QFontMetricsF(font, device) : QFontMetricsF(font);
}

double widestLine(const QStringList& lines, const QFont& font, QPaintDevice* device) {
    const QFontMetricsF metrics = metricsOn(font, device);
    double widest = 0;
    for (const QString& line : lines) widest = std::max(widest, metrics.horizontalAdvance(line));
    return widest;
}

// `font` a pixel at a time smaller (text widths do not scale exactly with the size) until `lines` fit in `width`,
// down to kMinTitleScale of its size. A font sized in points is scaled once.
QFont shrunkToFit(const QFont& font, const QStringList& lines, double width, QPaintDevice* device) {
    QFont f = font;
    if (font.pixelSize() <= 0) {
        f.setPointSizeF(font.pointSizeF() * std::max(kMinTitleScale, width / widestLine(lines, font, device)));
        return f;
    }
    const int smallest = std::max(1, int(std::ceil(font.pixelSize() * kMinTitleScale)));
    for (int px = font.pixelSize() - 1; px >= smallest && widestLine(lines, f, device) > width; --px)
        f.setPixelSize(px);
    return f;
}

}  // namespace

TitleFit fitTitle(const QString& text, const QFont& font, double width, QPaintDevice* device) {
    QStringList lines = text.split(u'\n');
    if (widestLine(lines, font, device) <= width) return {font, text};
    const QFont smaller = shrunkToFit(font, lines, width, device);
    const QFontMetricsF metrics = metricsOn(smaller, device);
    for (QString& line : lines) line = metrics.elidedText(line, Qt::ElideMiddle, width);
    return {smaller, lines.join(u'\n')};
}

QSize FittedTitle::minimumOuterSizeHint() const {
    QSize size = QCPTextElement::minimumOuterSizeHint();
    size.setWidth(mMargins.left() + mMargins.right());
    return size;
}

void FittedTitle::draw(QCPPainter* painter) {
    // Measured on the painter's device: an SVG's or a PDF's resolution is not the screen's.
    const TitleFit fit = fitTitle(mText, mainFont(), mRect.width(), painter->device());
    painter->setFont(fit.font);
    painter->setPen(QPen(mainTextColor()));
    painter->drawText(mRect, mTextFlags, fit.text, &mTextBoundingRect);
}

}  // namespace attnviz::ui
