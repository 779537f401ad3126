#include "window/explain_progress.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QTimer>

namespace attnviz::ui {

ExplainProgress::ExplainProgress(QWidget* parent) : QWidget(parent) {
    label_ = new QLabel(this);
    bar_ = new QProgressBar(this);
    bar_->setRange(0, 0);  // busy: the method does not say how far it is
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
    elapsed_.start();
    hide();
    timer_->start(kShowAfterMs);
}

void ExplainProgress::finished() {
    running_ = false;
    timer_->stop();
    hide();
}

void ExplainProgress::tick() {
    if (!running_) return;
    label_->setText(text());
    show();
    timer_->start(1000);  // the seconds, once a second
}

QString ExplainProgress::text() const {
    return tr("Computing %1… %2 s").arg(method_).arg(elapsed_.isValid() ? elapsed_.elapsed() / 1000 : 0);
}

void ExplainProgress::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() != QEvent::LanguageChange) return;
    cancel_->setText(tr("Cancel"));
    cancel_->setToolTip(tr("Stop waiting for this explanation and show the attention again"));
    if (running_) label_->setText(text());
}

}  // namespace attnviz::ui
