// The drawing of a beam search's tree (BeamResult) on screen, laid out and painted by views/beam_tree_painter.h (the
// exports' code): only what is exposed is drawn, so that a wide search lays out at once; it sits in a QScrollArea and
// grows to the tree's size.
#pragma once
#include "decode/decoding.h"
#include "views/beam_tree_painter.h"

#include <QStringList>
#include <QWidget>

#include <vector>

namespace attnviz::ui {

class BeamTreeCanvas : public QWidget {
    Q_OBJECT
public:
    explicit BeamTreeCanvas(QWidget* parent = nullptr);

    // Lays `tree` out (tokens spelt by `target_vocab`); a null tree shows nothing. The tree must outlive its display.
    void setTree(const BeamResult* tree, const Vocabulary* target_vocab);
    // Hides or shows the pruned nodes (the kept ones stay where they are).
    void setShowPruned(bool show);
    bool showPruned() const { return show_pruned_; }
    // The node drawn selected (-1: none).
    void setSelectedNode(int node);
    int selectedNode() const { return selected_; }

    // Where node `node` is drawn (empty when not laid out or hidden), and the node at a point (-1: none).
    QRect nodeRect(int node) const;
    int nodeAt(const QPoint& pos) const;
    // The token as drawn (the vocabulary's spelling).
    QString tokenText(int node) const;
    QSize sizeHint() const override { return layout_.size; }
    // The tree shown (nullptr: none) and its layout, for the exports.
    const BeamResult* tree() const { return tree_; }
    const BeamTreeLayout& layout() const { return layout_; }

signals:
    void nodeClicked(int node);
    void nodeMenuRequested(int node, const QPoint& global_pos);  // node −1: outside every node

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    bool event(QEvent* event) override;  // tooltips

private:
    void layoutTree();
    QString toolTipFor(int node) const;

    const BeamResult* tree_ = nullptr;
    const Vocabulary* vocab_ = nullptr;
    bool show_pruned_ = true;
    int selected_ = -1;
    BeamTreeLayout layout_;
};

}  // namespace attnviz::ui
