// The legend of what the heatmap draws besides its colours: the coverage row's colours, the H / ln S column and the
// gold-alignment marks, each group only when the style draws it (HeatmapStyle::diagnostics, alignment_marks). One
// definition of its entries, layout and painting serves the window (HeatmapLegendStrip, a strip under the heatmap
// view, outside the plot so that it takes none of the matrix's or the labels' room) and every figure
// (heatmap_renderer.h: a band under the plot). The swatches are drawn by the diagnostics' and the marks' own
// colour and shape functions; the thresholds in the texts are the engine's (eval/attention_diagnostics.h).
#pragma once
#include "heatmap/heatmap_data.h"

#include <QColor>
#include <QRectF>
#include <QString>
#include <QWidget>
#include <vector>

class QPainter;

namespace attnviz::ui {

enum class LegendSwatch {
    None,          // a group's heading: text only
    Neglected,     // coverage bar, neglected word
    OverAttended,  // coverage bar, over-attended word
    LevelLine,     // a dashed line: coverage 1, or the diffuse threshold
    RowEntropy,    // an entropy bar
    DiffuseRow,    // an entropy bar of a diffuse row
    GoldCorrect,
    GoldFalse,
    GoldMissed,
};

struct LegendEntry {
    LegendSwatch swatch = LegendSwatch::None;
    QString text;  // in the reader's language (the window's translator; attnviz-cli: English)
    bool operator==(const LegendEntry&) const = default;
};

// The entries for what `style` draws: none when it draws neither diagnostics nor gold marks.
std::vector<LegendEntry> heatmapLegendEntries(const HeatmapStyle& style);

// Entries flowed left to right in lines of at most `width` pixels (a group's heading stays with its first entry),
// text at `fontPx`: each entry's rectangle (swatch and text) from the legend's top left, and the whole height.
struct LegendLayout {
    std::vector<QRectF> entries;
    double height = 0;
};
LegendLayout layoutLegend(const std::vector<LegendEntry>& entries, double width, double fontPx);
// Paints a layout at `topLeft`, text in black or white against `paper`.
void paintLegend(QPainter* painter, const QPointF& topLeft, const std::vector<LegendEntry>& entries,
                 const LegendLayout& layout, double fontPx, const QColor& paper);

// The window's legend: a strip as high as its lines at its width (HeatmapView shows it where there is room).
class HeatmapLegendStrip : public QWidget {
    Q_OBJECT
public:
    explicit HeatmapLegendStrip(QWidget* parent = nullptr);
    void setEntries(const std::vector<LegendEntry>& entries, const QColor& paper);
    const std::vector<LegendEntry>& entries() const { return entries_; }
    // Where each entry is drawn, in the strip's pixels.
    const std::vector<QRectF>& entryRects() const { return layout_.entries; }
    // One line (a short window): the entries in one line, those past the strip's width left out of sight, all of
    // them in the tooltip; otherwise they flow onto as many lines as they need.
    void setOneLine(bool on);
    bool isOneLine() const { return one_line_; }
    static constexpr double kFontPx = 11;

protected:
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void relayout();
    std::vector<LegendEntry> entries_;
    QColor paper_ = Qt::white;
    LegendLayout layout_;
    bool one_line_ = false;
};

}  // namespace attnviz::ui
