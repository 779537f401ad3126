#include "training/loss_plot.h"

#include "heatmap/heatmap_export.h"
#include "heatmap/plot_palette.h"
#include "io/atomic_file.h"

#include <qcustomplot.h>
#include <QCheckBox>
#include <QEvent>
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
    plot_->legend->setVisible(true);
    plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    plot_->setMinimumHeight(110);  // an 800x600 screen: the epoch table under it, the heatmap
    log_box_ = new QCheckBox(this);
    connect(log_box_, &QCheckBox::toggled, this, &LossPlot::setLogScale);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(plot_, 1);
    layout->addWidget(log_box_);
    replot_timer_.setSingleShot(true);
    replot_timer_.setInterval(200);
    connect(&replot_timer_, &QTimer::timeout, this, [this] {
        rescale();
        plot_->replot(QCustomPlot::rpQueuedReplot);
    });
    applyPaletteToPlot(plot_, palette());
    retranslate();
}

void LossPlot::retranslate() {
    train_->setName(tr("training loss (batch)"));
    valid_->setName(tr("validation loss (epoch)"));
    plot_->xAxis->setLabel(tr("update"));
    plot_->yAxis->setLabel(tr("loss (nats per token)"));
    log_box_->setText(tr("&Logarithmic loss axis"));
    plot_->replot();
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
        plot_->toPainter(&painter, pixels.width(), pixels.height());
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
