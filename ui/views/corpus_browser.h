// The corpus browser: a TSV corpus (`source<TAB>reference[<TAB>Pharaoh gold links]`, read by core's io/corpus with
// the open model's tokenizer) as a sortable, filterable table of every line scored by the open model (core's
// eval/corpus_scores.h: greedy output, log-probability, attention entropy and confidence, BLEU, exact match, AER).
//
// Scoring runs off the UI thread (QtConcurrent, the lines decoded side by side on the engine's threads) with a
// progress bar and a cancel button; when the window's model changes, the table is marked stale (greyed) and scored
// again. Clicking a line (or Enter on it) emits lineActivated for the window to open it. The table, as filtered and
// sorted, exports as CSV (core's corpusScoresToCsv, written atomically). The "Explain" box adds an explanation
// method's AER and AOPC per line as two more columns (core's explainCorpus, off the UI thread like the scoring).
#pragma once
#include "eval/corpus_scores.h"
#include "explain/measures.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QWidget>

#include <atomic>
#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;
class QTimer;

namespace attnviz::ui {

class CorpusTableModel;
class DecodeState;

class CorpusBrowser : public QWidget {
    Q_OBJECT
public:
    // Lines a browser opens at most (a larger file is refused before it is parsed).
    static constexpr qsizetype kMaxLines = 200000;

    explicit CorpusBrowser(DecodeState* state, QWidget* parent = nullptr);
    ~CorpusBrowser() override;

    // `path` read as openCorpus reads it (at most kMaxLines lines, with `model`'s tokenizer, bad lines skipped); on
    // failure (the file cannot be read or holds no good line) empty, with the reason in *error. attnviz --check reads
    // a --corpus this way.
    static Corpus readCorpusFile(const QString& path, const Model& model, QString* error);
    // Reads `path` and starts scoring it. Bad lines are skipped and named in noticeText(); false (the previous
    // corpus stays) when there is no model, the file cannot be read or holds no good line: the reason in errorText().
    bool openCorpus(const QString& path);
    // Asks for a file, then openCorpus; errors are reported (errorReported, and a message box when interactive).
    void chooseAndOpen();
    // Where the open dialog starts before a corpus was opened (e.g. the sample corpora; empty: the home folder).
    void setStartFolder(const QString& folder) { start_folder_ = folder; }
    QString corpusPath() const { return path_; }
    // Scores every line again with the state's model (a running scoring is cancelled first).
    void rescore();
    void cancelScoring();
    bool isScoring() const;
    // Writes the table as shown (filter and sort order) as CSV; false with the reason in errorText().
    bool exportCsv(const QString& path);
    void chooseAndExport();
    // The explanation method whose AER and AOPC columns are shown (nullopt: none): computes them for every line.
    void setExplainMethod(std::optional<ExplainMethod> method);
    bool isExplaining() const;
    QComboBox* explainBox() const { return explain_box_; }
    // Selects the line at row `row` of the table as shown and opens it, as a click would.
    void openRow(int row);

    QString errorText() const { return error_; }
    QString noticeText() const;  // the status line: the file, its lines, skipped lines, scoring state
    void setInteractive(bool on) { interactive_ = on; }

    CorpusTableModel* tableModel() const { return model_; }
    QSortFilterProxyModel* proxyModel() const { return proxy_; }
    QTableView* tableView() const { return table_; }
    QLineEdit* filterEdit() const { return filter_; }
    QProgressBar* progressBar() const { return progress_; }

signals:
    // A line to show in the window: its source, reference and gold links (Pharaoh text; empty when none).
    void lineActivated(const QString& source, const QString& reference, const QString& gold);
    void scoringFinished();  // the table holds the open model's scores of every line (not sent when cancelled)
    void explainFinished();  // the explanation columns hold every line's measures (not sent when cancelled)
    void errorReported(const QString& text);

protected:
    void changeEvent(QEvent* event) override;

private:
    void createWidgets();
    void retranslateUi();
    void updateNotice();
    void updateProgress();
    void scoresArrived();
    void fillExplainBox();
    void startExplaining();  // the chosen method's columns for the corpus and model shown
    void explanationsArrived();
    void activateRow(const QModelIndex& proxy_index);
    void modelChanged();
    void report(const QString& text);

    DecodeState* state_;
    CorpusTableModel* model_;
    QSortFilterProxyModel* proxy_;
    QTableView* table_ = nullptr;
    QLineEdit* filter_ = nullptr;
    QPushButton* open_button_ = nullptr;
    QPushButton* rescore_button_ = nullptr;
    QPushButton* export_button_ = nullptr;
    QPushButton* cancel_button_ = nullptr;
    QComboBox* explain_box_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* notice_ = nullptr;
    QTimer* progress_timer_ = nullptr;

    QString path_;
    QString start_folder_;
    int64_t skipped_count_ = 0;
    QString first_skipped_;  // the first skipped line's message
    QString error_;
    bool interactive_ = true;
    bool cancelled_ = false;
    double seconds_ = 0;  // of the last scoring

    // The running scoring: its counters are shared with the worker, which may outlive a cancel.
    struct Job {
        std::atomic<size_t> done{0};
        std::atomic<bool> cancel{false};
        QElapsedTimer clock;
    };
    std::shared_ptr<Job> job_;
    QFutureWatcher<std::vector<LineScores>> watcher_;
    std::optional<ExplainMethod> explain_method_;
    std::shared_ptr<Job> explain_job_;
    QFutureWatcher<std::vector<LineExplainScores>> explain_watcher_;
};

}  // namespace attnviz::ui
