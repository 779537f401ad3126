#include "views/beam_tree_canvas.h"

#include <QContextMenuEvent>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QToolTip>

namespace attnviz::ui {

BeamTreeCanvas::BeamTreeCanvas(QWidget* parent) : QWidget(parent) {
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMouseTracking(false);
}

void BeamTreeCanvas::setTree(const BeamResult* tree, const Vocabulary* target_vocab) {
    tree_ = tree;
    vocab_ = target_vocab;
    selected_ = -1;
    layoutTree();
}

void BeamTreeCanvas::setShowPruned(bool show) {
    if (show == show_pruned_) return;
    show_pruned_ = show;
    layoutTree();
}

void BeamTreeCanvas::setSelectedNode(int node) {
    if (node == selected_) return;
    const QRect before = nodeRect(selected_);
    selected_ = node;
    update(before.adjusted(-2, -2, 2, 2));
    update(nodeRect(selected_).adjusted(-2, -2, 2, 2));
}

void BeamTreeCanvas::layoutTree() {
    layout_ = BeamTreeLayout::of(tree_, vocab_, show_pruned_);
    setMinimumSize(layout_.size);
    resize(layout_.size);
    updateGeometry();
    update();
}

QRect BeamTreeCanvas::nodeRect(int node) const { return tree_ ? layout_.nodeRect(node) : QRect(); }
int BeamTreeCanvas::nodeAt(const QPoint& pos) const { return layout_.nodeAt(pos); }

QString BeamTreeCanvas::tokenText(int node) const {
    return node >= 0 && node < layout_.tokens.size() ? layout_.tokens[node] : QString();
}

void BeamTreeCanvas::paintEvent(QPaintEvent* event) {
    QPainter p(this);
    const QRect exposed = event->rect();
    p.fillRect(exposed, palette().color(QPalette::Base));
    if (tree_) paintBeamTree(p, *tree_, layout_, BeamTreeStyle{palette(), font(), selected_}, exposed);
}

QString BeamTreeCanvas::toolTipFor(int node) const {
    const BeamNode& n = tree_->nodes[size_t(node)];
    if (node == 0) return tr("The start of every hypothesis (<sos>)");
    QString status = n.forced     ? tr("forced")
                     : n.finished ? tr("kept, finished")
                     : n.in_beam  ? tr("kept")
                                  : tr("pruned");
    if (layout_.on_best_path[size_t(node)]) status += tr(", on the best hypothesis");
    return tr("“%1” at step %2 (%3)\nlog p = %4, total log-probability %5")
        .arg(layout_.tokens[node])
        .arg(n.step)
        .arg(status)
        .arg(n.log_prob, 0, 'f', 4)
        .arg(n.total_log_prob, 0, 'f', 4);
}

bool BeamTreeCanvas::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int node = nodeAt(help->pos());
        if (node >= 0)
            QToolTip::showText(help->globalPos(), toolTipFor(node), this, nodeRect(node));
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

void BeamTreeCanvas::mousePressEvent(QMouseEvent* event) {
    const int node = nodeAt(event->position().toPoint());
    if (event->button() == Qt::LeftButton && node >= 0) emit nodeClicked(node);
    QWidget::mousePressEvent(event);
}

void BeamTreeCanvas::contextMenuEvent(QContextMenuEvent* event) {
    emit nodeMenuRequested(nodeAt(event->pos()), event->globalPos());  // -1: the background (export only)
}

}  // namespace attnviz::ui
