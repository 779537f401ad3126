// A row of widgets that wraps onto further lines where it is too narrow for all of them (the training window's
// buttons on an 800-pixel screen), each line as high as its tallest item. A stretch (addStretch) takes the room its
// line leaves over, so that what follows it on the line stands at the right; at the start or end of a line it takes
// nothing from the others. Its minimum size is the widest item and the height its lines need at the width it has
// now (one line while it has none): not a height-for-width layout, which would make a QFormLayout around it squeeze
// its other rows to nothing; when a new width changes its lines, the layouts above it are asked to lay out again.
#pragma once
#include <QLayout>
#include <QList>

namespace attnviz::ui {

class FlowLayout : public QLayout {
public:
    explicit FlowLayout(QWidget* parent = nullptr);
    ~FlowLayout() override;

    void addStretch();

    void addItem(QLayoutItem* item) override;
    int count() const override { return int(items_.size()); }
    QLayoutItem* itemAt(int index) const override { return items_.value(index); }
    QLayoutItem* takeAt(int index) override;
    Qt::Orientations expandingDirections() const override { return {}; }
    int linesHeight(int width) const;  // the height its lines take at `width`
    QSize minimumSize() const override;
    QSize sizeHint() const override;
    void setGeometry(const QRect& rect) override;

private:
    // Lays the items out in `rect` (moving them only when `apply`); returns the height the lines take.
    int arrange(const QRect& rect, bool apply) const;
    int widestItem() const;

    QList<QLayoutItem*> items_;
    int width_ = 0;  // the width it was last given (0: none yet, one line)
};

}  // namespace attnviz::ui
