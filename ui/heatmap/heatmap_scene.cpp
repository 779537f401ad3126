#include "heatmap/heatmap_scene.h"

#include "heatmap/colormaps.h"
#include "heatmap/fitted_title.h"
#include "heatmap/heatmap_overlay.h"
#include "heatmap/intervention_marks.h"
#include "heatmap/token_labels.h"

#include <QCoreApplication>
#include <QFontMetrics>
#include <QFontMetricsF>
#include <cmath>
#include <limits>

namespace attnviz::ui {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// A target label takes at most this share of the plot's width: a clause-sized word (pieces merged into words in a
// language written without spaces) would otherwise leave the matrix room for a column or two.
constexpr double kValueLabelShareOfWidth = 0.25;

}  // namespace

HeatmapLayout HeatmapLayout::make(const HeatmapData& data, bool hideSpecials) {
    HeatmapLayout l;
    // Only <sos>/<eos> are hidden: an <unk> the model produced is information, not decoration.
    auto hidden = [&](const QString& t) {
        return hideSpecials && (t == QLatin1String("<sos>") || t == QLatin1String("<eos>"));
    };
    for (int c = 0; c < data.cols(); ++c)
        if (!hidden(data.source_tokens[c])) l.cols << c;
    for (int r = 0; r < data.rows(); ++r)
        if (!hidden(data.target_tokens[r])) l.rows << r;
    return l;
}

HeatmapScene::HeatmapScene(QCustomPlot* plot, Mode mode) : plot_(plot), mode_(mode) {
    plot_->plotLayout()->setMargins(QMargins(8, 6, 8, 6));  // keeps the outermost labels off the figure's edge
    QCPAxisRect* rect = plot_->axisRect();
    plot_->xAxis->setVisible(false);
    plot_->yAxis2->setVisible(false);
    plot_->xAxis2->setVisible(true);
    key_ticker_ = QSharedPointer<QCPAxisTickerText>::create();
    value_ticker_ = QSharedPointer<QCPAxisTickerText>::create();
    for (QCPAxis* ax : {keyAxis(), valueAxis()}) {
        ax->setTicker(ax == keyAxis() ? key_ticker_ : value_ticker_);
        ax->setSubTicks(false);
        ax->setTickLength(0, 4);
        ax->setBasePen(Qt::NoPen);
        ax->grid()->setVisible(false);
        ax->setPadding(2);
    }
    valueAxis()->setRangeReversed(true);

    map_ = new QCPColorMap(keyAxis(), valueAxis());
    map_->setInterpolate(false);
    map_->setTightBoundary(false);
    map_->setAntialiased(false);

    scale_ = new QCPColorScale(plot_);
    plot_->plotLayout()->addElement(0, 1, scale_);
    scale_->setType(QCPAxis::atRight);
    scale_->setBarWidth(14);
    scale_->axis()->setSubTicks(false);
    map_->setColorScale(scale_);
    margins_ = new QCPMarginGroup(plot_);
    // The top margin is the labels' (reserveKeyLabelHeight), set on both; the bottom one is shared.
    rect->setAutoMargins(QCP::msLeft | QCP::msRight | QCP::msBottom);
    scale_->setAutoMargins(QCP::msLeft | QCP::msRight | QCP::msBottom);
    rect->setMarginGroup(QCP::msBottom, margins_);
    scale_->setMarginGroup(QCP::msBottom, margins_);

    plot_->addLayer(kMarksLayer, plot_->layer(QStringLiteral("axes")), QCustomPlot::limAbove);
    if (mode_ == Mode::Interactive) plot_->layer(kMarksLayer)->setMode(QCPLayer::lmBuffered);
    overlay_ = new HeatmapOverlay(plot_, this);
    applyFonts();
    applyColors();
}

HeatmapScene::~HeatmapScene() = default;  // the plot owns its elements

QCPAxisRect* HeatmapScene::axisRect() const { return plot_->axisRect(); }
QCPAxis* HeatmapScene::keyAxis() const { return plot_->xAxis2; }
QCPAxis* HeatmapScene::valueAxis() const { return plot_->yAxis; }
QCPRange HeatmapScene::fullKeyRange() const { return QCPRange(-0.5, std::max<int>(1, layout_.cols.size()) - 0.5); }
QCPRange HeatmapScene::fullValueRange() const { return QCPRange(-0.5, std::max<int>(1, layout_.rows.size()) - 0.5); }

void HeatmapScene::setFontPixelSize(double px) {
    font_px_ = px;
    label_px_ = value_label_px_ = px;
    annotate_px_ = px * 0.85;
    if (style_.diagnostics) axisRect()->setMinimumMargins(diagnosticsMargins(px));
    applyFonts();
}

void HeatmapScene::applyFonts() {
    const QFont base = heatmapBaseFont(font_px_);
    keyAxis()->setTickLabelFont(heatmapBaseFont(label_px_));
    valueAxis()->setTickLabelFont(heatmapBaseFont(value_label_px_));
    for (QCPAxis* ax : {keyAxis(), valueAxis()}) ax->setLabelFont(base);
    QFont small = heatmapBaseFont(font_px_ * 0.9);
    scale_->axis()->setTickLabelFont(small);
    scale_->axis()->setLabelFont(small);
    if (title_) {
        QFont t = heatmapBaseFont(font_px_ * 1.25);
        t.setBold(true);
        title_->setFont(t);
    }
}

void HeatmapScene::applyColors() {
    const QColor paper = style_.background.isValid() ? style_.background : QColor(Qt::white);
    const QColor contrast = contrastingTextColor(paper);  // black or white
    const bool light = contrast == QColor(Qt::black);
    // Labels in near-black on light paper, near-white on dark: softer than pure black or white, as readable.
    const QColor ink = light ? QColor(20, 20, 20) : QColor(230, 230, 230);
    plot_->setBackground(paper);
    axisRect()->setBackground(light ? paper.darker(107) : paper.lighter(140));  // what undecoded (NaN) rows show
    for (QCPAxis* ax : {keyAxis(), valueAxis()}) {
        ax->setTickPen(QPen(light ? QColor(90, 90, 90) : QColor(160, 160, 160), 1));
        ax->setTickLabelColor(ink);
        ax->setLabelColor(ink);
    }
    QCPAxis* scale = scale_->axis();
    scale->setBasePen(QPen(contrast, 1));
    scale->setTickPen(QPen(contrast, 1));
    scale->setTickLabelColor(contrast);
    scale->setLabelColor(contrast);
    // Translated when the program has installed a translator (the window); attnviz-cli draws it in English.
    scale->setLabel(style_.scale_label.isEmpty()
                        ? QCoreApplication::translate("attnviz::ui::HeatmapScene", "attention weight")
                        : style_.scale_label);
    if (title_) title_->setTextColor(contrast);
}

void HeatmapScene::setContent(const HeatmapData& data, const HeatmapStyle& style, int visibleRows) {
    data_ = data;
    style_ = style;
    visible_rows_ = visibleRows;
    layout_ = HeatmapLayout::make(data_, style_.hide_specials);
    diagnostics_ = style_.diagnostics ? HeatmapDiagnostics::make(data_, visible_rows_) : HeatmapDiagnostics{};
    axisRect()->setMinimumMargins(style_.diagnostics ? diagnosticsMargins(font_px_) : QMargins());
    const int C = int(layout_.cols.size()), R = int(layout_.rows.size());

    QCPColorMapData* d = map_->data();
    d->setSize(C, R);
    // Cell c is centred on c. A single cell has no spacing to go by: give it the range of one cell directly.
    d->setRange(C > 1 ? QCPRange(0, C - 1) : QCPRange(-0.5, 0.5), R > 1 ? QCPRange(0, R - 1) : QCPRange(-0.5, 0.5));
    double maxShown = 0;
    for (int r = 0; r < R; ++r) {
        const int dr = layout_.rows[r];
        const bool decoded = visible_rows_ < 0 || dr < visible_rows_;
        const std::vector<float>* row = dr < int(data_.weights.size()) ? &data_.weights[dr] : nullptr;
        for (int c = 0; c < C; ++c) {
            const int dc = layout_.cols[c];
            const bool shown = decoded && row && dc < int(row->size()) && !(data_.causal && dc > dr);  // causal: empty
            const double v = shown ? double((*row)[dc]) : kNaN;
            d->setCell(c, r, v);
            if (std::isfinite(v)) maxShown = std::max(maxShown, std::abs(v));
        }
    }
    map_->setVisible(C > 0 && R > 0);
    map_->setGradient(style_.diverging ? divergingGradient() : colormapGradient(style_.colormap));
    const double top = style_.fit_range && maxShown > 0 ? maxShown : 1.0;
    map_->setDataRange(style_.diverging ? QCPRange(-top, top) : QCPRange(0, top));

    // Title row above the matrix, only when there is a title.
    if (!style_.title.isEmpty() && !title_) {
        plot_->plotLayout()->insertRow(0);
        title_ = new FittedTitle(plot_, style_.title);
        plot_->plotLayout()->addElement(0, 0, title_);
        applyFonts();
    } else if (style_.title.isEmpty() && title_) {
        plot_->plotLayout()->remove(title_);
        plot_->plotLayout()->simplify();
        title_ = nullptr;
    }
    if (title_) title_->setText(style_.title);
    applyColors();
    updateTicks();
}

void HeatmapScene::setMarks(const HeatmapStyle& style) {
    style_.current_row = style.current_row;
    style_.selected_row = style.selected_row;
    style_.selected_col = style.selected_col;
}

void HeatmapScene::setHover(int dataRow, int dataCol) {
    hover_row_ = dataRow;
    hover_col_ = dataCol;
}

void HeatmapScene::setLabelMarks(const LabelMarks& marks) { label_marks_ = marks; }

// The part of `cells` inside the matrix; empty when that is less than a pixel (scrolled out of view).
QRectF HeatmapScene::inMatrix(const QRectF& cells) const {
    const QRectF shown = cells.intersected(QRectF(axisRect()->rect()));
    return shown.width() >= 1 && shown.height() >= 1 ? shown : QRectF();
}

QRectF HeatmapScene::currentRowOutline() const {
    const int r = layout_.displayRowAtOrBefore(style_.current_row), C = int(layout_.cols.size());
    return r < 0 || C == 0 ? QRectF() : inMatrix(displayCellRect(r, 0).united(displayCellRect(r, C - 1)));
}

QRectF HeatmapScene::selectedCellOutline() const {
    const int r = layout_.displayRow(style_.selected_row), c = layout_.displayCol(style_.selected_col);
    return r < 0 || c < 0 ? QRectF() : inMatrix(displayCellRect(r, c));
}

QRectF HeatmapScene::rowMarkRect(int displayRow) const {
    const QRectF cell = displayCellRect(displayRow, 0);
    const double left = axisRect()->rect().left();
    return QRectF(QPointF(left - kMarkDepth, cell.top() + 1), QPointF(left - 1, cell.bottom() - 1));
}

QRectF HeatmapScene::columnMarkRect(int displayCol) const {
    const QRectF cell = displayCellRect(0, displayCol);
    const double top = axisRect()->rect().top();
    return QRectF(QPointF(cell.left() + 1, top - kMarkDepth), QPointF(cell.right() - 1, top - 1));
}

void HeatmapScene::updateTicks() {
    const int C = int(layout_.cols.size()), R = int(layout_.rows.size());
    const QFont keyFont = keyAxis()->tickLabelFont(), valueFont = valueAxis()->tickLabelFont();
    const QCPAxisRect* rect = axisRect();
    const double pxKey = rect->width() / std::max(1e-9, keyAxis()->range().size());
    const double pxValue = rect->height() / std::max(1e-9, valueAxis()->range().size());

    QStringList keyLabels, valueLabels;
    for (int c = 0; c < C; ++c) keyLabels << tokenLabel(data_.source_tokens[layout_.cols[c]], keyFont);
    const double plot_width = plot_->viewport().width();
    const double value_label_px =
        plot_width > 0 ? kValueLabelShareOfWidth * plot_width : std::numeric_limits<double>::infinity();
    for (int r = 0; r < R; ++r)
        valueLabels << tokenLabel(data_.target_tokens[layout_.rows[r]], valueFont, value_label_px);
    reserveValueLabelWidth(valueLabels);
    // Source labels across the cells when they fit, otherwise vertical (reading upwards), as in the classic figures.
    // Some left out when they would overlap: zoomed out in the window, or an export whose cells are smaller than
    // the smallest legible font (fitForExport shrinks the font first, so exports usually keep every label).
    const AxisLabelPlan keyPlan = planHorizontalLabels(keyLabels, keyFont, pxKey, &label_metrics_);
    keyAxis()->setTickLabelRotation(keyPlan.rotation);
    const int valueStride = verticalLabelStride(valueFont, pxValue);
    QMap<double, QString> kt, vt;
    for (int c : keyPlan.written) kt.insert(c, keyLabels[c]);
    for (int r = 0; r < R; r += valueStride)
        if (visible_rows_ < 0 || layout_.rows[r] < visible_rows_) vt.insert(r, valueLabels[r]);  // undecoded: none
    key_ticker_->setTicks(kt);
    value_ticker_->setTicks(vt);
    QStringList written;
    for (int c : keyPlan.written) written << keyLabels[c];
    reserveKeyLabelHeight(written, keyPlan.rotation != 0);
    // The colour scale's numbers two lines apart at most five: fewer of them on a short matrix, never overprinted.
    const double line = QFontMetricsF(scale_->axis()->tickLabelFont()).height();
    scale_->axis()->ticker()->setTickCount(std::clamp(int(rect->height() / (2 * line)), 1, 5));
}

// The target labels' column is as wide as the widest label of the whole output, decoded yet or not, so that the
// matrix does not move sideways while stepping. QCustomPlot's own margin (QCPAxis::calculateMargin) is the outward
// tick length, the widest shown label (its QFontMetrics bounding rect), the label padding and the axis padding; a
// minimum margin of the same sum for every label keeps it constant (2 pixels spare for rounding).
void HeatmapScene::reserveValueLabelWidth(const QStringList& labels) {
    const QFont font = valueAxis()->tickLabelFont();
    int widest = 0;
    for (const QString& l : labels) widest = std::max(widest, label_metrics_.box(font, l, Qt::TextDontClip).width());
    const QCPAxis* axis = valueAxis();
    const int margin = labels.isEmpty() ? 0
                                        : axis->tickLengthOut() + axis->tickLabelPadding() + widest + axis->padding() +
                                              axis->offset() + 2;
    QMargins minimum = axisRect()->minimumMargins();
    // The coverage row's label stands in the same column: it needs its room too (with <sos>/<eos> hidden and
    // one-character target words, "coverage" is the widest label).
    minimum.setLeft(std::max(margin, style_.diagnostics ? diagnosticsMargins(font_px_).left() : 0));
    axisRect()->setMinimumMargins(minimum);
}

// The room above the matrix is set here, not by QCustomPlot's automatic margin: that one kept a long sentence's
// turned labels' height for a later short sentence written across (a blank band above its labels). The same QCPAxis
// sum as reserveValueLabelWidth, over every label written (in view or not: the matrix does not move while
// scrolling sideways); the colour scale's top is kept level with the matrix's.
void HeatmapScene::reserveKeyLabelHeight(const QStringList& written, bool turned) {
    const QFont font = keyAxis()->tickLabelFont();
    int extent = 0;
    for (const QString& l : written) {
        const QRect r = label_metrics_.box(font, l, Qt::TextDontClip);
        extent = std::max(extent, turned ? r.width() : r.height());
    }
    const QCPAxis* axis = keyAxis();
    const int margin = axis->padding() + axis->offset() +
                       (written.isEmpty() ? 0 : axis->tickLengthOut() + axis->tickLabelPadding() + extent + 2);
    for (QCPLayoutElement* element :
         {static_cast<QCPLayoutElement*>(axisRect()), static_cast<QCPLayoutElement*>(scale_)}) {
        QMargins m = element->margins();
        m.setTop(margin);
        element->setMargins(m);
    }
}

void HeatmapScene::fitForExport(const QSize& logical) {
    const int C = std::max<int>(1, layout_.cols.size()), R = std::max<int>(1, layout_.rows.size());
    keyAxis()->setRange(fullKeyRange());
    valueAxis()->setRange(fullValueRange());
    // Lay out at the final size, read the cell size, shrink the label font if labels would overlap, twice (the
    // label widths change the margins).
    label_px_ = value_label_px_ = font_px_;
    for (int pass = 0; pass < 3; ++pass) {
        applyFonts();
        updateTicks();
        layoutNow(QRect(QPoint(0, 0), logical));
        const double cellW = axisRect()->width() / double(C), cellH = axisRect()->height() / double(R);
        // A line of text is ~1.17 font px high, plus a gap: source labels stand in the cell width (rotated) or
        // fit across it, target labels in the cell height.
        const double keyPx = std::clamp(cellW / 1.3, 6.0, font_px_), valuePx = std::clamp(cellH / 1.3, 6.0, font_px_);
        annotate_px_ = std::clamp(std::min({font_px_ * 0.85, cellH * 0.42, cellW / 2.6}), 0.0, font_px_);
        if (std::abs(keyPx - label_px_) < 0.5 && std::abs(valuePx - value_label_px_) < 0.5) break;
        label_px_ = keyPx;
        value_label_px_ = valuePx;
    }
    applyFonts();
    updateTicks();
}

void HeatmapScene::setVectorCells(bool on) {
    vector_cells_ = on;
    map_->setVisible(!on);
}

void HeatmapScene::layoutNow(const QRect& viewport) { layoutPlotNow(plot_, viewport); }

QPoint HeatmapScene::cellAt(const QPointF& pixel) const {
    const int C = int(layout_.cols.size()), R = int(layout_.rows.size());
    if (C == 0 || R == 0 || !axisRect()->rect().contains(pixel.toPoint())) return {-1, -1};
    const int c = int(std::lround(keyAxis()->pixelToCoord(pixel.x())));
    const int r = int(std::lround(valueAxis()->pixelToCoord(pixel.y())));
    if (c < 0 || c >= C || r < 0 || r >= R) return {-1, -1};
    const int dr = layout_.rows[r];
    if (visible_rows_ >= 0 && dr >= visible_rows_) return {-1, -1};
    return {layout_.cols[c], dr};
}

int HeatmapScene::columnLabelAt(const QPointF& pixel) const {
    const QRect matrix = axisRect()->rect();
    const int C = int(layout_.cols.size());
    if (C == 0 || pixel.y() >= matrix.top() || pixel.x() < matrix.left() || pixel.x() > matrix.right()) return -1;
    const int c = int(std::lround(keyAxis()->pixelToCoord(pixel.x())));
    return c >= 0 && c < C ? layout_.cols[c] : -1;
}

QRectF HeatmapScene::displayCellRect(int displayRow, int displayCol) const {
    const double x0 = keyAxis()->coordToPixel(displayCol - 0.5), x1 = keyAxis()->coordToPixel(displayCol + 0.5);
    const double y0 = valueAxis()->coordToPixel(displayRow - 0.5), y1 = valueAxis()->coordToPixel(displayRow + 0.5);
    return QRectF(QPointF(std::min(x0, x1), std::min(y0, y1)), QPointF(std::max(x0, x1), std::max(y0, y1)));
}

double HeatmapScene::displayValue(int displayRow, int displayCol) const {
    QCPColorMapData* d = map_->data();  // cell() is not const in QCustomPlot 2.1
    if (displayCol < 0 || displayRow < 0 || displayCol >= d->keySize() || displayRow >= d->valueSize()) return kNaN;
    return d->cell(displayCol, displayRow);
}

}  // namespace attnviz::ui
