#include "training/training_window.h"
#include "base/errors.h"
#include "heatmap/utf8_text.h"

#include "heatmap/heatmap_view.h"
#include "heatmap/plot_palette.h"
#include "io/marian_folder.h"
#include "io/marian_writer.h"
#include "training/epoch_metrics_table.h"
#include "training/loss_plot.h"
#include "training/sibling_runs.h"
#include "training/training_animation.h"
#include "training/training_form.h"
#include "training/training_settings_store.h"
#include "training/training_worker.h"

#include <QCloseEvent>
#include <QEventLoop>
#include <QFileInfo>
#include <QGuiApplication>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <cmath>
#include <exception>
#include <optional>
#include <thread>

namespace attnviz::ui {
namespace {

QString clockText(double seconds) {
    if (!std::isfinite(seconds) || seconds < 0) return QStringLiteral("?");
    const qlonglong s = qlonglong(seconds + 0.5);
    if (s >= 3600)
        return QStringLiteral("%1:%2:%3")
            .arg(s / 3600)
            .arg((s / 60) % 60, 2, 10, QLatin1Char('0'))
            .arg(s % 60, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}

// At most this many snapshots are kept; past it, every second one is dropped (the first and the newest stay).
constexpr int kMaxSnapshots = 1000;

void thinOut(std::vector<TrainingSnapshot>& snapshots) {
    std::vector<TrainingSnapshot> kept;
    for (size_t i = 0; i < snapshots.size(); ++i)
        if (i % 2 == 0 || i + 1 == snapshots.size()) kept.push_back(std::move(snapshots[i]));
    snapshots = std::move(kept);
}

// The wait cursor over every window of the application while it lives.
struct WaitCursor {
    WaitCursor() { QGuiApplication::setOverrideCursor(Qt::WaitCursor); }
    ~WaitCursor() { QGuiApplication::restoreOverrideCursor(); }
    WaitCursor(const WaitCursor&) = delete;
    WaitCursor& operator=(const WaitCursor&) = delete;
};

}  // namespace

TrainingWindow::TrainingWindow(QWidget* parent) : QWidget(parent, Qt::Window), worker_(new TrainingWorker(this)) {
    setObjectName(QStringLiteral("TrainingWindow"));
    buildPanes();  // training_window_layout.cpp
    connect(worker_, &TrainingWorker::progressed, this, &TrainingWindow::addReport);
    connect(worker_, &TrainingWorker::snapshotTaken, this, &TrainingWindow::addSnapshot);
    connect(worker_, &TrainingWorker::validated, this, &TrainingWindow::addMetrics);
    connect(worker_, &TrainingWorker::pausedAt, this, &TrainingWindow::onPaused);
    connect(worker_, &TrainingWorker::finished, this, &TrainingWindow::onFinished);
    retranslate();
    updateButtons();
    resize(1400, 900);
}

TrainingWindow::~TrainingWindow() = default;  // the worker stops its run and waits

void TrainingWindow::retranslate() {
    setWindowTitle(tr("Train a model — attnviz"));
    start_->setText(tr("&Start training"));
    pause_->setText(isPaused() ? tr("&Resume") : tr("&Pause"));
    stop_->setText(tr("S&top"));
    stop_->setToolTip(tr("Stop after the current update and write the model"));
    siblings_button_->setText(tr("Train four s&iblings…"));
    timeline_label_->setText(tr("S&napshot:"));
    timeline_->setToolTip(tr("Scrub back through the probe sentence's attention as the model learnt it"));
    export_film_->setText(tr("Export &filmstrip…"));
    export_film_->setToolTip(tr("The snapshots in a grid, each with its update number (PNG, SVG or PDF)"));
    export_anim_->setText(tr("Export &animation…"));
    export_anim_->setToolTip(tr("The snapshots as an animated PNG for slides, one frame per snapshot"));
    frame_delay_label_->setText(tr("Frame &delay:"));
    frame_delay_->setSuffix(tr(" ms"));
    frame_delay_->setToolTip(tr("How long the animation shows each snapshot"));
    export_curves_->setText(tr("Export &curves…"));
    export_curves_->setToolTip(tr("The loss curves as a PNG picture or their numbers as CSV"));
    open_main_->setText(tr("&Open in the main window"));
    save_sibling_->setText(tr("Save as &sibling…"));
    save_sibling_->setToolTip(tr("Save beside the models of the same task, so that the scoring buttons reach it"));
    if (showing_prompt_) status_->setText(tr("Choose a corpus and the model's settings, then start."));
    updateButtons();  // its tooltips
    showSnapshot(timeline_->value());
}

void TrainingWindow::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        form_->retranslate();
    }
}

bool TrainingWindow::start() {
    if (isRunning()) {
        last_error_ = tr("A training is running.");
        return false;
    }
    siblings_.reset();
    const TrainingSettings settings = form_->settings();
    if (!startWith(settings)) return false;
    saveTrainingSettings(settings);  // offered again next session
    return true;
}

// A Marian run's folder (a new model's, or one going on from a Marian folder) that exists and is not empty is
// replaced only when the user agrees, asked before the pieces are trained; false (and the message) when they do not.
bool TrainingWindow::mayWriteFolder(TrainingSettings& s) {
    const bool new_marian = s.marian && s.init.isEmpty();
    if (!new_marian && !(!s.init.isEmpty() && isMarianPath(s.init.toStdString()))) return true;
    const QString folder = marianFolder(s);
    if (!isOccupiedFolder(folder.toStdString())) return true;
    if (askToReplace(folder)) {
        s.replace_out = true;
        return true;
    }
    last_error_ = tr("%1 exists and is not empty: choose another model folder, or agree to replace it").arg(folder);
    showMessage(tr("Cannot start: %1").arg(last_error_), true);
    return false;
}

bool TrainingWindow::askToReplace(const QString& folder) {
    if (replace_question_) return replace_question_(folder);
    return QMessageBox::question(this, tr("Replace the folder?"),
                                 tr("The model folder %1 exists and is not empty. Replace it with the model this "
                                    "training writes? It is replaced when the model is first written, whole.")
                                     .arg(folder),
                                 QMessageBox::Yes | QMessageBox::No, QMessageBox::No) == QMessageBox::Yes;
}

// Preparing a run reads the corpus and makes the model; a new Marian's SentencePiece models are trained then (a
// second on 4,000 lines, several on a large corpus). The status says so (painted before the work starts) and the
// cursor waits.
void TrainingWindow::showPreparing(const TrainingSettings& s) {
    const QString corpus = QFileInfo(s.corpus).fileName();
    showMessage(s.marian && s.init.isEmpty() ? tr("Training the SentencePiece models on %1…").arg(corpus)
                                             : tr("Reading %1 and making the model…").arg(corpus),
                false);
    status_->repaint();
    emit preparing(status_->text());
}

// The preparation runs on a thread of its own while this thread goes on painting, resizing and answering the window
// manager. Input (clicks, keys, the close button) waits until it is done, so nothing starts twice or closes under it;
// the form and Start are disabled meanwhile to show that.
TrainingJob TrainingWindow::prepareKeepingTheWindowAlive(const TrainingSettings& s) {
    preparing_ = true;
    updateButtons();
    std::optional<TrainingJob> job;
    std::exception_ptr error;
    QEventLoop loop;
    std::thread preparer([&] {
        try {
            job = prepareTrainingJob(s);
        } catch (...) {
            error = std::current_exception();
        }
        QMetaObject::invokeMethod(&loop, &QEventLoop::quit, Qt::QueuedConnection);
    });
    loop.exec(QEventLoop::ExcludeUserInputEvents);
    preparer.join();
    preparing_ = false;
    updateButtons();
    if (error) std::rethrow_exception(error);
    return std::move(*job);
}

bool TrainingWindow::startWith(TrainingSettings settings) {
    if (!mayWriteFolder(settings)) return false;
    TrainingJob job;
    try {
        const WaitCursor busy;
        showPreparing(settings);
        job = prepareKeepingTheWindowAlive(settings);
    } catch (const std::exception& e) {
        last_error_ = qs(errorMessage(e));
        showMessage(tr("Cannot start: %1").arg(last_error_), true);
        return false;
    }
    job.options.progress_interval = 0;  // every update is a point of the curve
    task_ = qs(job.model->task);
    guided_ = job.options.align_weight > 0;
    history_ = {};
    report_ = {};
    ended_ = false;
    last_error_.clear();
    loss_plot_->clear();
    metrics_table_->clearMetrics();
    timeline_->setRange(0, 0);
    const qlonglong lines = qlonglong(job.train.size());
    data_warning_ = unknownDataWarning(job.unknown);
    worker_->start(std::move(job));
    showMessage(withDataWarning(siblingPrefix() + tr("Training on %n line(s)…", nullptr, int(lines))),
                !data_warning_.isEmpty());
    updateButtons();
    return true;
}

void TrainingWindow::pause() {
    if (!isRunning()) return;
    worker_->pause();
    showMessage(tr("Pausing after the current update…"), false);
    updateButtons();
}

void TrainingWindow::resume() {
    worker_->resume();
    updateButtons();
}

void TrainingWindow::stop() {
    if (!isRunning()) return;
    worker_->stop();
    showMessage(tr("Stopping after the current update…"), false);
    updateButtons();
}

bool TrainingWindow::isRunning() const { return worker_->isRunning(); }
bool TrainingWindow::isPaused() const { return worker_->isRunning() && worker_->isPaused(); }
std::shared_ptr<const Model> TrainingWindow::trainedModel() const { return worker_->model(); }
QString TrainingWindow::modelPath() const { return worker_->modelPath(); }

void TrainingWindow::updateButtons() {
    const bool running = isRunning() || preparing_, has_snapshots = !history_.snapshots.empty();
    // A config core refuses (nhead not dividing d_model, ...) cannot start: the form says why under the field.
    start_->setEnabled(!running && form_->problem().isEmpty());
    start_->setToolTip(form_->problem());
    // The four siblings are the four scorings of an RNN model; a Transformer's attention has only scaled_dot.
    const bool transformer = form_->transformerChosen() || form_->marianChosen();
    siblings_button_->setEnabled(!running && !transformer);
    siblings_button_->setToolTip(
        transformer
            ? tr("For the RNN kinds (bahdanau, luong): trains their four scoring functions side by side. A "
                 "Transformer's attention, a Marian's too, has one scoring only (scaled dot product), so it has no "
                 "such siblings")
            : tr("Train the additive, dot, scaled_dot and general scorings one after the other with these "
                 "settings, save them side by side in a folder and compare them in the main window"));
    form_->setEnabled(!running);
    pause_->setEnabled(running);
    pause_->setText(isPaused() ? tr("&Resume") : tr("&Pause"));
    stop_->setEnabled(running);
    export_film_->setEnabled(has_snapshots);
    export_anim_->setEnabled(has_snapshots);
    export_curves_->setEnabled(!history_.reports.empty());
    open_main_->setEnabled(ended_ && last_error_.isEmpty());
    // A Marian model is a Hugging Face folder, not a sibling file of the sample models.
    const bool marian = trainedModel() && trainedModel()->marian;
    save_sibling_->setEnabled(ended_ && trainedModel() != nullptr && !marian);
}

void TrainingWindow::addReport(const TrainProgress& p) {
    history_.reports.push_back(p);
    loss_plot_->addReport(p);
    if (p.after_validation) return;
    showMessage(withDataWarning(siblingPrefix() + tr("update %1 of %2 · epoch %3 · loss %4 · %5 tokens/s · %6 left")
                                                      .arg(p.step)
                                                      .arg(p.total_steps)
                                                      .arg(p.epoch)
                                                      .arg(p.loss, 0, 'f', 4)
                                                      .arg(p.tokens_per_second, 0, 'f', 0)
                                                      .arg(clockText(p.eta_seconds))),
                !data_warning_.isEmpty());
    if (history_.reports.size() == 1) updateButtons();
}

void TrainingWindow::addSnapshot(const TrainingSnapshot& s) {
    const bool live = timeline_->value() == timeline_->maximum();
    history_.snapshots.push_back(s);
    if (history_.snapshots.size() > size_t(kMaxSnapshots)) {  // bounded memory on long runs: every other one goes
        thinOut(history_.snapshots);
        timeline_->setValue(std::min(timeline_->value() / 2, int(history_.snapshots.size()) - 1));
    }
    const int last = int(history_.snapshots.size()) - 1;
    timeline_->setRange(0, last);
    if (live) timeline_->setValue(last);
    if (live || last == 0) showSnapshot(timeline_->value());
    if (last == 0) updateButtons();
    emit snapshotAdded(last + 1);
}

void TrainingWindow::addMetrics(const EpochMetrics& m) {
    history_.metrics.push_back(m);
    metrics_table_->addMetrics(m);
}

void TrainingWindow::showSnapshot(int index) {
    if (index < 0 || index >= int(history_.snapshots.size())) {
        snapshot_label_->setText(tr("no snapshot yet"));
        return;
    }
    const TrainingSnapshot& s = history_.snapshots[size_t(index)];
    heatmap_->setData(HeatmapData::fromDecode(s.decode));
    loss_plot_->setMarker(s.progress.step);
    snapshot_label_->setText(
        tr("update %1 (%2 of %3)").arg(s.progress.step).arg(index + 1).arg(history_.snapshots.size()));
}

void TrainingWindow::onPaused(qint64 step, const QString& error) {
    if (error.isEmpty())
        showMessage(tr("Paused after update %1; the model so far is in %2").arg(step).arg(modelPath()), false);
    else
        showMessage(tr("Paused after update %1; the model could not be written: %2").arg(step).arg(error), true);
    updateButtons();
    emit paused(step);
}

void TrainingWindow::onFinished(const TrainReport& report, const QString& error) {
    report_ = report;
    ended_ = true;
    last_error_ = error;
    if (!error.isEmpty()) {
        showMessage(tr("Training failed: %1").arg(error), true);
    } else {
        QString how = tr("Trained %1 updates in %2 (%3 tokens/s)")
                          .arg(report.steps)
                          .arg(clockText(report.seconds))
                          .arg(report.tokens_per_second, 0, 'f', 0);
        if (report.status == TrainStatus::Cancelled) how = tr("Stopped after %1 updates").arg(report.steps);
        if (report.status == TrainStatus::NonFinite) how = qs(report.message);
        showMessage(tr("%1; the model is in %2 with %3").arg(how, modelPath(), savedWeightsText(report)),
                    report.status == TrainStatus::NonFinite);
    }
    updateButtons();
    emit trainingFinished();
    if (siblings_) continueSiblings(report, error);
}

// Which weights the written model holds: with validation data, the best validation loss's (which may be an earlier
// update's than the last); without, the last update whose loss was finite.
QString TrainingWindow::savedWeightsText(const TrainReport& report) const {
    const qlonglong update = report.best_step > 0 ? report.best_step : report.steps;
    if (std::isfinite(report.best_valid_loss))
        return tr("the weights of update %1, the best validation loss (%2)")
            .arg(update)
            .arg(report.best_valid_loss, 0, 'f', 4);
    return tr("the weights of update %1, the last with a finite loss").arg(update);
}

QString TrainingWindow::unknownDataWarning(const UnknownShare& unknown) const {
    if (!unknown.mostlyUnknown()) return {};
    return tr("%1% of the source tokens and %2% of the target tokens are unknown to the starting model (they all "
              "become <unk>): is this corpus for its task?")
        .arg(qRound(unknown.source * 100))
        .arg(qRound(unknown.target * 100));
}

QString TrainingWindow::withDataWarning(const QString& text) const {
    return data_warning_.isEmpty() ? text : text + QStringLiteral(" · ") + data_warning_;
}

void TrainingWindow::showMessage(const QString& text, bool warning) {
    showing_prompt_ = false;
    status_->setText(text);
    status_->setStyleSheet(warning ? warningStyleSheet(palette()) : QString());
}

void TrainingWindow::closeEvent(QCloseEvent* event) {
    if (isRunning()) {
        worker_->stop();  // the current update finishes, then the model is written
        worker_->wait(600000);
    }
    event->accept();
}

}  // namespace attnviz::ui
