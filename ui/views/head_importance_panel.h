// The head importance dock (docs/explain.md, "Head importance"; docs/gui.md): for a Transformer, every head of its
// three attentions removed in turn over a corpus (the corpus browser's, else the model's sample test split; the
// window chooses, setCorpusSource), sorted by the BLEU points its removal costs, as a bar chart and a table (layer,
// head, attention, BLEU with the head off, ΔBLEU, Δ mean log p of the references, gradient importance). The numbers
// are core's headImportanceReport, computed on the engine's threads off the UI thread with a progress bar and a
// cancel button; a result arrives only if it belongs to the model and the request shown (a cancel, a new request or
// a model change drops it). Clicking a head (table row or bar) emits headActivated. An RNN model has no heads: the
// panel says so and is disabled.
#pragma once
#include "eval/head_importance.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QWidget>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QLabel;
class QProgressBar;
class QSplitter;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTimer;

namespace attnviz::ui {

class DecodeState;
class HeadImportanceChart;

// The lines head importance is computed on: those with a reference, and what to call them.
struct HeadImportanceCorpus {
    QString name;  // for the status line: "the corpus browser's news.tsv", "the tatoeba test split"
    std::shared_ptr<const std::vector<CorpusExample>> examples;  // null or empty: none, `error` says why
    QString error;
};

class HeadImportancePanel : public QWidget {
    Q_OBJECT
public:
    // Columns of table(), in order.
    enum Column { kLayer, kHead, kKind, kBleuOff, kBleuDelta, kLogProbDelta, kImportance, kColumns };
    // Lines computed on by default (the first of the corpus): the 1,000-line test split in about a minute.
    static constexpr int kDefaultLines = 1000;

    explicit HeadImportancePanel(DecodeState* state, QWidget* parent = nullptr);
    ~HeadImportancePanel() override;

    // Where the lines come from; asked again by refreshCorpus(), when the model changes and when computing starts.
    void setCorpusSource(std::function<HeadImportanceCorpus()> source);
    void refreshCorpus();
    // Starts on the first linesBox() lines of the corpus with the state's model (a running computation is dropped).
    // False, with the reason in statusText(), when there is no Transformer or no line.
    bool compute();
    void cancel();
    bool isComputing() const;
    void waitForDone();  // the running computation's thread has ended (its result is delivered by the event loop)

    // The report shown (nullopt: none) and its heads as the table first lists them (headsByBleuLost).
    const std::optional<HeadImportanceReport>& report() const { return report_; }
    const std::vector<HeadScore>& sortedHeads() const { return sorted_; }
    // The head of a table row as it is shown now (the user may sort by another column), or nullopt.
    std::optional<HeadRef> headAtRow(int row) const;

    QString statusText() const;
    QTableWidget* table() const { return table_; }
    HeadImportanceChart* chart() const { return chart_; }
    QPushButton* computeButton() const { return compute_; }
    QPushButton* cancelButton() const { return cancel_; }
    QProgressBar* progressBar() const { return progress_; }
    QSpinBox* linesBox() const { return lines_; }
    // Chart and table side by side, or (a dock narrower than both need) the table under the chart.
    Qt::Orientation arrangement() const;

signals:
    void headActivated(attnviz::HeadRef head);  // a head clicked in the table or the chart
    void computed();                            // report() holds a complete report for the model shown

protected:
    void changeEvent(QEvent* event) override;  // language: the texts again
    void resizeEvent(QResizeEvent* event) override;

private:
    // A running computation: its counters are shared with the worker thread, which may outlive a cancel.
    struct Job {
        std::atomic<size_t> done{0}, jobs{0};
        std::atomic<bool> cancel{false};
        QElapsedTimer clock;
        std::shared_ptr<const Model> model;
        QString corpus_name;
        int lines = 0;
    };
    struct Outcome {
        HeadImportanceReport report;
        QString error;
    };

    void createWidgets();
    void retranslateUi();
    void modelChanged();
    void arrived();
    void updateProgress();
    void updateControls();
    void fill();     // table and chart from report_
    void arrange();  // the splitter's orientation for the panel's width (arrangement())
    void selectHead(const HeadRef& head);
    void activateRow(int row);
    QString headLabel(const HeadRef& head) const;
    QString headTip(const HeadScore& h) const;

    QSplitter* split_ = nullptr;
    DecodeState* state_;
    std::function<HeadImportanceCorpus()> source_;
    HeadImportanceCorpus corpus_;
    QLabel* status_ = nullptr;
    QLabel* lines_label_ = nullptr;
    QSpinBox* lines_ = nullptr;
    QPushButton* compute_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QTimer* progress_timer_ = nullptr;
    HeadImportanceChart* chart_ = nullptr;
    QTableWidget* table_ = nullptr;

    std::shared_ptr<Job> job_;  // the computation whose result will be shown; null when none runs
    QFutureWatcher<Outcome> watcher_;
    std::optional<HeadImportanceReport> report_;
    std::vector<HeadScore> sorted_;
    QString computed_on_;  // the corpus and lines report_ was computed on
    double seconds_ = 0;   // report_'s time
    QString error_;
    bool cancelled_ = false;
};

}  // namespace attnviz::ui
