// How tokens are written along a plot axis, one rule for the heatmap (window and exports) and the step panel's bar
// chart: a token longer than kMaxLabelChars characters (or than a pixel budget) is elided with "…" (the full token
// is in the plot's tooltip); labels stand across their slots when the widest word fits (the specials <sos>/<eos>
// do not decide), otherwise they are turned to read upwards (-90°), unless turning does not make them narrower
// (single characters, as in the dates task); a label whose box would overlap the one written before it, or the
// last one, is left out (the last is always written; turned labels are measured as QCustomPlot draws them).
#pragma once
#include <QFont>
#include <QHash>
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

// Label sizes in a font, each measured once: a heatmap's layout measures the same labels in each of its passes (the
// margins depend on the cell size and the cell size on them), and measuring text, which shapes it, is most of that
// time. The values are QFontMetricsF's advance and QFontMetrics' bounding rect, as the plot measures them.
class LabelMetrics {
public:
    double advance(const QFont& font, const QString& text);  // QFontMetricsF::horizontalAdvance
    QRect box(const QFont& font, const QString& text,
              int flags);  // QFontMetrics::boundingRect(0, 0, 0, 0, flags, text)

private:
    // The cache key of (font, flags, text); the font's description is made once for a run of calls in one font.
    QString keyOf(const QFont& font, int flags, const QString& text);

    static constexpr int kMaxEntries = 8192;
    QFont last_font_;
    QString last_font_key_;  // a new sentence's labels, many times over; then it starts again
    QHash<QString, double> advances_;
    QHash<QString, QRect> boxes_;
};

struct AxisLabelPlan {
    double rotation = 0;  // degrees: 0 across the axis' slots, -90 reading upwards
    QList<int> written;   // indices of the labels written, ascending
};
// How `labels` (already elided), label i centred on i * slot_px along a horizontal axis, are written in `font`.
// `metrics`: where the labels' sizes are kept between calls (nullptr: measured anew).
AxisLabelPlan planHorizontalLabels(const QStringList& labels, const QFont& font, double slot_px,
                                   LabelMetrics* metrics = nullptr);
// Every k-th label along a vertical axis, one text line per label, slots of `slot_px` pixels.
int verticalLabelStride(const QFont& font, double slot_px);

// Runs QCustomPlot's layout for `viewport` now (no painting), so that the axis rects' sizes (the slots) are known
// before the labels are chosen.
void layoutPlotNow(QCustomPlot* plot, const QRect& viewport);

}  // namespace attnviz::ui
