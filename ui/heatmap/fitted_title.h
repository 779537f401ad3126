// A plot title that fits the width its plot has, where QCPTextElement would ask for its text's width and be clipped
// at both sides of a narrow plot: a title a little too wide is drawn smaller (down to kMinTitleScale of its size),
// and a line still too long is shortened in the middle ("B: tatoeba-ba…additive").
#pragma once
#include <qcustomplot.h>
#include <QFont>
#include <QString>

class QPaintDevice;

namespace attnviz::ui {

inline constexpr double kMinTitleScale = 0.8;

struct TitleFit {
    QFont font;
    QString text;
};
// `text` (lines split by \n) in `font` or a smaller one, each line at most `width` pixels wide as measured on
// `device` (nullptr: the screen). A text that fits is returned unchanged.
TitleFit fitTitle(const QString& text, const QFont& font, double width, QPaintDevice* device = nullptr);

class FittedTitle : public QCPTextElement {
public:
    FittedTitle(QCustomPlot* plot, const QString& text) : QCPTextElement(plot, text) {}

protected:
    QSize minimumOuterSizeHint() const override;  // the text's height; no width of its own
    void draw(QCPPainter* painter) override;
};

}  // namespace attnviz::ui
