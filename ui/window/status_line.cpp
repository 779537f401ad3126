#include "window/status_line.h"

#include <QResizeEvent>

namespace attnviz::ui {

StatusLine::StatusLine(QWidget* parent) : QLabel(parent) {
    setObjectName(QStringLiteral("statusLine"));
    setTextFormat(Qt::PlainText);
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    expiry_.setSingleShot(true);
    connect(&expiry_, &QTimer::timeout, this, &StatusLine::clearMessage);
}

void StatusLine::showMessage(const QString& text, int timeout_ms) {
    message_ = text.section(u'\n', 0, 0);
    elide();
    if (timeout_ms > 0)
        expiry_.start(timeout_ms);
    else
        expiry_.stop();
}

void StatusLine::clearMessage() {
    expiry_.stop();
    message_.clear();
    elide();
}

QSize StatusLine::minimumSizeHint() const {
    return {fontMetrics().horizontalAdvance(QStringLiteral("Mm…")), QLabel::minimumSizeHint().height()};
}

QSize StatusLine::sizeHint() const { return {minimumSizeHint().width(), QLabel::sizeHint().height()}; }

void StatusLine::resizeEvent(QResizeEvent* event) {
    QLabel::resizeEvent(event);
    elide();
}

void StatusLine::elide() {
    const QString shown = fontMetrics().elidedText(message_, Qt::ElideRight, contentsRect().width());
    setText(shown);
    setToolTip(shown == message_ ? QString() : message_);
}

}  // namespace attnviz::ui
