#include "heatmap/heatmap_diagnostics.h"

#include "heatmap/colormaps.h"
#include "heatmap/heatmap_scene.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <algorithm>
#include <cmath>

namespace attnviz::ui {

namespace {

// Sizes in units of the scene's font size (logical pixels).
constexpr double kGap = 0.4;          // between the matrix and a diagnostic
constexpr double kBarHeight = 1.6;    // coverage bars (a bar of full height is coverage ≥ 2)
constexpr double kValueLine = 1.2;    // the coverage values under the bars
constexpr double kColumnWidth = 3.2;  // the entropy column
constexpr double kMaxCoverageDrawn = 2.0;

// In the scene's translation context, like its colour scale's label.
QString coverageLabel() { return QCoreApplication::translate("attnviz::ui::HeatmapScene", "coverage"); }
QString entropyLabel() { return QCoreApplication::translate("attnviz::ui::HeatmapScene", "H / ln S"); }

struct Visible {
    int c0 = 0, c1 = -1, r0 = 0, r1 = -1;  // display columns and rows in view
};
Visible visibleCells(const HeatmapScene& s) {
    const int C = int(s.layout().cols.size()), R = int(s.layout().rows.size());
    const QCPRange kr = s.keyAxis()->range(), vr = s.valueAxis()->range();
    Visible v;
    v.c0 = std::max(0, int(std::ceil(kr.lower - 0.5)));
    v.c1 = std::min(C - 1, int(std::floor(kr.upper + 0.5)));
    v.r0 = std::max(0, int(std::ceil(vr.lower - 0.5)));
    v.r1 = std::min(R - 1, int(std::floor(vr.upper + 0.5)));
    return v;
}

QColor inkFor(const HeatmapScene& s) {
    const QColor paper = s.style().background.isValid() ? s.style().background : QColor(Qt::white);
    return contrastingTextColor(paper) == QColor(Qt::black) ? QColor(20, 20, 20) : QColor(230, 230, 230);
}

void drawCoverageRow(QCPPainter* p, const HeatmapScene& s, const Visible& v, double px) {
    const HeatmapDiagnostics& d = s.diagnostics();
    const QRect a = s.axisRect()->rect();
    const double top = a.bottom() + kGap * px, base = top + kBarHeight * px;
    const QColor ink = inkFor(s), plain = plainBarColor();
    const QFont font = heatmapFont(px * 0.8);
    const QFontMetricsF fm(font);
    p->setFont(font);
    p->save();
    p->setClipRect(QRectF(a.left(), top, a.width(), (kBarHeight + kValueLine) * px + 2), Qt::IntersectClip);
    for (int c = v.c0; c <= v.c1; ++c) {
        const int j = s.layout().cols[c];
        if (j >= int(d.coverage.coverage.size())) continue;
        const double cov = d.coverage.coverage[size_t(j)];
        const CoverageMark mark = d.coverage.marks[size_t(j)];
        const QRectF cell = s.displayCellRect(0, c);
        const double h = kBarHeight * px * std::min(cov, kMaxCoverageDrawn) / kMaxCoverageDrawn;
        p->setPen(Qt::NoPen);
        p->setBrush(coverageMarkColor(mark, plain));
        p->drawRect(QRectF(cell.left() + cell.width() * 0.15, base - h, cell.width() * 0.7, h));
        const QString value = QString::number(cov, 'f', 2);
        if (fm.horizontalAdvance(value) + 2 <= cell.width()) {
            p->setPen(mark == CoverageMark::None ? ink : coverageMarkColor(mark, ink));
            p->drawText(QRectF(cell.left(), base, cell.width(), kValueLine * px), Qt::AlignCenter, value);
        }
    }
    // coverage 1: every word read once
    p->setPen(QPen(ink, 1, Qt::DashLine));
    const double one = base - kBarHeight * px / kMaxCoverageDrawn;
    p->drawLine(QPointF(a.left(), one), QPointF(a.right(), one));
    p->restore();
    p->setPen(ink);
    p->drawText(coverageLabelRect(s), Qt::AlignRight | Qt::AlignVCenter, coverageLabel());
}

void drawEntropyColumn(QCPPainter* p, const HeatmapScene& s, const Visible& v, double px) {
    const HeatmapDiagnostics& d = s.diagnostics();
    const QRect a = s.axisRect()->rect();
    const double left = a.right() + kGap * px, width = kColumnWidth * px;
    const QColor ink = inkFor(s), plain = plainBarColor(), diffuse = diffuseRowColor();
    const int shown = s.visibleRows();
    p->save();
    p->setClipRect(QRectF(left, a.top(), width + 2, a.height()), Qt::IntersectClip);
    for (int r = v.r0; r <= v.r1; ++r) {
        const int dr = s.layout().rows[r];
        if (dr >= int(d.rows.size()) || (shown >= 0 && dr >= shown)) continue;
        const RowDiagnosis& row = d.rows[size_t(dr)];
        const QRectF cell = s.displayCellRect(r, 0);
        p->setPen(Qt::NoPen);
        p->setBrush(row.diffuse ? diffuse : plain);
        p->drawRect(QRectF(left, cell.top() + cell.height() * 0.2, width * std::clamp(row.share, 0.0, 1.0),
                           cell.height() * 0.6));
    }
    p->setPen(QPen(ink, 1, Qt::DashLine));  // the diffuse threshold
    p->drawLine(QPointF(left + width * kDiffuseShare, a.top()), QPointF(left + width * kDiffuseShare, a.bottom()));
    p->restore();
    const QFont font = heatmapFont(px * 0.8);
    p->setFont(font);
    p->setPen(ink);
    const double h = QFontMetricsF(font).height();
    p->drawText(QRectF(left, a.top() - h - 2, width + 4 * px, h), Qt::AlignLeft | Qt::AlignBottom, entropyLabel());
}

}  // namespace

QColor coverageMarkColor(CoverageMark mark, const QColor& plain) {
    switch (mark) {
    case CoverageMark::Neglected:
        return QColor(60, 120, 220);
    case CoverageMark::OverAttended:
        return QColor(220, 70, 50);
    case CoverageMark::None:
        break;
    }
    return plain;
}

QColor diffuseRowColor() { return QColor(230, 140, 30); }
QColor plainBarColor() { return QColor(150, 150, 150); }

HeatmapDiagnostics HeatmapDiagnostics::make(const HeatmapData& data, int visibleRows) {
    HeatmapDiagnostics d;
    d.coverage = sourceCoverage(data.weights, visibleRows);
    for (const auto& row : data.weights) d.rows.push_back(diagnoseRow(row));
    return d;
}

QMargins diagnosticsMargins(double px) {
    const double label = QFontMetricsF(heatmapFont(px * 0.8)).horizontalAdvance(coverageLabel()) + 8;
    return QMargins(int(std::ceil(label)), 0, int(std::ceil((kGap + kColumnWidth) * px + 6)),
                    int(std::ceil((kGap + kBarHeight + kValueLine) * px + 4)));
}

QRectF coverageLabelRect(const HeatmapScene& s) {
    const double px = s.fontPixelSize();
    const double width = QFontMetricsF(heatmapFont(px * 0.8)).horizontalAdvance(coverageLabel());
    const QRect a = s.axisRect()->rect();
    const double right = a.left() - 4, top = a.bottom() + kGap * px;
    return QRectF(right - width, top, width, kBarHeight * px);
}

void drawDiagnostics(QCPPainter* painter, const HeatmapScene& scene) {
    if (scene.layout().cols.isEmpty() || scene.layout().rows.isEmpty()) return;
    const Visible v = visibleCells(scene);
    const double px = scene.fontPixelSize();
    drawCoverageRow(painter, scene, v, px);
    drawEntropyColumn(painter, scene, v, px);
}

void drawSelectedWindow(QCPPainter* painter, const HeatmapScene& scene) {
    const HeatmapData& data = scene.data();
    const int row = scene.style().selected_row;
    if (row < 0 || row >= int(data.scores.size())) return;
    const std::vector<float>& scores = data.scores[size_t(row)];
    int lo = -1, hi = -1;
    for (int j = 0; j < int(scores.size()); ++j)
        if (std::isfinite(scores[size_t(j)])) {
            if (lo < 0) lo = j;
            hi = j;
        }
    if (lo < 0 || (lo == 0 && hi == int(scores.size()) - 1)) return;  // global, or a window as wide as the row
    const HeatmapLayout& l = scene.layout();
    int first = -1, last = -1;  // the window's displayed columns (hidden specials left out)
    for (int c = 0; c < int(l.cols.size()); ++c)
        if (l.cols[c] >= lo && l.cols[c] <= hi) {
            if (first < 0) first = c;
            last = c;
        }
    const int r = l.displayRow(row);
    if (first < 0 || r < 0) return;
    const QRectF span = scene.displayCellRect(r, first).united(scene.displayCellRect(r, last)).adjusted(-2, -2, 2, 2);
    painter->setBrush(Qt::NoBrush);
    painter->setPen(QPen(QColor(0, 0, 0, 200), 3.0));
    painter->drawRect(span);
    painter->setPen(QPen(QColor(255, 214, 0), 1.5, Qt::DashLine));
    painter->drawRect(span);
}

}  // namespace attnviz::ui
