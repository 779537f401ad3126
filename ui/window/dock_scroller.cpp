#include "window/dock_scroller.h"

#include <QEvent>
#include <QScrollBar>

#include <algorithm>

namespace attnviz::ui {

// The contents are sized here, not by QScrollArea's widgetResizable: that gives contents whose layout has a height
// for width (a word-wrapped label) their preferred height, so they would scroll where their minimum fits.
DockScroller::DockScroller(QWidget* contents, QWidget* parent) : QScrollArea(parent) {
    setFrameShape(QFrame::NoFrame);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);  // the width is never less than the contents' minimum
    setWidget(contents);
    fitContents();
}

// The room a vertical scroll bar takes when it shows: the width the contents keep then.
static int scrollBarRoom(const QScrollArea* area) { return area->verticalScrollBar()->sizeHint().width(); }

static QSize contentsMinimum(const QWidget* contents) {
    return contents ? contents->minimumSizeHint().expandedTo(contents->minimumSize()) : QSize();
}

QSize DockScroller::unscrolledMinimum() const {
    const QSize contents = contentsMinimum(widget());
    return {contents.width() + scrollBarRoom(this), contents.height()};
}

QSize DockScroller::minimumSizeHint() const {
    const QSize unscrolled = unscrolledMinimum();
    return {unscrolled.width(), std::min(unscrolled.height(), kScrolledLines * fontMetrics().lineSpacing())};
}

QSize DockScroller::sizeHint() const {
    const QSize contents = widget() ? widget()->sizeHint() : QSize();
    return contents.expandedTo(unscrolledMinimum());
}

// The contents fill the viewport, and are never smaller than their minimum: past that they scroll.
void DockScroller::fitContents() {
    if (!widget()) return;
    const QSize least = contentsMinimum(widget());
    const QSize size(std::max(viewport()->width(), least.width()), std::max(viewport()->height(), least.height()));
    if (widget()->size() != size) widget()->resize(size);
}

// The viewport resized (the window, or the scroll bar shown or hidden), or the contents' sizes changed (they post a
// layout request to the viewport, their parent): the contents are fitted again, and the dock's own sizes change with
// them.
bool DockScroller::viewportEvent(QEvent* event) {
    const bool done = QScrollArea::viewportEvent(event);
    if (event->type() == QEvent::Resize) fitContents();
    if (event->type() == QEvent::LayoutRequest) {
        fitContents();
        updateGeometry();
    }
    return done;
}

}  // namespace attnviz::ui
