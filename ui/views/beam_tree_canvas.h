// The drawing of a beam search's tree (BeamResult): one column per target step, the root (<sos>) on the left; in
// each column the kept hypotheses first, best first, then the pruned ones, best first. A node shows its token, its
// step log-prob and its total score; kept, pruned, finished and forced nodes are styled apart, the best hypothesis'
// path is drawn bold. Custom-painted (only what is exposed is drawn), so that a wide search lays out at once; it sits
// in a QScrollArea and grows to the tree's size.
#pragma once
#include "decode/decoding.h"

#include <QStringList>
#include <QWidget>

#include <vector>

class QPainter;

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
    QSize sizeHint() const override { return size_; }

signals:
    void nodeClicked(int node);
    void nodeMenuRequested(int node, const QPoint& global_pos);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    bool event(QEvent* event) override;  // tooltips

private:
    void layoutTree();
    void paintEdges(QPainter& p, const QRect& exposed) const;
    void paintNode(QPainter& p, int node) const;
    QString toolTipFor(int node) const;

    const BeamResult* tree_ = nullptr;
    const Vocabulary* vocab_ = nullptr;
    bool show_pruned_ = true;
    int selected_ = -1;
    std::vector<int> row_;                   // per node: its row in its step's column (-1: not drawn)
    std::vector<std::vector<int>> columns_;  // per step: the nodes drawn, top to bottom
    std::vector<char> on_best_path_;         // per node
    QStringList tokens_;                     // per node
    QSize size_{0, 0};
};

}  // namespace attnviz::ui
