// The status bar's line while an explanation method runs (docs/gui.md "Explain"): hidden for the first half second
// (most methods are done by then), then the method's name, the seconds so far, a bar of its model passes (core's
// ExplainOptions::progress; busy until the first pass is done) and Cancel, which stops the run at its next pass.
#pragma once
#include <QElapsedTimer>
#include <QString>
#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;
class QTimer;

namespace attnviz::ui {

class ExplainProgress : public QWidget {
    Q_OBJECT
public:
    static constexpr int kShowAfterMs = 500;

    explicit ExplainProgress(QWidget* parent = nullptr);
    // A run of `method` (its short title: the status bar is narrow) began: shown after kShowAfterMs unless finished()
    // comes first.
    void started(const QString& method);
    void finished();                        // hidden
    void setProgress(int done, int total);  // passes of the run
    bool isRunning() const { return running_; }
    QPushButton* cancelButton() const { return cancel_; }
    QString text() const;

signals:
    void cancelRequested();

protected:
    void changeEvent(QEvent* event) override;  // language

private:
    void tick();
    void showText();

    QLabel* label_;
    QProgressBar* bar_;
    QPushButton* cancel_;
    QTimer* timer_;
    QElapsedTimer elapsed_;
    QString method_;
    int done_ = 0, total_ = 0;
    bool running_ = false;
};

}  // namespace attnviz::ui
