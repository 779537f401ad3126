// How tokens are written along a plot axis, one rule for the heatmap (window and exports) and the step panel's bar
// chart: a token longer than kMaxLabelChars characters (or than a pixel budget) is elided with "…" (the full token
// is in the plot's tooltip); labels stand across their slots when the widest word fits (the specials <sos>/<eos>
// do not decide), otherwise they are turned to read upwards (-90°), unless turning does not make them narrower
// (single characters, as in the dates task); a label whose box would overlap the one written before it, or the
// last one, is left out (the last is always written; turned labels are measured as QCustomPlot draws them).
#pragma once
#include <QFont>
#include <QList>
#include <QRect>
#include <QString>
#include <QStringList>
#include <limits>

class QCustomPlot;

namespace attnviz::ui {

constexpr int kMaxLabelChars = 24;

bool isSpecialToken(const QString& token);  // <pad> <unk> <sos> <eos>

// `token` as a label: at most kMaxLabelChars characters and `max_px` pixels wide in `font`, elided with "…".
QString tokenLabel(const QString& token, const QFont& font, double max_px = std::numeric_limits<double>::infinity());

struct AxisLabelPlan {
    double rotation = 0;  // degrees: 0 across the axis' slots, -90 reading upwards
    QList<int> written;   // indices of the labels written, ascending
};
// How `labels` (already elided), label i centred on i * slot_px along a horizontal axis, are written in `font`.
AxisLabelPlan planHorizontalLabels(const QStringList& labels, const QFont& font, double slot_px);
// Every k-th label along a vertical axis, one text line per label, slots of `slot_px` pixels.
int verticalLabelStride(const QFont& font, double slot_px);

// Runs QCustomPlot's layout for `viewport` now (no painting), so that the axis rects' sizes (the slots) are known
// before the labels are chosen.
void layoutPlotNow(QCustomPlot* plot, const QRect& viewport);

}  // namespace attnviz::ui
