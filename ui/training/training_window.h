// The "Train a model…" window (File menu): training off the UI thread (TrainingWorker) with live loss curves
// (LossPlot), tokens/s and ETA, and the probe sentence's attention every N updates, each kept as a snapshot that
// the timeline slider scrubs back through. Pause, resume, stop; the model file is written at every pause and at the
// end (also when the window closes). When done: open the model in the main window, or save it beside its siblings.
// After each epoch, the validation corpus's BLEU and AER (core's evaluateCorpus) in a table beside the curves.
// "Train four siblings" trains the four scorings of an RNN model one after the other and shows them in the main
// window's compare view (off for a Transformer and a Marian: one scoring). Start stays off while the form's config is
// one core refuses (TrainingForm::problem). A Marian model is written as a folder; one that exists and is not empty
// is replaced only when the user agrees (asked at Start). The form's settings are kept for the next session when a
// run starts. Exports (training_window_exports.cpp): the snapshots as a filmstrip (PNG, SVG, PDF) or an animated PNG,
// and the loss curves (PNG, CSV with the epochs' measures).
#pragma once
#include "train/training_start.h"
#include "training/training_history.h"

#include <QString>
#include <QWidget>
#include <functional>
#include <memory>

class QLabel;
class QLayout;
class QScrollArea;
class QSplitter;
class QPushButton;
class QSlider;
class QSpinBox;

namespace attnviz::ui {

class EpochMetricsTable;
class HeatmapView;
class LossPlot;
struct SiblingQueue;
struct TrainingJob;
struct TrainingSettings;
class TrainingForm;
class TrainingWorker;

class TrainingWindow : public QWidget {
    Q_OBJECT
public:
    explicit TrainingWindow(QWidget* parent = nullptr);
    ~TrainingWindow() override;

    // Starts a run with the form's settings; false (and lastError()) if they cannot be used or a run is going.
    bool start();
    // "Train four siblings" (training_window_siblings.cpp): the form's settings with each of the four scorings in
    // turn, written to `folder` as siblings; when all four are done, siblingsEnded(paths, true) (the main window then
    // compares them). A stop or a failure ends the sequence: the models finished are kept. False (and lastError())
    // if the settings cannot be used or a run is going.
    bool startSiblings(const QString& folder);
    bool isTrainingSiblings() const { return siblings_ != nullptr; }
    void pause();
    void resume();
    void stop();
    bool isRunning() const;
    bool isPaused() const;
    QString lastError() const { return last_error_; }
    // Asked before a Marian run whose folder exists and is not empty: true replaces it when the model is written.
    // By default a question box; tests answer it themselves.
    using ReplaceQuestion = std::function<bool(const QString& folder)>;
    void setReplaceQuestion(ReplaceQuestion question) { replace_question_ = std::move(question); }

    const TrainingHistory& history() const { return history_; }
    // The trained model once a run has ended (nullptr before); its file is modelPath().
    std::shared_ptr<const Model> trainedModel() const;
    QString modelPath() const;
    const TrainReport& lastReport() const { return report_; }

    // Shows snapshot `index` (the timeline's position).
    void showSnapshot(int index);
    bool exportFilmstrip(const QString& path, QString* error);
    // The snapshots as an animated PNG, each frame shown `delay_ms` (training_animation.h).
    bool exportAnimation(const QString& path, int delay_ms, QString* error);
    int frameDelay() const;                                  // the form's "Frame delay", in ms
    bool exportCurves(const QString& path, QString* error);  // .png/.svg/.pdf (the plot) or .csv (the reports)
    // What the filmstrip, animation and curves dialogs propose: `name` in the folder of the last export of any view
    // (views/export_prompt.h), else Pictures, never the working folder.
    QString suggestedExportFile(const QString& name) const;
    // Where "Save as sibling" proposes to write: beside the sample models of the same task, else beside the model.
    QString siblingPath() const;
    bool saveAsSibling(const QString& path, QString* error);

    TrainingForm* form() const { return form_; }
    LossPlot* lossPlot() const { return loss_plot_; }
    EpochMetricsTable* metricsTable() const { return metrics_table_; }
    HeatmapView* heatmap() const { return heatmap_; }
    QSlider* timeline() const { return timeline_; }
    QLabel* statusLabel() const { return status_; }
    QPushButton* startButton() const { return start_; }
    QPushButton* siblingsButton() const { return siblings_button_; }
    QScrollArea* formScrollArea() const { return form_scroll_; }
    // The loss curves and the epoch table: side by side where the views have room for both, else one above the other.
    QSplitter* curvesSplitter() const { return curves_; }

signals:
    void openModelRequested(const QString& path);
    void trainingFinished();  // after the model file was written (or could not be)
    void snapshotAdded(int count);
    void paused(qint64 step);  // a pause began and the model so far was written (or could not be: the status says)
    // Start is preparing the run (the corpus read, a Marian's pieces trained) on a thread of its own, the window
    // still painting: `status` says what, shown before the work begins, under a wait cursor.
    void preparing(const QString& status);
    void siblingTrained(const QString& path);  // one of the four siblings is done and written
    // The sibling sequence ended: `written` the files of the siblings trained to their end; `complete`: all four.
    void siblingsEnded(const QStringList& written, bool complete);

protected:
    void closeEvent(QCloseEvent* event) override;
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    // training_window_layout.cpp: the panes, and how they fit a small screen
    void buildPanes();
    QWidget* buildControls();
    QWidget* buildViews();
    QLayout* buildTimeline(QWidget* box);
    QLayout* buildActions(QWidget* box);
    void fitFormWidth();
    int formPaneWidth(int form_width) const;  // the form's pane for a form this wide, its scroll bar and frame
    void arrangeCurves();
    void retranslate();
    bool startWith(TrainingSettings settings);
    void showPreparing(const TrainingSettings& settings);
    TrainingJob prepareKeepingTheWindowAlive(const TrainingSettings& settings);
    bool mayWriteFolder(TrainingSettings& settings);
    bool askToReplace(const QString& folder);
    void updateButtons();
    QString siblingPrefix() const;
    // A continued model's data mostly made of words it does not know: said beside every progress message.
    QString unknownDataWarning(const UnknownShare& unknown) const;
    QString savedWeightsText(const TrainReport& report) const;
    QString withDataWarning(const QString& text) const;  // "sibling 2 of 4 (dot): " while the siblings train
    void continueSiblings(const TrainReport& report, const QString& error);
    void endSiblings(const QString& message, bool complete);
    void chooseSiblingsFolder();
    void addReport(const TrainProgress& progress);
    void addSnapshot(const TrainingSnapshot& snapshot);
    void addMetrics(const EpochMetrics& metrics);
    void onPaused(qint64 step, const QString& error);
    void onFinished(const TrainReport& report, const QString& error);
    void showMessage(const QString& text, bool warning);
    void chooseFilmstripFile();
    void chooseAnimationFile();
    void chooseCurvesFile();
    void chooseSiblingFile();

    TrainingWorker* worker_;
    TrainingForm* form_ = nullptr;
    QScrollArea* form_scroll_ = nullptr;
    QSplitter* panes_ = nullptr;   // the form's pane | the views
    QSplitter* views_ = nullptr;   // the curves | the heatmap
    QSplitter* curves_ = nullptr;  // the loss plot and the epoch table
    bool panes_sized_ = false;     // the form's pane was given its width when first shown
    LossPlot* loss_plot_ = nullptr;
    EpochMetricsTable* metrics_table_ = nullptr;
    HeatmapView* heatmap_ = nullptr;
    QSlider* timeline_ = nullptr;
    QLabel* status_ = nullptr;
    bool showing_prompt_ = true;  // status_ still invites to start (retranslated with the window)
    QLabel* snapshot_label_ = nullptr;
    QLabel* timeline_label_ = nullptr;
    QPushButton* start_ = nullptr;
    QPushButton* pause_ = nullptr;
    QPushButton* stop_ = nullptr;
    QPushButton* siblings_button_ = nullptr;
    QPushButton* export_film_ = nullptr;
    QPushButton* export_anim_ = nullptr;
    QLabel* frame_delay_label_ = nullptr;
    QSpinBox* frame_delay_ = nullptr;
    QPushButton* export_curves_ = nullptr;
    QPushButton* open_main_ = nullptr;
    QPushButton* save_sibling_ = nullptr;
    TrainingHistory history_;
    TrainReport report_;
    bool ended_ = false;      // a run has ended (its model is written)
    bool preparing_ = false;  // Start is preparing a run (prepareKeepingTheWindowAlive)
    QString last_error_;
    QString data_warning_;  // unknownDataWarning of the running job ("" for none)
    QString task_;
    bool guided_ = false;
    std::unique_ptr<SiblingQueue> siblings_;  // while the four siblings train
    ReplaceQuestion replace_question_;
};

}  // namespace attnviz::ui
