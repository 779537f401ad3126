// The line under the main window's fields that says what a decode left out or changed (a long sentence cut, unknown
// words, forced decoding). It keeps one line's room whether or not it has something to say, so that the heatmap
// under it does not move while you type; a notice too long for one line at the window's width takes a second line
// (more is elided; the tooltip has it whole).
#pragma once
#include <QLabel>

namespace attnviz::ui {

class NoticeLine : public QLabel {
    Q_OBJECT
public:
    explicit NoticeLine(QWidget* parent = nullptr);

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
};

}  // namespace attnviz::ui
