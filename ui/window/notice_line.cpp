#include "window/notice_line.h"

#include <QFontMetrics>

namespace attnviz::ui {

namespace {
constexpr int kFallbackRoom = 6;  // CJK fallback glyphs stand taller than the font's line spacing
}

NoticeLine::NoticeLine(QWidget* parent) : QLabel(parent) {
    setWordWrap(true);
    setAlignment(Qt::AlignLeft | Qt::AlignTop);
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
}

// One line, or two when the wrapped text needs more than one at `width`.
int NoticeLine::heightForWidth(int width) const {
    const int line = fontMetrics().lineSpacing();
    const bool two = !text().isEmpty() && QLabel::heightForWidth(width) > line * 3 / 2;
    return (two ? 2 : 1) * line + kFallbackRoom;
}

QSize NoticeLine::sizeHint() const { return {QLabel::sizeHint().width(), heightForWidth(width())}; }
QSize NoticeLine::minimumSizeHint() const { return {0, fontMetrics().lineSpacing() + kFallbackRoom}; }

}  // namespace attnviz::ui
