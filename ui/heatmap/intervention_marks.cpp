#include "heatmap/intervention_marks.h"

#include "heatmap/heatmap_scene.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

namespace attnviz::ui {

namespace {

const QColor kMarkRim(0, 0, 0, 220);
const QColor kStrike(255, 255, 255);
const QColor kAttend(204, 121, 167);  // Okabe & Ito's reddish purple: apart from the gold marks' colours

// Under the label, a "no entry" tape: the mark strip filled dark across the column with a white bar along it. A solid
// block no script's strokes look like, where a thin cross merged with a Chinese word's strokes.
void markKnockedOutLabel(QCPPainter* painter, const HeatmapScene& s, int c) {
    const QRectF m = s.columnMarkRect(c);
    if (m.width() < 3 || m.height() < 3) return;
    painter->setPen(Qt::NoPen);
    painter->setBrush(kMarkRim);
    painter->drawRect(m);
    const double bar = std::max(1.5, m.height() / 3);
    painter->setBrush(kStrike);
    painter->drawRect(QRectF(m.left() + m.width() * 0.2, m.center().y() - bar / 2, m.width() * 0.6, bar));
}

// Hatching over the column's shown rows, a line down its middle and a tape under its label.
void strikeColumn(QCPPainter* painter, const HeatmapScene& s, int c, int rows) {
    const QRectF top = s.displayCellRect(0, c), bottom = s.displayCellRect(rows - 1, c);
    const QRectF column = top.united(bottom);
    painter->setPen(Qt::NoPen);
    painter->setBrush(QBrush(QColor(255, 255, 255, 150), Qt::BDiagPattern));
    painter->drawRect(column);
    const double w = std::clamp(column.width() / 8, 1.5, 4.0);
    const QLineF line(QPointF(column.center().x(), column.top()), QPointF(column.center().x(), column.bottom()));
    for (const auto& [color, width] : {std::pair{kMarkRim, w + 2.0}, std::pair{kStrike, w}}) {
        painter->setPen(QPen(color, width, Qt::SolidLine, Qt::FlatCap));
        painter->drawLine(line);
    }
    markKnockedOutLabel(painter, s, c);
}

void markAttended(QCPPainter* painter, const QRectF& cell) {
    const double r = std::min(cell.width(), cell.height()) * 0.36;
    if (r < 1.5) return;
    const QPointF c = cell.center();
    const QPointF diamond[] = {c + QPointF(0, -r), c + QPointF(r, 0), c + QPointF(0, r), c + QPointF(-r, 0)};
    painter->setBrush(Qt::NoBrush);
    for (const auto& [color, width] :
         {std::pair{kMarkRim, std::max(1.0, r / 3) + 2.0}, std::pair{kAttend, std::max(1.0, r / 3)}}) {
        painter->setPen(QPen(color, width, Qt::SolidLine, Qt::SquareCap, Qt::MiterJoin));
        painter->drawPolygon(diamond, 4);
    }
}

QString quoted(const QStringList& source, int j) {
    return j >= 0 && j < source.size() ? QStringLiteral("“%1”").arg(source[j]) : QString::number(j);
}

QString headKindText(AttentionKind kind) {
    switch (kind) {
    case AttentionKind::EncoderSelf:
        return QCoreApplication::translate("attnviz::ui::Interventions", "encoder self-attention");
    case AttentionKind::DecoderSelf:
        return QCoreApplication::translate("attnviz::ui::Interventions", "decoder self-attention");
    case AttentionKind::Cross:
        break;
    }
    return QCoreApplication::translate("attnviz::ui::Interventions", "cross-attention");
}

}  // namespace

void drawInterventionMarks(QCPPainter* painter, const HeatmapScene& s) {
    const Interventions& iv = s.style().interventions;
    const HeatmapLayout& layout = s.layout();
    const int R = int(layout.rows.size());
    if ((iv.knockout.empty() && iv.attend.empty()) || R == 0) return;
    painter->save();
    painter->setAntialiasing(true);
    for (int j : iv.knockout)
        if (const int c = layout.displayCol(j); c >= 0) strikeColumn(painter, s, c, R);
    const int visible = s.visibleRows();
    for (const AttendAt& a : iv.attend) {
        if (visible >= 0 && a.row >= visible) continue;
        const int r = layout.displayRow(a.row), c = layout.displayCol(a.position);
        if (r >= 0 && c >= 0 && layout.rows.value(r) == a.row) markAttended(painter, s.displayCellRect(r, c));
    }
    painter->restore();
}

QString interventionsTitle(const Interventions& iv, const QStringList& source) {
    QStringList parts;
    if (!iv.knockout.empty()) {
        QStringList words;
        for (int j : iv.knockout) words << quoted(source, j);
        parts << QCoreApplication::translate("attnviz::ui::Interventions", "knocked out %1")
                     .arg(words.join(QStringLiteral(", ")));
    }
    for (const AttendAt& a : iv.attend)
        parts << QCoreApplication::translate("attnviz::ui::Interventions", "step %1 attends only to %2")
                     .arg(a.row + 1)
                     .arg(quoted(source, a.position));
    if (!iv.heads_off.empty()) {
        QStringList heads;
        for (const HeadRef& h : iv.heads_off)
            heads << QCoreApplication::translate("attnviz::ui::Interventions", "%1 layer %2 head %3")
                         .arg(headKindText(h.kind))
                         .arg(h.layer + 1)
                         .arg(h.head + 1);
        parts << QCoreApplication::translate("attnviz::ui::Interventions", "heads off: %1")
                     .arg(heads.join(QStringLiteral(", ")));
    }
    return parts.join(QStringLiteral(" · "));
}

QString titleWithInterventions(const QString& title, const Interventions& iv, const QStringList& source) {
    const QString named = interventionsTitle(iv, source);
    if (named.isEmpty()) return title;
    return title.isEmpty() ? named : title + QStringLiteral(" — ") + named;
}

}  // namespace attnviz::ui
