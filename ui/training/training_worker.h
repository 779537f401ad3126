// Runs a TrainingJob off the UI thread: core's trainModel on a QThread of its own, with the probe sentence decoded
// every N updates on the training thread (TrainCallbacks::snapshot, so the picture is of exactly that update's
// weights) and pause / resume / stop through a TrainGate (the thread sleeps while paused). The model file (a Marian
// model's folder, io/marian_writer) is written atomically when a pause begins and when the run ends, however it ends
// (completed, stopped, non-finite loss): what is on disk is always a whole, loadable model.
#pragma once
#include "training/training_history.h"
#include "training/training_job.h"

#include "train/train_gate.h"

#include <QObject>
#include <QString>
#include <QThread>
#include <memory>

Q_DECLARE_METATYPE(attnviz::TrainProgress)
Q_DECLARE_METATYPE(attnviz::TrainReport)
Q_DECLARE_METATYPE(attnviz::ui::TrainingSnapshot)
Q_DECLARE_METATYPE(attnviz::ui::EpochMetrics)

namespace attnviz::ui {

class TrainingWorker : public QObject {
    Q_OBJECT
public:
    explicit TrainingWorker(QObject* parent = nullptr);
    ~TrainingWorker() override;  // stops a run and waits for its thread

    // Starts the job on the worker's thread; false if a run is still going.
    bool start(TrainingJob job);
    void pause() { gate_->pause(); }
    void resume() { gate_->resume(); }
    void stop() { gate_->stop(); }
    bool isRunning() const { return running_; }
    bool isPaused() const { return gate_->paused(); }
    // Waits for the run's end (the current update finishes first after stop()); true if it ended in time.
    bool wait(int milliseconds);
    // The trained model once the run has ended (nullptr before); shared, never changed again.
    std::shared_ptr<const Model> model() const { return finished_model_; }
    QString modelPath() const { return out_; }

signals:
    void progressed(const attnviz::TrainProgress& progress);
    void snapshotTaken(const attnviz::ui::TrainingSnapshot& snapshot);
    // After each epoch's validation: the validation corpus scored by the model just validated (on the training
    // thread, which waits for it: the scoring's time is not in the tokens/s).
    void validated(const attnviz::ui::EpochMetrics& metrics);
    // A pause began after `step` updates; the model so far was written to modelPath() (`error` says why not).
    void pausedAt(qint64 step, const QString& error);
    // The run ended; `error` is set when it could not start or the model could not be written.
    void finished(const attnviz::TrainReport& report, const QString& error);

private:
    void run(const std::shared_ptr<TrainingJob>& job);  // on thread_
    void showStopValidation(const Model& model, const TrainReport& report, int64_t total_steps, const TrainingJob& job);
    void scoreValidation(const Model& model, const TrainProgress& progress, const TrainingJob& job);
    TrainingSnapshot snapshotOf(const Model& model, const TrainProgress& progress, const TrainingJob& job) const;
    QString writeModel(const Model& model, TrainingJob& job, const TrainReport& report) const;

    QThread thread_;
    QObject* runner_ = nullptr;  // lives in thread_: the context the job is queued to
    std::unique_ptr<TrainGate> gate_;
    bool running_ = false;  // UI thread
    QString out_;
    std::shared_ptr<const Model> finished_model_;
};

}  // namespace attnviz::ui
