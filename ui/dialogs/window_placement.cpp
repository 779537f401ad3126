#include "dialogs/window_placement.h"

#include <QGuiApplication>
#include <QScreen>
#include <QStyle>
#include <QWidget>

#include <algorithm>

namespace attnviz::ui {

QRect fitInside(const QRect& wanted, const QRect& available, const QMargins& frame) {
    const QRect room = available.marginsRemoved(frame);
    const QSize size = wanted.size().boundedTo(room.size()).expandedTo(QSize(1, 1));
    QRect fitted(wanted.topLeft(), size);
    fitted.moveLeft(std::clamp(fitted.left(), room.left(), std::max(room.left(), room.right() + 1 - size.width())));
    fitted.moveTop(std::clamp(fitted.top(), room.top(), std::max(room.top(), room.bottom() + 1 - size.height())));
    return fitted;
}

QRect availableGeometryOf(const QWidget* window) {
    const QScreen* screen = window ? window->screen() : nullptr;
    if (!screen) screen = QGuiApplication::primaryScreen();
    return screen ? screen->availableGeometry() : QRect();
}

static QMargins ownFrame(const QWidget* window) {
    const QRect frame = window->frameGeometry(), inner = window->geometry();
    return {inner.left() - frame.left(), inner.top() - frame.top(), frame.right() - inner.right(),
            frame.bottom() - inner.bottom()};
}

QMargins frameMarginsOf(const QWidget* window, const QWidget* like) {
    if (const QMargins own = ownFrame(window); !own.isNull() || window->isVisible()) return own;
    if (like && like->isVisible()) return ownFrame(like);
    return QMargins(0, window->style()->pixelMetric(QStyle::PM_TitleBarHeight, nullptr, window), 0, 0);
}

bool fitToScreen(QWidget* window) {
    const QRect available = availableGeometryOf(window);
    if (available.isEmpty()) return false;
    const QRect fitted = fitInside(window->geometry(), available, frameMarginsOf(window));
    if (fitted == window->geometry()) return false;
    window->setGeometry(fitted);
    return true;
}

namespace {

qint64 overlap(const QRect& a, const QRect& b) {
    const QRect both = a.intersected(b);
    return both.isEmpty() ? 0 : qint64(both.width()) * both.height();
}

// Top lefts to try: flush against each side of each rectangle (aligned with its start, middle and end), then the
// screen's corners and middle.
QList<QPoint> candidates(const QSize& s, const QRect& available, const QList<QRect>& keepClear) {
    QList<QPoint> out;
    for (const QRect& r : keepClear) {
        const int xs[] = {r.left(), r.center().x() - s.width() / 2, r.right() + 1 - s.width()};
        const int ys[] = {r.top(), r.center().y() - s.height() / 2, r.bottom() + 1 - s.height()};
        for (int y : ys) out << QPoint(r.right() + 1, y) << QPoint(r.left() - s.width(), y);
        for (int x : xs) out << QPoint(x, r.bottom() + 1) << QPoint(x, r.top() - s.height());
    }
    const QRect a = available;
    out << a.topLeft() << QPoint(a.right() + 1 - s.width(), a.top()) << QPoint(a.left(), a.bottom() + 1 - s.height())
        << QPoint(a.right() + 1 - s.width(), a.bottom() + 1 - s.height())
        << a.center() - QPoint(s.width(), s.height()) / 2;
    return out;
}

}  // namespace

QRect placeBeside(const QList<QSize>& sizes, const QRect& available, const QList<QRect>& keepClear) {
    QRect best;
    QList<qint64> best_cost;
    for (const QSize& size : sizes)
        for (const QPoint& at : candidates(size, available, keepClear)) {
            const QRect placed = fitInside(QRect(at, size), available, QMargins());
            QList<qint64> cost;  // compared in order: the first rectangle's overlap first
            for (const QRect& r : keepClear) cost << overlap(placed, r);
            if (best_cost.isEmpty() || cost < best_cost) {
                best = placed;
                best_cost = cost;
            }
        }
    return best;
}

}  // namespace attnviz::ui
