// A dock's contents in a vertical scroll area. The dock asks the window for only a few lines of height, so that the
// window keeps a small screen's size (800×600) with any docks open; where the dock gets less height than its
// contents' minimum, the contents scroll. Its least width is the contents' least with room for the scroll bar, its
// preferred size the contents' own. The window's docking decisions (main_window_docks.cpp) go by unscrolledMinimum(): a dock is tabbed, not
// scrolled, where the window has a choice.
#pragma once
#include <QScrollArea>

namespace attnviz::ui {

class DockScroller : public QScrollArea {
public:
    explicit DockScroller(QWidget* contents, QWidget* parent = nullptr);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    // The least size at which nothing scrolls: the contents' minimum, with the scroll bar's room.
    QSize unscrolledMinimum() const;

    static constexpr int kScrolledLines = 3;  // the least height asked for, in text lines

protected:
    bool viewportEvent(QEvent* event) override;

private:
    void fitContents();
};

}  // namespace attnviz::ui
