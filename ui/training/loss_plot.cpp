#include "training/loss_plot.h"

#include "heatmap/heatmap_export.h"
#include "heatmap/plot_palette.h"
#include "io/atomic_file.h"

#include <qcustomplot.h>
#include <QCheckBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QVBoxLayout>
#include <cmath>
#include <stdexcept>

namespace attnviz::ui {

LossPlot::LossPlot(QWidget* parent) : QWidget(parent), plot_(new QCustomPlot(this)) {
    train_ = plot_->addGraph();
    valid_ = plot_->addGraph();
    train_->setPen(QPen(QColor(31, 119, 180), 1.2));
    valid_->setPen(QPen(QColor(255, 127, 14), 2.0));
    valid_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 6));
    marker_ = new QCPItemStraightLine(plot_);
    marker_->setPen(QPen(QColor(128, 128, 128), 1, Qt::DashLine));
    marker_->setVisible(false);
    plot_->legend->setVisible(false);  // drawn by exportImage; on screen: the labels beside the log-scale box
    plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    plot_->setMinimumHeight(110);  // an 800x600 screen: the epoch table under it, the heatmap
    log_box_ = new QCheckBox(this);
    connect(log_box_, &QCheckBox::toggled, this, &LossPlot::setLogScale);
    train_name_ = new QLabel(this);
    valid_name_ = new QLabel(this);
    auto* under = new QHBoxLayout;
    under->addWidget(log_box_);
    under->addStretch(1);
    under->addWidget(legendEntry(train_, train_name_));
    under->addWidget(legendEntry(valid_, valid_name_));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_, 1);
    layout->addLayout(under);
    replot_timer_.setSingleShot(true);
    replot_timer_.setInterval(200);
    connect(&replot_timer_, &QTimer::timeout, this, [this] {
        rescale();
        plot_->replot(QCustomPlot::rpQueuedReplot);
        fitValueAxisTitle();  // on the axis rect that replot laid out
    });
    applyPaletteToPlot(plot_, palette());
    retranslate();
}

// On screen the legend is a row of labels beside the log-scale box: inside the plot it covered the curves' right end
// whenever the plot was short (an 800x600 screen), and above them it took a third of their height. Exported images,
// which have room, draw it inside the plot (exportImage).
QWidget* LossPlot::legendEntry(const QCPGraph* graph, QLabel* name) {
    const qreal ratio = devicePixelRatioF();
    QPixmap icon(QSize(24, 12) * ratio);
    icon.setDevicePixelRatio(ratio);
    icon.fill(Qt::transparent);
    QPainter painter(&icon);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(graph->pen());
    painter.drawLine(QPointF(1, 6), QPointF(23, 6));
    if (graph->scatterStyle().shape() != QCPScatterStyle::ssNone) {
        painter.setBrush(palette().base());
        painter.drawEllipse(QPointF(12, 6), 3, 3);
    }
    auto* entry = new QWidget(this);
    entry->setMinimumWidth(1);  // the names never widen the window: on a narrow one they are cut, the tip is whole
    auto* swatch = new QLabel(entry);
    swatch->setPixmap(icon);
    name->setParent(entry);
    auto* row = new QHBoxLayout(entry);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(swatch);
    row->addWidget(name);
    return entry;
}

// The value axis's title: the whole one when the axis is long enough for it, else the short one (a title longer
// than its axis is cut at both ends); and fewer ticks on a short axis.
void LossPlot::fitValueAxisTitle() {
    const QString full = tr("loss (nats per token)");
    const QFontMetrics metrics(plot_->yAxis->labelFont());
    const int room = plot_->axisRect()->height();
    const QString title = room <= 0 || metrics.horizontalAdvance(full) <= room ? full : tr("loss");
    const int ticks = room > 0 && room < 6 * metrics.height() ? 3 : 5;  // tick labels apart on a short axis
    if (plot_->yAxis->label() == title && plot_->yAxis->ticker()->tickCount() == ticks) return;
    plot_->yAxis->setLabel(title);
    plot_->yAxis->ticker()->setTickCount(ticks);
    plot_->yAxis->ticker()->setTickStepStrategy(ticks == 3 ? QCPAxisTicker::tssMeetTickCount
                                                           : QCPAxisTicker::tssReadability);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void LossPlot::retranslate() {
    train_->setName(tr("training loss (batch)"));
    valid_->setName(tr("validation loss (epoch)"));
    // short on screen, so that the names share the log-scale box's line on an 800-pixel screen; whole in the tip
    train_name_->setText(tr("training"));
    valid_name_->setText(tr("validation"));
    train_name_->parentWidget()->setToolTip(train_->name());
    valid_name_->parentWidget()->setToolTip(valid_->name());
    plot_->xAxis->setLabel(tr("update"));
    plot_->yAxis->setLabel(tr("loss (nats per token)"));
    log_box_->setText(tr("&Logarithmic loss axis"));
    plot_->replot();
    fitValueAxisTitle();
}

void LossPlot::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    replotSoon();  // which fits the value axis's title to the new size
}

void LossPlot::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) retranslate();
    if (event->type() == QEvent::PaletteChange) {
        applyPaletteToPlot(plot_, palette());
        plot_->replot();
    }
}

void LossPlot::clear() {
    train_->data()->clear();
    valid_->data()->clear();
    marker_->setVisible(false);
    rescale();
    plot_->replot();
}

void LossPlot::addReport(const TrainProgress& r) {
    if (r.after_validation) {
        if (std::isfinite(r.valid_loss)) valid_->addData(double(r.step), r.valid_loss);
    } else if (std::isfinite(r.loss)) {
        train_->addData(double(r.step), r.loss);
    }
    replotSoon();
}

void LossPlot::setMarker(int64_t step) {
    marker_->setVisible(step >= 0);
    marker_->point1->setCoords(double(step), 1);  // positive values: a vertical line on a log axis too
    marker_->point2->setCoords(double(step), 2);
    replotSoon();
}

void LossPlot::setLogScale(bool on) {
    if (log_box_->isChecked() != on) log_box_->setChecked(on);  // comes back here once
    plot_->yAxis->setScaleType(on ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    plot_->yAxis->setTicker(on ? QSharedPointer<QCPAxisTicker>(new QCPAxisTickerLog)
                               : QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
    rescale();
    plot_->replot();
    fitValueAxisTitle();
}

bool LossPlot::logScale() const { return log_box_->isChecked(); }

void LossPlot::replotSoon() {
    if (!replot_timer_.isActive()) replot_timer_.start();
}

void LossPlot::rescale() {
    bool found = false;
    const QCPRange x = train_->data()->keyRange(found);
    plot_->xAxis->setRange(0, found ? std::max(1.0, x.upper) : 1.0);
    bool any = false;
    QCPRange y;
    for (QCPGraph* g : {train_, valid_}) {
        bool ok = false;
        // positive values only on a log axis
        const QCPRange r = g->data()->valueRange(ok, logScale() ? QCP::sdPositive : QCP::sdBoth);
        if (!ok) continue;
        y = any ? QCPRange(std::min(y.lower, r.lower), std::max(y.upper, r.upper)) : r;
        any = true;
    }
    if (!any) y = QCPRange(logScale() ? 0.1 : 0, 1);
    if (logScale())
        plot_->yAxis->setRange(y.lower / 1.2, y.upper * 1.2);
    else
        plot_->yAxis->setRange(0, y.upper * 1.05);
}

bool LossPlot::exportImage(const QString& path, int width, int height, QString* error) {
    rescale();
    ExportFigure figure;
    figure.title = tr("Loss curves");
    figure.description = QStringLiteral("attnviz training: loss per update (training and validation)");
    figure.paint = [this](QPaintDevice* device, const QSize& pixels, double, bool) {
        QCPPainter painter(device);
        const QString title = plot_->yAxis->label();
        plot_->legend->setVisible(true);
        plot_->yAxis->setLabel(tr("loss (nats per token)"));
        plot_->toPainter(&painter, pixels.width(), pixels.height());
        plot_->legend->setVisible(false);
        plot_->yAxis->setLabel(title);
    };
    ExportOptions options;
    options.width = width;
    options.height = height;
    options.dpi = 96;  // the plot's fonts at their size on a screen
    return exportFigure(figure, path, options, error, [&](const QString& format) -> std::string {
        throw std::runtime_error("the loss curves export as an image (png, svg or pdf) or as csv, not " +
                                 format.toStdString());
    });
}

}  // namespace attnviz::ui
