#include "training/flow_layout.h"

#include <QSpacerItem>
#include <QWidget>
#include <algorithm>

namespace attnviz::ui {
namespace {

// The gap between two items while the layout has no spacing of its own (a nested layout's is -1): Fusion's.
constexpr int kDefaultGap = 6;

int gapOf(const QLayout* layout) { return layout->spacing() >= 0 ? layout->spacing() : kDefaultGap; }

bool isStretch(const QLayoutItem* item) { return dynamic_cast<const QSpacerItem*>(item) != nullptr; }

// An item's size: its size hint, never below its minimum (a field of an ignored width has a hint of nothing).
QSize itemSize(const QLayoutItem* item) { return item->sizeHint().expandedTo(item->minimumSize()); }

// One line's items, from `first` up to (not including) `end`, and their widths at their size hints.
struct Line {
    int first = 0, end = 0, width = 0, height = 0, stretches = 0;
};

}  // namespace

FlowLayout::FlowLayout(QWidget* parent) : QLayout(parent) { setContentsMargins(0, 0, 0, 0); }

FlowLayout::~FlowLayout() {
    while (QLayoutItem* item = takeAt(0)) delete item;
}

void FlowLayout::addStretch() { addItem(new QSpacerItem(0, 0, QSizePolicy::Expanding, QSizePolicy::Minimum)); }

void FlowLayout::addItem(QLayoutItem* item) {
    items_.append(item);
    invalidate();
}

QLayoutItem* FlowLayout::takeAt(int index) {
    if (index < 0 || index >= items_.size()) return nullptr;
    QLayoutItem* item = items_.takeAt(index);
    invalidate();
    return item;
}

int FlowLayout::linesHeight(int width) const {
    return arrange(QRect(0, 0, width > 0 ? width : QWIDGETSIZE_MAX, 0), false);
}

int FlowLayout::widestItem() const {
    int widest = 0;
    for (const QLayoutItem* item : items_)
        if (!item->isEmpty()) widest = std::max(widest, item->minimumSize().width());
    return widest;
}

QSize FlowLayout::minimumSize() const {
    const int widest = widestItem();
    const QMargins m = contentsMargins();
    return {widest + m.left() + m.right(), linesHeight(width_)};
}

QSize FlowLayout::sizeHint() const {
    int width = 0, height = 0, shown = 0;
    for (const QLayoutItem* item : items_) {
        if (item->isEmpty() || isStretch(item)) continue;
        width += itemSize(item).width();
        height = std::max(height, itemSize(item).height());
        ++shown;
    }
    const QMargins m = contentsMargins();
    return {width + std::max(0, shown - 1) * gapOf(this) + m.left() + m.right(),
            std::max(height + m.top() + m.bottom(), linesHeight(width_))};
}

void FlowLayout::setGeometry(const QRect& rect) {
    QLayout::setGeometry(rect);
    const bool rewrapped = rect.width() != width_ && linesHeight(rect.width()) != linesHeight(width_);
    width_ = rect.width();
    arrange(rect, true);
    if (!rewrapped) return;
    invalidate();  // the minimum height follows the lines: the layouts above lay out again
    if (QWidget* w = parentWidget()) w->updateGeometry();
}

int FlowLayout::arrange(const QRect& rect, bool apply) const {
    const QRect area = rect.marginsRemoved(contentsMargins());
    const int gap = gapOf(this);
    QList<Line> lines;
    Line line;
    for (int i = 0; i < items_.size(); ++i) {
        const QLayoutItem* item = items_[i];
        if (item->isEmpty() && !isStretch(item)) continue;  // a hidden widget (a spacer is always "empty")
        const int w = isStretch(item) ? 0 : itemSize(item).width();
        const bool starts = line.end == line.first;
        if (!starts && !isStretch(item) && line.width + gap + w > area.width()) {
            lines.append(line);
            line = Line{i, i};
        }
        line.width += (line.end == line.first || isStretch(item) ? 0 : gap) + w;
        line.height = std::max(line.height, isStretch(item) ? 0 : itemSize(item).height());
        line.stretches += isStretch(item) ? 1 : 0;
        line.end = i + 1;
    }
    if (line.end > line.first) lines.append(line);
    int y = area.top();
    for (const Line& l : lines) {
        int x = area.left();
        const int spare = std::max(0, area.width() - l.width);
        for (int i = l.first; i < l.end; ++i) {
            QLayoutItem* item = items_[i];
            if (isStretch(item)) {
                x += l.stretches > 0 ? spare / l.stretches : 0;
                continue;
            }
            if (item->isEmpty()) continue;
            const int w = std::min(itemSize(item).width(), area.width());
            if (apply)
                item->setGeometry(
                    QRect(QPoint(x, y + (l.height - itemSize(item).height()) / 2), QSize(w, itemSize(item).height())));
            x += w + gap;
        }
        y += l.height + gap;
    }
    const QMargins m = contentsMargins();
    return lines.isEmpty() ? 0 : y - gap - area.top() + m.top() + m.bottom();
}

}  // namespace attnviz::ui
