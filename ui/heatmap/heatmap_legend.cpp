#include "heatmap/heatmap_legend.h"

#include "eval/attention_diagnostics.h"
#include "heatmap/alignment_marks.h"
#include "heatmap/colormaps.h"
#include "heatmap/heatmap_diagnostics.h"
#include "heatmap/heatmap_fonts.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>
#include <QResizeEvent>
#include <algorithm>
#include <cmath>

namespace attnviz::ui {

namespace {

// Sizes in units of the legend's font size.
constexpr double kSwatch = 1.2;      // a swatch's square
constexpr double kSwatchGap = 0.35;  // between a swatch and its text
constexpr double kEntryGap = 0.9;    // between two entries of a group
constexpr double kGroupGap = 1.8;    // before a group's heading
constexpr double kLineGap = 0.3;     // between two lines

QString number(double v) { return QString::number(v, 'g', 3); }

bool hasSwatch(const LegendEntry& e) { return e.swatch != LegendSwatch::None; }

double entryWidth(const LegendEntry& e, const QFontMetricsF& fm, double px) {
    return (hasSwatch(e) ? (kSwatch + kSwatchGap) * px : 0) + fm.horizontalAdvance(e.text);
}

void paintSwatch(QPainter* p, const QRectF& box, LegendSwatch swatch, const QColor& ink) {
    p->save();
    p->setPen(Qt::NoPen);
    switch (swatch) {
    case LegendSwatch::Neglected:
    case LegendSwatch::OverAttended: {  // an upright bar, as in the coverage row
        const CoverageMark mark =
            swatch == LegendSwatch::Neglected ? CoverageMark::Neglected : CoverageMark::OverAttended;
        p->setBrush(coverageMarkColor(mark, plainBarColor()));
        const double h = swatch == LegendSwatch::Neglected ? 0.35 : 1.0;
        p->drawRect(QRectF(box.left() + box.width() * 0.2, box.bottom() - box.height() * h, box.width() * 0.6,
                           box.height() * h));
        break;
    }
    case LegendSwatch::RowEntropy:
    case LegendSwatch::DiffuseRow:  // a lying bar, as in the entropy column
        p->setBrush(swatch == LegendSwatch::DiffuseRow ? diffuseRowColor() : plainBarColor());
        p->drawRect(QRectF(box.left(), box.top() + box.height() * 0.25,
                           box.width() * (swatch == LegendSwatch::DiffuseRow ? 1.0 : 0.55), box.height() * 0.5));
        break;
    case LegendSwatch::LevelLine:
        p->setPen(QPen(ink, 1, Qt::DashLine));
        p->drawLine(QPointF(box.left(), box.center().y()), QPointF(box.right(), box.center().y()));
        break;
    case LegendSwatch::GoldCorrect:
    case LegendSwatch::GoldFalse:
    case LegendSwatch::GoldMissed: {
        const AlignmentCellKind kind = swatch == LegendSwatch::GoldCorrect ? AlignmentCellKind::Correct
                                       : swatch == LegendSwatch::GoldFalse ? AlignmentCellKind::False
                                                                           : AlignmentCellKind::Missed;
        p->setRenderHint(QPainter::Antialiasing, true);
        // The marks take a third of a cell's side as radius: a cell a little larger than the swatch.
        drawAlignmentMark(
            p, box.adjusted(-box.width() * 0.2, -box.height() * 0.2, box.width() * 0.2, box.height() * 0.2), kind);
        break;
    }
    case LegendSwatch::None:
        break;
    }
    p->restore();
}

}  // namespace

// In the legend's own translation context; attnviz-cli, which installs no translator, draws English.
std::vector<LegendEntry> heatmapLegendEntries(const HeatmapStyle& style) {
    std::vector<LegendEntry> e;
    if (style.diagnostics) {
        e.push_back({LegendSwatch::None, QCoreApplication::translate("attnviz::ui::HeatmapLegend", "coverage:")});
        e.push_back(
            {LegendSwatch::Neglected, QCoreApplication::translate("attnviz::ui::HeatmapLegend", "below %1, neglected")
                                          .arg(number(kNeglectedBelow))});
        e.push_back({LegendSwatch::OverAttended,
                     QCoreApplication::translate("attnviz::ui::HeatmapLegend", "above %1, over-attended")
                         .arg(number(1 + kOverBy))});
        e.push_back(
            {LegendSwatch::LevelLine, QCoreApplication::translate("attnviz::ui::HeatmapLegend", "1: read once")});
        e.push_back(
            {LegendSwatch::None, QCoreApplication::translate("attnviz::ui::HeatmapLegend", "H / ln S (row entropy):")});
        e.push_back({LegendSwatch::RowEntropy,
                     QCoreApplication::translate("attnviz::ui::HeatmapLegend", "below %1").arg(number(kDiffuseShare))});
        e.push_back({LegendSwatch::DiffuseRow,
                     QCoreApplication::translate("attnviz::ui::HeatmapLegend", "from %1, diffuse (dashed line)")
                         .arg(number(kDiffuseShare))});
    }
    if (!style.alignment_marks.empty()) {
        e.push_back({LegendSwatch::None, QCoreApplication::translate("attnviz::ui::HeatmapLegend", "gold links:")});
        e.push_back({LegendSwatch::GoldCorrect, QCoreApplication::translate("attnviz::ui::HeatmapLegend", "correct")});
        e.push_back({LegendSwatch::GoldFalse, QCoreApplication::translate("attnviz::ui::HeatmapLegend", "false")});
        e.push_back({LegendSwatch::GoldMissed, QCoreApplication::translate("attnviz::ui::HeatmapLegend", "missed")});
    }
    return e;
}

LegendLayout layoutLegend(const std::vector<LegendEntry>& entries, double width, double px) {
    LegendLayout layout;
    if (entries.empty()) return layout;
    const QFontMetricsF fm(heatmapFont(px));
    const double lineHeight = std::max(fm.height(), kSwatch * px);
    double x = 0, y = 0;
    for (size_t i = 0; i < entries.size(); ++i) {
        const bool heading = !hasSwatch(entries[i]);
        double w = entryWidth(entries[i], fm, px);
        // A heading keeps its first entry on its line.
        double needed = w;
        if (heading && i + 1 < entries.size()) needed += kSwatchGap * px + entryWidth(entries[i + 1], fm, px);
        const double gap = x == 0 ? 0 : (heading ? kGroupGap : kEntryGap) * px;
        if (x > 0 && x + gap + needed > width) {
            x = 0;
            y += lineHeight + kLineGap * px;
        } else {
            x += gap;
        }
        layout.entries.push_back(QRectF(x, y, w, lineHeight));
        x += w + (heading ? kSwatchGap * px - kEntryGap * px : 0);
    }
    layout.height = y + lineHeight;
    return layout;
}

void paintLegend(QPainter* p, const QPointF& topLeft, const std::vector<LegendEntry>& entries,
                 const LegendLayout& layout, double px, const QColor& paper) {
    const QColor ink = contrastingTextColor(paper.isValid() ? paper : QColor(Qt::white)) == QColor(Qt::black)
                           ? QColor(20, 20, 20)
                           : QColor(230, 230, 230);
    const QFont font = heatmapFont(px);
    p->save();
    p->setFont(font);
    p->setRenderHint(QPainter::TextAntialiasing, true);
    for (size_t i = 0; i < entries.size() && i < layout.entries.size(); ++i) {
        const QRectF r = layout.entries[i].translated(topLeft);
        double textLeft = r.left();
        if (hasSwatch(entries[i])) {
            const double s = kSwatch * px;
            paintSwatch(p, QRectF(r.left(), r.center().y() - s / 2, s, s).adjusted(1, 1, -1, -1), entries[i].swatch,
                        ink);
            textLeft += s + kSwatchGap * px;
        }
        p->setPen(ink);
        p->drawText(QRectF(textLeft, r.top(), r.right() - textLeft + 2, r.height()), Qt::AlignLeft | Qt::AlignVCenter,
                    entries[i].text);
    }
    p->restore();
}

HeatmapLegendStrip::HeatmapLegendStrip(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);  // any width: the entries flow onto more lines
    hide();
}

void HeatmapLegendStrip::setEntries(const std::vector<LegendEntry>& entries, const QColor& paper) {
    if (entries == entries_ && paper == paper_) return;
    entries_ = entries;
    paper_ = paper;
    relayout();
    update();
}

// The entries at the strip's width (less its side margins), the strip as high as their lines.
void HeatmapLegendStrip::relayout() {
    constexpr int kMargin = 4;
    layout_ = layoutLegend(entries_, one_line_ ? 1e6 : std::max(1, width() - 2 * kMargin), kFontPx);
    for (QRectF& r : layout_.entries) r.translate(kMargin, kMargin);
    QStringList texts;
    for (const LegendEntry& e : entries_) texts << e.text;
    setToolTip(one_line_ ? texts.join(u' ') : QString());
    const int h = entries_.empty() ? 0 : int(std::ceil(layout_.height)) + 2 * kMargin;
    if (height() != h || minimumHeight() != h) setFixedHeight(h);
}

void HeatmapLegendStrip::setOneLine(bool on) {
    if (on == one_line_) return;
    one_line_ = on;
    relayout();
    update();
}

void HeatmapLegendStrip::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    if (event->size().width() != event->oldSize().width()) relayout();
}

// One line: the entries that fit whole (a heading with its first entry), none cut in the middle of a word.
void HeatmapLegendStrip::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), paper_);
    if (!one_line_) return paintLegend(&p, QPointF(0, 0), entries_, layout_, kFontPx, paper_);
    size_t shown = 0;
    while (shown < entries_.size() && layout_.entries[shown].right() <= width()) ++shown;
    if (shown > 0 && shown < entries_.size() && entries_[shown - 1].swatch == LegendSwatch::None) --shown;
    const std::vector<LegendEntry> entries(entries_.begin(), entries_.begin() + long(shown));
    LegendLayout layout = layout_;
    layout.entries.resize(shown);
    paintLegend(&p, QPointF(0, 0), entries, layout, kFontPx, paper_);
}

}  // namespace attnviz::ui
