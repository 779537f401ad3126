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
    if (running_ && !isHidden()) label_->setText(text());
}

void ExplainProgress::tick() {
    if (!running_) return;
    label_->setText(text());
    show();
    timer_->start(1000);  // the seconds, once a second
}

QString ExplainProgress::text() const {
    const qint64 seconds = elapsed_.isValid() ? elapsed_.elapsed() / 1000 : 0;
    if (total_ <= 0) return tr("Computing %1… %2 s").arg(method_).arg(seconds);
    return tr("Computing %1… %2 s, pass %3 of %4").arg(method_).arg(seconds).arg(done_).arg(total_);
}

void ExplainProgress::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() != QEvent::LanguageChange) return;
    cancel_->setText(tr("Cancel"));
    cancel_->setToolTip(tr("Stop waiting for this explanation and show the attention again"));
    if (running_) label_->setText(text());
}

}  // namespace attnviz::ui
