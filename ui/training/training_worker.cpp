#include "training/training_worker.h"
#include "base/errors.h"
#include "heatmap/utf8_text.h"

#include "eval/corpus_scores.h"
#include "io/marian_writer.h"
#include "io/model_file.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFileInfo>
#include <cmath>
#include <exception>

namespace attnviz::ui {

TrainingWorker::TrainingWorker(QObject* parent) : QObject(parent), gate_(std::make_unique<TrainGate>()) {
    qRegisterMetaType<attnviz::TrainProgress>();
    qRegisterMetaType<attnviz::TrainReport>();
    qRegisterMetaType<attnviz::ui::TrainingSnapshot>();
    qRegisterMetaType<attnviz::ui::EpochMetrics>();
    thread_.setObjectName(QStringLiteral("attnviz training"));
    runner_ = new QObject;
    runner_->moveToThread(&thread_);
    connect(&thread_, &QThread::finished, runner_, &QObject::deleteLater);
    thread_.start();
}

TrainingWorker::~TrainingWorker() {
    gate_->stop();
    thread_.quit();
    thread_.wait();
}

bool TrainingWorker::start(TrainingJob job) {
    if (running_) return false;
    running_ = true;
    finished_model_.reset();
    gate_ = std::make_unique<TrainGate>();  // a new run starts neither paused nor stopped
    out_ = qs(job.out);
    auto shared = std::make_shared<TrainingJob>(std::move(job));
    QMetaObject::invokeMethod(
        runner_, [this, shared] { run(shared); }, Qt::QueuedConnection);
    return true;
}

bool TrainingWorker::wait(int milliseconds) {
    QDeadlineTimer deadline(milliseconds);
    while (running_ && !deadline.hasExpired()) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        QThread::msleep(2);
    }
    return !running_;
}

TrainingSnapshot TrainingWorker::snapshotOf(const Model& model, const TrainProgress& progress,
                                            const TrainingJob& job) const {
    return TrainingSnapshot{progress, decodeProbe(model, job)};
}

void TrainingWorker::scoreValidation(const Model& model, const TrainProgress& progress, const TrainingJob& job) {
    CorpusScoreOptions options;
    options.threads = job.options.threads;
    try {
        emit validated(EpochMetrics{progress, evaluateCorpus(model, job.valid_corpus, options)});
    } catch (const std::exception&) {  // out of memory: the epoch has no metrics, the training goes on
    }
}

// A run that ended inside an epoch is validated there by core, and keeps those weights when they are its best: the
// model written is then of an update the epoch table has not shown. Its row (marked as part of an epoch) and its
// point on the curves, so that the table, the curves and the closing message name the same update and loss.
void TrainingWorker::showStopValidation(const Model& model, const TrainReport& report, int64_t total_steps,
                                        const TrainingJob& job) {
    TrainProgress at;
    at.step = report.best_step;
    at.total_steps = total_steps;
    at.epoch = std::max(1, int(std::ceil(report.epochs)));
    at.loss = report.last_loss;
    at.avg_loss = report.train_loss;
    at.valid_loss = report.best_valid_loss;
    at.after_validation = true;
    emit progressed(at);
    CorpusScoreOptions options;
    options.threads = job.options.threads;
    try {
        emit validated(EpochMetrics{at, evaluateCorpus(model, job.valid_corpus, options), true});
    } catch (const std::exception&) {  // out of memory: no metrics for it
    }
}

// The model with its "training" metadata, written atomically: a file, or a Marian model's folder (written beside its
// place and renamed there, so that a stop or a failure at any moment leaves the old folder or none). An occupied
// folder is replaced when the user agreed, and after the run's first write (it is then this run's own). "" or what
// went wrong.
QString TrainingWorker::writeModel(const Model& model, TrainingJob& job, const TrainReport& report) const {
    try {
        Model copy = model;
        copy.training = trainingMetadata(job.record, report);
        if (copy.marian) {
            saveMarianFolder(copy, job.out, safetensors::DType::F32, job.replace_out);
            job.replace_out = true;
            return {};
        }
        QDir().mkpath(QFileInfo(qs(job.out)).absolutePath());
        saveModel(copy, job.out);
        return {};
    } catch (const std::exception& e) {
        return qs(errorMessage(e));
    }
}

void TrainingWorker::run(const std::shared_ptr<TrainingJob>& job) {
    TrainGate* gate = gate_.get();  // replaced only by start(), which waits for this run's end
    Model& model = *job->model;
    const int64_t per_epoch = (int64_t(job->train.size()) + job->options.batch_size - 1) / job->options.batch_size;
    TrainCallbacks cb;
    cb.gate = gate;
    cb.progress = [this](const TrainProgress& p) { emit progressed(p); };
    cb.snapshot_every = job->snapshot_every;
    cb.snapshot = [&](const Model& m, const TrainProgress& p) { emit snapshotTaken(snapshotOf(m, p, *job)); };
    int64_t validated_at = 0;  // the update of the last validation the window was shown
    if (!job->valid_corpus.empty())
        cb.validated = [&](const Model& m, const TrainProgress& p) {
            validated_at = p.step;
            scoreValidation(m, p, *job);
        };
    cb.paused = [&](const Model& m, const TrainProgress& p) {
        TrainReport so_far;  // the metadata of a model written at a pause: a run interrupted after p.step updates
        so_far.status = TrainStatus::Cancelled;
        so_far.steps = p.step;
        so_far.epochs = double(p.step) / double(std::max<int64_t>(1, per_epoch));
        so_far.train_loss = p.avg_loss;
        emit pausedAt(p.step, writeModel(m, *job, so_far));
    };
    TrainReport report;
    QString error;
    try {
        TrainProgress start;
        start.total_steps = job->options.steps > 0 ? job->options.steps : per_epoch * job->options.epochs;
        emit snapshotTaken(snapshotOf(model, start, *job));  // before the first update
        report = trainModel(model, job->train, job->valid, job->options, cb);
        if (cb.validated && report.best_step > validated_at && std::isfinite(report.best_valid_loss))
            showStopValidation(model, report, start.total_steps, *job);
        model.training = trainingMetadata(job->record, report);
        error = writeModel(model, *job, report);
    } catch (const std::exception& e) {
        error = qs(errorMessage(e));
    }
    std::shared_ptr<const Model> trained = job->model;
    QMetaObject::invokeMethod(
        this,
        [this, trained, report, error] {
            finished_model_ = trained;
            running_ = false;
            emit finished(report, error);
        },
        Qt::QueuedConnection);
}

}  // namespace attnviz::ui
