// A plot title that fits the width its plot has: a line too long for it is shortened in the middle ("A: tatoeba-ba…
// additive"), where QCPTextElement would ask for that width and be clipped at both sides of a narrow plot.
#pragma once
#include <qcustomplot.h>
#include <QFontMetricsF>
#include <QString>

namespace attnviz::ui {

// `text`'s lines, each elided in the middle to at most `width` pixels as `metrics` measures them (a line that fits is
// unchanged).
QString fitTitleLines(const QString& text, const QFontMetricsF& metrics, double width);

class FittedTitle : public QCPTextElement {
public:
    FittedTitle(QCustomPlot* plot, const QString& text) : QCPTextElement(plot, text) {}

protected:
    QSize minimumOuterSizeHint() const override;  // the text's height; no width of its own
    void draw(QCPPainter* painter) override;
};

}  // namespace attnviz::ui
