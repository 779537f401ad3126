#include "views/beam_tree_painter.h"
#include "heatmap/utf8_text.h"

#include <QCoreApplication>
#include <QFontMetrics>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>

namespace attnviz::ui {

namespace {

// The grid every node sits on, in logical pixels.
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

// `font` at `factor` of its size, whether it is sized in points (the screen's) or pixels (an export's).
QFont scaledFont(QFont font, double factor) {
    if (font.pixelSize() > 0)
        font.setPixelSize(std::max(6, int(font.pixelSize() * factor + 0.5)));
    else
        font.setPointSizeF(std::max(6.0, font.pointSizeF() * factor));
    return font;
}

// From each drawn node's parent (right edge) to the node (left edge); the edges into column c lie between the
// columns c − 1 and c, so those of the exposed columns and the one right of them are drawn.
void paintEdges(QPainter& p, const BeamResult& tree, const BeamTreeLayout& layout, const QPalette& pal,
                const QRect& exposed) {
    const int first = std::max(1, (exposed.left() - kMargin) / (kBoxWidth + kGapX));
    const int last = std::min(int(layout.columns.size()) - 1, (exposed.right() - kMargin) / (kBoxWidth + kGapX) + 1);
    const QColor text = pal.color(QPalette::Text), mid = pal.color(QPalette::Mid);
    const QColor best = pal.color(QPalette::Highlight);
    for (int c = first; c <= last; ++c) {
        for (int node : layout.columns[size_t(c)]) {
            const BeamNode& n = tree.nodes[size_t(node)];
            const QRect from = layout.nodeRect(n.parent), to = layout.nodeRect(node);
            if (from.isNull()) continue;
            const QPoint a(from.right() + 1, from.center().y()), b(to.left(), to.center().y());
            if (!exposed.intersects(QRect(a, b).normalized().adjusted(-2, -2, 2, 2))) continue;
            const bool on_best = layout.on_best_path[size_t(node)] != 0;
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

void paintNode(QPainter& p, const BeamResult& tree, const BeamTreeLayout& layout, const BeamTreeStyle& style,
               int node) {
    const BeamNode& n = tree.nodes[size_t(node)];
    const QRectF box = QRectF(layout.nodeRect(node)).adjusted(0.5, 0.5, -0.5, -0.5);
    const QPalette& pal = style.palette;
    QColor fill = pal.color(QPalette::Base), border = pal.color(QPalette::Mid), ink = pal.color(QPalette::Text);
    if (n.in_beam) {
        fill = blend(pal.color(QPalette::Base), pal.color(QPalette::Highlight), 0.16);
        border = pal.color(QPalette::Highlight);
    } else {
        ink = pal.color(QPalette::PlaceholderText);
    }
    if (n.forced) border = kForcedColour;
    if (node == style.selected) {
        fill = pal.color(QPalette::Highlight);
        ink = pal.color(QPalette::HighlightedText);
    }
    const double width = n.finished || layout.on_best_path[size_t(node)] ? 2.5 : 1.0;
    p.setPen(QPen(border, width, n.in_beam ? Qt::SolidLine : Qt::DashLine));
    p.setBrush(fill);
    p.drawRoundedRect(box, 5, 5);

    const QRect inner = layout.nodeRect(node).adjusted(6, 2, -6, -2);
    QFont bold = style.font;
    bold.setBold(n.in_beam);
    p.setFont(bold);
    p.setPen(ink);
    const QString token = QFontMetrics(bold, p.device()).elidedText(layout.tokens[node], Qt::ElideRight, inner.width());
    p.drawText(QRect(inner.left(), inner.top(), inner.width(), inner.height() / 2), Qt::AlignLeft | Qt::AlignVCenter,
               token);
    if (node == 0) return;  // the root has no score
    p.setFont(scaledFont(style.font, 0.85));
    const QString numbers = QStringLiteral("%1 · Σ %2").arg(n.log_prob, 0, 'f', 2).arg(n.total_log_prob, 0, 'f', 2);
    p.drawText(QRect(inner.left(), inner.center().y(), inner.width(), inner.height() / 2),
               Qt::AlignLeft | Qt::AlignVCenter, numbers);
}

}  // namespace

// Columns of nodes per step; kept before pruned, each by total score (the search's order among equals).
BeamTreeLayout BeamTreeLayout::of(const BeamResult* tree, const Vocabulary* target_vocab, bool show_pruned) {
    BeamTreeLayout l;
    const size_t N = tree ? tree->nodes.size() : 0;
    if (N == 0) return l;
    int steps = 0, rows = 0;
    for (const BeamNode& n : tree->nodes) steps = std::max(steps, n.step);
    l.columns.resize(size_t(steps) + 1);
    l.row.assign(N, -1);
    l.step.assign(N, 0);
    l.on_best_path.assign(N, 0);
    l.tokens.reserve(qsizetype(N));
    for (size_t i = 0; i < N; ++i) {
        const BeamNode& n = tree->nodes[i];
        l.tokens << (target_vocab ? qs(std::string(target_vocab->token(n.token))) : QString::number(n.token));
        l.step[i] = n.step;
        if (n.in_beam || show_pruned) l.columns[size_t(n.step)].push_back(int(i));
    }
    for (std::vector<int>& column : l.columns) {
        std::stable_sort(column.begin(), column.end(), [tree](int a, int b) {
            const BeamNode &x = tree->nodes[size_t(a)], &y = tree->nodes[size_t(b)];
            if (x.in_beam != y.in_beam) return x.in_beam;
            return x.total_log_prob > y.total_log_prob;
        });
        for (size_t r = 0; r < column.size(); ++r) l.row[size_t(column[r])] = int(r);
        rows = std::max(rows, int(column.size()));
    }
    if (!tree->finished.empty())
        for (int n = tree->finished.front(); n >= 0; n = tree->nodes[size_t(n)].parent) l.on_best_path[size_t(n)] = 1;
    const int cols = int(l.columns.size());
    l.size =
        QSize(2 * kMargin + cols * kBoxWidth + (cols - 1) * kGapX, 2 * kMargin + kHeader + rows * (kBoxHeight + kGapY));
    return l;
}

QRect BeamTreeLayout::nodeRect(int node) const {
    if (node < 0 || size_t(node) >= row.size() || row[size_t(node)] < 0) return {};
    const int col = step[size_t(node)];
    return {kMargin + col * (kBoxWidth + kGapX), kMargin + kHeader + row[size_t(node)] * (kBoxHeight + kGapY),
            kBoxWidth, kBoxHeight};
}

int BeamTreeLayout::nodeAt(const QPoint& pos) const {
    const int x = pos.x() - kMargin, y = pos.y() - kMargin - kHeader;
    if (x < 0 || y < 0) return -1;
    const int col = x / (kBoxWidth + kGapX), r = y / (kBoxHeight + kGapY);
    if (x % (kBoxWidth + kGapX) >= kBoxWidth || y % (kBoxHeight + kGapY) >= kBoxHeight) return -1;
    if (col >= int(columns.size()) || r >= int(columns[size_t(col)].size())) return -1;
    return columns[size_t(col)][size_t(r)];
}

QPalette beamTreeExportPalette() {
    QPalette pal;
    pal.setColor(QPalette::Base, Qt::white);
    pal.setColor(QPalette::Text, QColor(0x20, 0x20, 0x20));
    pal.setColor(QPalette::Mid, QColor(0xa0, 0xa0, 0xa0));
    pal.setColor(QPalette::PlaceholderText, QColor(0x70, 0x70, 0x70));
    pal.setColor(QPalette::Highlight, QColor(0x30, 0x8c, 0xc6));
    pal.setColor(QPalette::HighlightedText, Qt::white);
    return pal;
}

void paintBeamTree(QPainter& p, const BeamResult& tree, const BeamTreeLayout& layout, const BeamTreeStyle& style,
                   const QRect& exposed) {
    if (layout.empty()) return;
    p.setRenderHint(QPainter::Antialiasing);
    const int first = std::max(0, (exposed.left() - kMargin) / (kBoxWidth + kGapX));
    const int last = std::min(int(layout.columns.size()) - 1, (exposed.right() - kMargin) / (kBoxWidth + kGapX));
    p.setFont(style.font);
    p.setPen(style.palette.color(QPalette::PlaceholderText));
    for (int c = std::max(first, 1); c <= last; ++c)
        p.drawText(QRect(kMargin + c * (kBoxWidth + kGapX), kMargin, kBoxWidth, kHeader), Qt::AlignCenter,
                   QCoreApplication::translate("attnviz::ui::BeamTreeCanvas", "step %1").arg(c));
    paintEdges(p, tree, layout, style.palette, exposed);
    const int top = (exposed.top() - kMargin - kHeader) / (kBoxHeight + kGapY);
    const int bottom = (exposed.bottom() - kMargin - kHeader) / (kBoxHeight + kGapY);
    for (int c = first; c <= last; ++c) {
        const std::vector<int>& column = layout.columns[size_t(c)];
        for (int r = std::max(0, top); r <= std::min(bottom, int(column.size()) - 1); ++r)
            paintNode(p, tree, layout, style, column[size_t(r)]);
    }
}

}  // namespace attnviz::ui
