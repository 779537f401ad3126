// The main window's status message: one line at the left of the status bar, elided with "…" where it meets the fixed
// fields (sentence confidence, model, decode time), the whole message in its tooltip, cleared after its timeout.
// QStatusBar::showMessage instead cuts a long message at the first field mid-letter, and the message is often long:
// the hover text of a cell, a refused intervention, a Chinese model description.
#pragma once
#include <QLabel>
#include <QTimer>

namespace attnviz::ui {

class StatusLine : public QLabel {
    Q_OBJECT
public:
    explicit StatusLine(QWidget* parent = nullptr);

    // Shows `text` (its first line) until the next message, or for timeout_ms when > 0.
    void showMessage(const QString& text, int timeout_ms = 0);
    void clearMessage();
    // The whole message shown, not elided; empty when none is.
    QString message() const { return message_; }

    // A few characters wide at least, whatever the message: a long message never widens the window.
    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void elide();

    QString message_;
    QTimer expiry_;
};

}  // namespace attnviz::ui
