#include "views/head_importance_chart.h"

#include "heatmap/colormaps.h"
#include "heatmap/plot_palette.h"

#include <qcustomplot.h>
#include <QEvent>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace attnviz::ui {

namespace {
constexpr int kRowHeight = 18;    // pixels a bar's row takes: a readable tick label per head
constexpr int kFrameHeight = 60;  // the value axis, its label and the margins
}  // namespace

HeadImportanceChart::HeadImportanceChart(QWidget* parent) : QWidget(parent) {
    plot_ = new QCustomPlot(this);
    plot_->setObjectName(QStringLiteral("HeadImportanceChart"));
    // keys on the left axis (a row per head, the first at the top), BLEU lost on the bottom axis
    auto bars = [this] {
        auto* b = new QCPBars(plot_->yAxis, plot_->xAxis);
        b->setWidthType(QCPBars::wtPlotCoords);
        b->setWidth(0.7);
        b->setPen(Qt::NoPen);
        return b;
    };
    lost_bars_ = bars();
    gained_bars_ = bars();
    selected_bar_ = bars();
    selected_bar_->setBrush(Qt::NoBrush);
    plot_->yAxis->setRangeReversed(true);
    plot_->yAxis->grid()->setVisible(false);
    plot_->yAxis->setSubTicks(false);
    plot_->yAxis->setTickLength(0, 0);
    plot_->xAxis->setLabel(tr("BLEU points lost when the head is removed"));
    plot_->setMouseTracking(true);
    connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) { showTip(e->pos()); });
    connect(plot_, &QCustomPlot::mouseRelease, this, [this](QMouseEvent* e) {
        if (const int i = barAt(e->pos()); i >= 0 && e->button() == Qt::LeftButton) emit barClicked(i);
    });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_);
    applyPaletteToPlot(plot_, palette());
    redraw();
}

QSize HeadImportanceChart::sizeHint() const { return {260, kFrameHeight + kRowHeight * std::max(4, barCount())}; }
QSize HeadImportanceChart::minimumSizeHint() const {
    return {160, kFrameHeight + kRowHeight * std::max(2, barCount())};
}

void HeadImportanceChart::setBars(const QStringList& labels, const std::vector<double>& lost, const QStringList& tips) {
    labels_ = labels;
    lost_ = lost;
    tips_ = tips;
    selected_ = -1;
    updateGeometry();  // its height follows the bars
    redraw();
}

void HeadImportanceChart::setSelected(int index) {
    selected_ = index >= 0 && index < barCount() ? index : -1;
    redraw();
}

void HeadImportanceChart::redraw() {
    QVector<double> keys, pos, neg;
    double largest = 0;
    for (size_t i = 0; i < lost_.size(); ++i) {
        keys << double(i);
        pos << std::max(lost_[i], 0.0);
        neg << std::min(lost_[i], 0.0);
        largest = std::max(largest, std::abs(lost_[i]));
    }
    lost_bars_->setData(keys, pos, true);
    gained_bars_->setData(keys, neg, true);
    QCPColorGradient diverging = divergingGradient();  // color() is not const
    lost_bars_->setBrush(QColor::fromRgb(diverging.color(0.85, QCPRange(0, 1))));
    gained_bars_->setBrush(QColor::fromRgb(diverging.color(0.15, QCPRange(0, 1))));
    selected_bar_->setPen(QPen(palette().color(QPalette::Text), 2));
    if (selected_ >= 0)
        selected_bar_->setData({double(selected_)}, {lost_[size_t(selected_)]}, true);
    else
        selected_bar_->data()->clear();
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int i = 0; i < labels_.size(); ++i) ticker->addTick(i, labels_[i]);
    plot_->yAxis->setTicker(ticker);
    plot_->yAxis->setRange(-0.6, std::max(1, barCount()) - 0.4);
    const bool gained = std::any_of(lost_.begin(), lost_.end(), [](double v) { return v < 0; });
    const double top = std::max(largest * 1.08, 0.5);  // half a point at least: equal bars do not fill the width
    plot_->xAxis->setRange(gained ? -top : 0.0, top);
    plot_->replot();
}

int HeadImportanceChart::barAt(const QPoint& pos) const {
    if (lost_.empty() || !plot_->axisRect()->rect().contains(pos)) return -1;
    const int i = int(std::lround(plot_->yAxis->pixelToCoord(pos.y())));
    return i >= 0 && i < barCount() ? i : -1;
}

QPoint HeadImportanceChart::barCenter(int index) const {
    // a row answers a click anywhere across the plot (a bar of 0 has no width)
    return QPoint(plot_->axisRect()->center().x(), int(std::lround(plot_->yAxis->coordToPixel(index))));
}

void HeadImportanceChart::showTip(const QPoint& pos) {
    const int i = barAt(pos);
    if (i < 0 || i >= tips_.size()) {
        QToolTip::hideText();
        return;
    }
    QToolTip::showText(plot_->mapToGlobal(pos), tips_[i], plot_);
}

void HeadImportanceChart::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyPaletteToPlot(plot_, palette());
        redraw();
    } else if (event->type() == QEvent::LanguageChange) {
        plot_->xAxis->setLabel(tr("BLEU points lost when the head is removed"));
        plot_->replot();
    }
}

}  // namespace attnviz::ui
