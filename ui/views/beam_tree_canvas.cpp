#include "views/beam_tree_canvas.h"

#include <QContextMenuEvent>
#include <QFontMetrics>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPaintEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <algorithm>

namespace attnviz::ui {

namespace {

// The grid every node sits on, in pixels.
constexpr int kBoxWidth = 124;
constexpr int kBoxHeight = 38;
constexpr int kGapX = 34;
constexpr int kGapY = 6;
constexpr int kMargin = 8;
constexpr int kHeader = 20;

QColor blend(const QColor& a, const QColor& b, double t) {
    return QColor::fromRgbF(float(a.redF() * (1 - t) + b.redF() * t), float(a.greenF() * (1 - t) + b.greenF() * t),
                            float(a.blueF() * (1 - t) + b.blueF() * t));
}

const QColor kForcedColour(0xd9, 0x82, 0x2b);  // orange: the user's tokens, readable on light and dark themes

}  // namespace

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

// Columns of nodes per step; kept before pruned, each by total score (the search's order among equals).
void BeamTreeCanvas::layoutTree() {
    columns_.clear();
    row_.clear();
    tokens_.clear();
    on_best_path_.clear();
    const size_t N = tree_ ? tree_->nodes.size() : 0;
    int steps = 0, rows = 0;
    if (N > 0) {
        for (const BeamNode& n : tree_->nodes) steps = std::max(steps, n.step);
        columns_.resize(size_t(steps) + 1);
        row_.assign(N, -1);
        on_best_path_.assign(N, 0);
        tokens_.reserve(qsizetype(N));
        for (size_t i = 0; i < N; ++i) {
            const BeamNode& n = tree_->nodes[i];
            tokens_ << (vocab_ ? QString::fromStdString(std::string(vocab_->token(n.token)))
                               : QString::number(n.token));
            if (n.in_beam || show_pruned_) columns_[size_t(n.step)].push_back(int(i));
        }
        for (std::vector<int>& column : columns_) {
            std::stable_sort(column.begin(), column.end(), [this](int a, int b) {
                const BeamNode &x = tree_->nodes[size_t(a)], &y = tree_->nodes[size_t(b)];
                if (x.in_beam != y.in_beam) return x.in_beam;
                return x.total_log_prob > y.total_log_prob;
            });
            for (size_t r = 0; r < column.size(); ++r) row_[size_t(column[r])] = int(r);
            rows = std::max(rows, int(column.size()));
        }
        if (!tree_->finished.empty())
            for (int n = tree_->finished.front(); n >= 0; n = tree_->nodes[size_t(n)].parent)
                on_best_path_[size_t(n)] = 1;
    }
    const int cols = int(columns_.size());
    size_ = N == 0 ? QSize(0, 0)
                   : QSize(2 * kMargin + cols * kBoxWidth + (cols - 1) * kGapX,
                           2 * kMargin + kHeader + rows * (kBoxHeight + kGapY));
    setMinimumSize(size_);
    resize(size_);
    updateGeometry();
    update();
}

QRect BeamTreeCanvas::nodeRect(int node) const {
    if (!tree_ || node < 0 || size_t(node) >= row_.size() || row_[size_t(node)] < 0) return {};
    const int col = tree_->nodes[size_t(node)].step;
    return {kMargin + col * (kBoxWidth + kGapX), kMargin + kHeader + row_[size_t(node)] * (kBoxHeight + kGapY),
            kBoxWidth, kBoxHeight};
}

int BeamTreeCanvas::nodeAt(const QPoint& pos) const {
    const int x = pos.x() - kMargin, y = pos.y() - kMargin - kHeader;
    if (x < 0 || y < 0) return -1;
    const int col = x / (kBoxWidth + kGapX), row = y / (kBoxHeight + kGapY);
    if (x % (kBoxWidth + kGapX) >= kBoxWidth || y % (kBoxHeight + kGapY) >= kBoxHeight) return -1;
    if (col >= int(columns_.size()) || row >= int(columns_[size_t(col)].size())) return -1;
    return columns_[size_t(col)][size_t(row)];
}

QString BeamTreeCanvas::tokenText(int node) const {
    return node >= 0 && node < tokens_.size() ? tokens_[node] : QString();
}

void BeamTreeCanvas::paintEvent(QPaintEvent* event) {
    QPainter p(this);
    const QRect exposed = event->rect();
    p.fillRect(exposed, palette().color(QPalette::Base));
    if (!tree_ || columns_.empty()) return;
    p.setRenderHint(QPainter::Antialiasing);
    const int first = std::max(0, (exposed.left() - kMargin) / (kBoxWidth + kGapX));
    const int last = std::min(int(columns_.size()) - 1, (exposed.right() - kMargin) / (kBoxWidth + kGapX));
    p.setPen(palette().color(QPalette::PlaceholderText));
    for (int c = std::max(first, 1); c <= last; ++c)
        p.drawText(QRect(kMargin + c * (kBoxWidth + kGapX), kMargin, kBoxWidth, kHeader), Qt::AlignCenter,
                   tr("step %1").arg(c));
    paintEdges(p, exposed);
    const int top = (exposed.top() - kMargin - kHeader) / (kBoxHeight + kGapY);
    const int bottom = (exposed.bottom() - kMargin - kHeader) / (kBoxHeight + kGapY);
    for (int c = first; c <= last; ++c) {
        const std::vector<int>& column = columns_[size_t(c)];
        for (int r = std::max(0, top); r <= std::min(bottom, int(column.size()) - 1); ++r)
            paintNode(p, column[size_t(r)]);
    }
}

// From each drawn node's parent (right edge) to the node (left edge); the edges into column c lie between the
// columns c − 1 and c, so those of the exposed columns and the one right of them are drawn.
void BeamTreeCanvas::paintEdges(QPainter& p, const QRect& exposed) const {
    const int first = std::max(1, (exposed.left() - kMargin) / (kBoxWidth + kGapX));
    const int last = std::min(int(columns_.size()) - 1, (exposed.right() - kMargin) / (kBoxWidth + kGapX) + 1);
    const QColor text = palette().color(QPalette::Text), mid = palette().color(QPalette::Mid);
    const QColor best = palette().color(QPalette::Highlight);
    for (int c = first; c <= last; ++c) {
        for (int node : columns_[size_t(c)]) {
            const BeamNode& n = tree_->nodes[size_t(node)];
            const QRect from = nodeRect(n.parent), to = nodeRect(node);
            if (from.isNull()) continue;
            const QPoint a(from.right() + 1, from.center().y()), b(to.left(), to.center().y());
            if (!exposed.intersects(QRect(a, b).normalized().adjusted(-2, -2, 2, 2))) continue;
            const bool on_best = on_best_path_[size_t(node)] != 0;
            QColor colour = on_best ? best : n.in_beam ? text : mid;
            if (!on_best) colour.setAlpha(n.in_beam ? 170 : 110);
            p.setPen(QPen(colour, on_best ? 2.5 : 1.0, n.in_beam ? Qt::SolidLine : Qt::DotLine));
            QPainterPath path(a);
            const int bend = (b.x() - a.x()) / 2;
            path.cubicTo(a + QPoint(bend, 0), b - QPoint(bend, 0), b);
            p.drawPath(path);
        }
    }
}

void BeamTreeCanvas::paintNode(QPainter& p, int node) const {
    const BeamNode& n = tree_->nodes[size_t(node)];
    const QRectF box = QRectF(nodeRect(node)).adjusted(0.5, 0.5, -0.5, -0.5);
    const QPalette& pal = palette();
    const bool selected = node == selected_;
    QColor fill = pal.color(QPalette::Base), border = pal.color(QPalette::Mid), ink = pal.color(QPalette::Text);
    if (n.in_beam) {
        fill = blend(pal.color(QPalette::Base), pal.color(QPalette::Highlight), 0.16);
        border = pal.color(QPalette::Highlight);
    } else {
        ink = pal.color(QPalette::PlaceholderText);
    }
    if (n.forced) border = kForcedColour;
    if (selected) {
        fill = pal.color(QPalette::Highlight);
        ink = pal.color(QPalette::HighlightedText);
    }
    const double width = n.finished || on_best_path_[size_t(node)] ? 2.5 : 1.0;
    p.setPen(QPen(border, width, n.in_beam ? Qt::SolidLine : Qt::DashLine));
    p.setBrush(fill);
    p.drawRoundedRect(box, 5, 5);

    const QRect inner = nodeRect(node).adjusted(6, 2, -6, -2);
    QFont bold = font();
    bold.setBold(n.in_beam);
    p.setFont(bold);
    p.setPen(ink);
    const QString token = QFontMetrics(bold).elidedText(tokens_[node], Qt::ElideRight, inner.width());
    p.drawText(QRect(inner.left(), inner.top(), inner.width(), inner.height() / 2), Qt::AlignLeft | Qt::AlignVCenter,
               token);
    if (node == 0) return;  // the root has no score
    QFont small = font();
    small.setPointSizeF(std::max(6.0, small.pointSizeF() * 0.85));
    p.setFont(small);
    const QString numbers = QStringLiteral("%1 · Σ %2").arg(n.log_prob, 0, 'f', 2).arg(n.total_log_prob, 0, 'f', 2);
    p.drawText(QRect(inner.left(), inner.center().y(), inner.width(), inner.height() / 2),
               Qt::AlignLeft | Qt::AlignVCenter, numbers);
}

QString BeamTreeCanvas::toolTipFor(int node) const {
    const BeamNode& n = tree_->nodes[size_t(node)];
    if (node == 0) return tr("The start of every hypothesis (<sos>)");
    QString status = n.forced     ? tr("forced")
                     : n.finished ? tr("kept, finished")
                     : n.in_beam  ? tr("kept")
                                  : tr("pruned");
    if (on_best_path_[size_t(node)]) status += tr(", on the best hypothesis");
    return tr("“%1” at step %2 (%3)\nlog p = %4, total log-probability %5")
        .arg(tokens_[node])
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
    const int node = nodeAt(event->pos());
    if (node >= 0) emit nodeMenuRequested(node, event->globalPos());
}

}  // namespace attnviz::ui
