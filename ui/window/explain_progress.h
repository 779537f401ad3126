// The status bar's line while an explanation method runs (docs/gui.md "Explain"): hidden for the first half second
// (most methods are done by then), then a busy bar naming the method with the seconds so far, and Cancel. The bar
// cannot say how far the method is: core/explain reports no progress; Cancel drops the result, and the method's
// thread finishes its pass unseen.
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
    // A run of `method` (its title) began: shown after kShowAfterMs unless finished() comes first.
    void started(const QString& method);
    void finished();  // hidden
    bool isRunning() const { return running_; }
    QPushButton* cancelButton() const { return cancel_; }
    QString text() const;

signals:
    void cancelRequested();

protected:
    void changeEvent(QEvent* event) override;  // language

private:
    void tick();

    QLabel* label_;
    QProgressBar* bar_;
    QPushButton* cancel_;
    QTimer* timer_;
    QElapsedTimer elapsed_;
    QString method_;
    bool running_ = false;
};

}  // namespace attnviz::ui
