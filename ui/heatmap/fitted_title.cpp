#include "heatmap/fitted_title.h"

#include <QPen>
#include <QStringList>

namespace attnviz::ui {

QString fitTitleLines(const QString& text, const QFontMetricsF& metrics, double width) {
    QStringList lines = text.split(u'\n');
    for (QString& line : lines) line = metrics.elidedText(line, Qt::ElideMiddle, width);
    return lines.join(u'\n');
}

QSize FittedTitle::minimumOuterSizeHint() const {
    QSize size = QCPTextElement::minimumOuterSizeHint();
    size.setWidth(mMargins.left() + mMargins.right());
    return size;
}

void FittedTitle::draw(QCPPainter* painter) {
    const QFont font = mainFont();
    painter->setFont(font);
    painter->setPen(QPen(mainTextColor()));
    // Measured on the painter's device: an SVG's or a PDF's resolution is not the screen's.
    const QFontMetricsF metrics(font, painter->device());
    painter->drawText(mRect, mTextFlags, fitTitleLines(mText, metrics, mRect.width()), &mTextBoundingRect);
}

}  // namespace attnviz::ui
