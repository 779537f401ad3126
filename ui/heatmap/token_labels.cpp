#include "heatmap/token_labels.h"

#include <qcustomplot.h>
#include <QFontMetrics>
#include <QFontMetricsF>
#include <algorithm>
#include <cmath>

namespace attnviz::ui {

namespace {
constexpr double kLabelGap = 6;          // pixels between two labels standing across their slots
constexpr double kOverlapMargin = 1.05;  // neighbours written leave 5 % of their room free
const QChar kEllipsis(0x2026);
}  // namespace

QString LabelMetrics::keyOf(const QFont& font, int flags, const QString& text) {
    if (last_font_key_.isEmpty() || !(font == last_font_)) {
        last_font_ = font;
        last_font_key_ = font.key();
    }
    return last_font_key_ + QChar(0x1f) + QString::number(flags) + QChar(0x1f) + text;
}

double LabelMetrics::advance(const QFont& font, const QString& text) {
    const QString key = keyOf(font, -1, text);
    if (const auto it = advances_.constFind(key); it != advances_.constEnd()) return *it;
    if (advances_.size() >= kMaxEntries) advances_.clear();
    return advances_[key] = QFontMetricsF(font).horizontalAdvance(text);
}

QRect LabelMetrics::box(const QFont& font, const QString& text, int flags) {
    const QString key = keyOf(font, flags, text);
    if (const auto it = boxes_.constFind(key); it != boxes_.constEnd()) return *it;
    if (boxes_.size() >= kMaxEntries) boxes_.clear();
    return boxes_[key] = QFontMetrics(font).boundingRect(0, 0, 0, 0, flags, text);
}

QString tokenLabel(const QString& token, const QFont& font, double max_px) {
    QString label = token.size() <= kMaxLabelChars ? token : token.left(kMaxLabelChars - 1) + kEllipsis;
    if (std::isfinite(max_px)) {
        const QFontMetricsF fm(font);
        if (fm.horizontalAdvance(label) > max_px) label = fm.elidedText(label, Qt::ElideRight, max_px);
        if (label.isEmpty()) label = kEllipsis;  // elidedText gives "" when not even "…" fits: keep a mark
    }
    return label;
}

bool isSpecialToken(const QString& t) {
    return t == QLatin1String("<sos>") || t == QLatin1String("<eos>") || t == QLatin1String("<pad>") ||
           t == QLatin1String("<unk>");
}

AxisLabelPlan planHorizontalLabels(const QStringList& labels, const QFont& font, double slot_px,
                                   LabelMetrics* metrics) {
    LabelMetrics once;
    LabelMetrics& m = metrics ? *metrics : once;
    const QFontMetricsF fm(font);
    QList<double> widths;
    double widest = 0, widest_word = 0;
    for (const QString& l : labels) {
        widths << m.advance(font, l);
        widest = std::max(widest, widths.back());
        if (!isSpecialToken(l)) widest_word = std::max(widest_word, widths.back());
    }
    const double deciding = widest_word > 0 ? widest_word : widest;
    AxisLabelPlan plan;
    // Turned, a label takes one line height across the axis: worth it only when that is narrower than the label.
    const bool turn = deciding + kLabelGap > slot_px && fm.height() < deciding;
    plan.rotation = turn ? -90 : 0;
    // The room label i takes along the axis, centred on its slot. Turned: the height of the box QCustomPlot draws it
    // in (QCPAxisPainterPrivate's boundingRect: a line of the fonts its characters take, a CJK fallback's
    // included), neighbours written as long as their boxes do not overlap; upright: its width and a gap.
    QList<double> lines;
    if (turn) {
        for (const QString& l : labels) lines << m.box(font, l, Qt::TextDontClip | Qt::AlignHCenter).height();
    }
    auto room = [&](int i) { return turn ? lines[i] : widths[i] + kLabelGap; };
    auto apart = [&](int a, int b) {
        return (b - a) * slot_px >= (turn ? 1.0 : kOverlapMargin) * (room(a) + room(b)) / 2;
    };
    // From the left, each label that overlaps neither the one written before it nor the last one (the last is
    // always written: the <eos> of a sentence must not lose its label to the "." before it).
    const int n = int(labels.size());
    for (int i = 0; i < n; ++i) {
        const bool clear_before = plan.written.isEmpty() || apart(plan.written.back(), i);
        if (i == n - 1 || (clear_before && apart(i, n - 1))) plan.written << i;
    }
    return plan;
}

int verticalLabelStride(const QFont& font, double slot_px) {
    return std::max(1, int(std::ceil(QFontMetricsF(font).height() * kOverlapMargin / std::max(1e-9, slot_px))));
}

void layoutPlotNow(QCustomPlot* plot, const QRect& viewport) {
    plot->plotLayout()->setOuterRect(viewport);
    plot->plotLayout()->update(QCPLayoutElement::upPreparation);
    plot->plotLayout()->update(QCPLayoutElement::upMargins);
    plot->plotLayout()->update(QCPLayoutElement::upLayout);
}

}  // namespace attnviz::ui
