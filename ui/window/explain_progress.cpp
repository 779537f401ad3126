#include "window/explain_progress.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTimer>

#include <algorithm>

namespace attnviz::ui {

ExplainProgress::ExplainProgress(QWidget* parent) : QWidget(parent) {
    label_ = new QLabel(this);
    bar_ = new QProgressBar(this);
    bar_->setRange(0, 0);  // busy until the first pass is counted
    bar_->setMaximumWidth(120);
    bar_->setMaximumHeight(label_->sizeHint().height());
    cancel_ = new QPushButton(this);
    cancel_->setObjectName(QStringLiteral("cancelExplanation"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(label_);
    layout->addWidget(bar_);
    layout->addWidget(cancel_);
    timer_ = new QTimer(this);
    connect(timer_, &QTimer::timeout, this, &ExplainProgress::tick);
    connect(cancel_, &QPushButton::clicked, this, &ExplainProgress::cancelRequested);
    cancel_->setText(tr("Cancel"));
    cancel_->setToolTip(tr("Stop waiting for this explanation and show the attention again"));
    label_->setToolTip(tr("The explanation method's model passes, counted as they finish"));
    hide();
}

void ExplainProgress::started(const QString& method) {
    method_ = method;
    running_ = true;
    setProgress(0, 0);
    elapsed_.start();
    hide();
    timer_->start(kShowAfterMs);
}

void ExplainProgress::finished() {
    running_ = false;
    timer_->stop();
    hide();
}

void ExplainProgress::setProgress(int done, int total) {
    done_ = done;
    total_ = total;
    bar_->setRange(0, total > 0 ? total : 0);
    if (total > 0) bar_->setValue(std::min(done, total));
    if (running_ && !isHidden()) showText();
}

// The whole text: the status bar's message beside it gives way, not the count.
void ExplainProgress::showText() {
    label_->setText(text());
    // room for the longest count of this run, so that the line does not grow (and get cut) pass by pass
    const QString widest = tr("%1… %2 s, pass %3/%4").arg(method_).arg(999).arg(total_).arg(total_);
    const int width = label_->fontMetrics().horizontalAdvance(widest) + label_->fontMetrics().averageCharWidth();
    if (label_->minimumWidth() < width) {
        label_->setMinimumWidth(width);
        updateGeometry();
    }
}

void ExplainProgress::tick() {
    if (!running_) return;
    showText();
    show();
    timer_->start(1000);  // the seconds, once a second
}

QString ExplainProgress::text() const {
    const qint64 seconds = elapsed_.isValid() ? elapsed_.elapsed() / 1000 : 0;
    if (total_ <= 0) return tr("%1… %2 s").arg(method_).arg(seconds);
    return tr("%1… %2 s, pass %3/%4").arg(method_).arg(seconds).arg(done_).arg(total_);
}

void ExplainProgress::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() != QEvent::LanguageChange) return;
    cancel_->setText(tr("Cancel"));
    cancel_->setToolTip(tr("Stop waiting for this explanation and show the attention again"));
    if (running_) showText();
}

}  // namespace attnviz::ui
