// TrainingWindow's "Train four siblings" (training_window.h, sibling_runs.h): the four runs one after the other, each
// started when the one before has written its model. A stop or a failure ends the sequence; the models of the runs
// that completed stay where they were written (the stopped run's model too, marked "interrupted", as a stop always
// keeps it).
#include "base/errors.h"
#include "heatmap/utf8_text.h"
#include "state/model_names.h"
#include "training/sibling_runs.h"
#include "training/training_form.h"
#include "training/training_settings_store.h"
#include "training/training_window.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>

namespace attnviz::ui {
namespace {

QString scoreName(const TrainingSettings& s) { return scoringName(s.config.score); }

}  // namespace

bool TrainingWindow::startSiblings(const QString& folder) {
    if (isRunning()) {
        last_error_ = tr("A training is running.");
        return false;
    }
    auto queue = std::make_unique<SiblingQueue>();
    try {
        queue->runs = siblingSettings(form_->settings(), folder);
    } catch (const std::exception& e) {
        last_error_ = qs(errorMessage(e));
        showMessage(tr("Cannot start: %1").arg(last_error_), true);
        return false;
    }
    siblings_ = std::move(queue);
    if (startWith(siblings_->runs.front())) {
        saveTrainingSettings(form_->settings());  // offered again next session
        return true;
    }
    siblings_.reset();
    return false;
}

QString TrainingWindow::siblingPrefix() const {
    if (!siblings_) return {};
    return tr("sibling %1 of %2 (%3): ")
        .arg(siblings_->current + 1)
        .arg(siblings_->runs.size())
        .arg(scoreName(siblings_->runs[siblings_->current]));
}

void TrainingWindow::continueSiblings(const TrainReport& report, const QString& error) {
    SiblingQueue& q = *siblings_;
    const QString score = scoreName(q.runs[q.current]);
    if (!error.isEmpty()) {
        endSiblings(tr("The siblings stopped: the %1 one failed (%2); %3 of %4 trained and kept")
                        .arg(score, error)
                        .arg(q.written.size())
                        .arg(q.runs.size()),
                    false);
        return;
    }
    if (report.status != TrainStatus::Completed) {
        endSiblings(tr("The siblings stopped during the %1 one (its model so far is in %2); %3 of %4 trained and kept")
                        .arg(score, modelPath())
                        .arg(q.written.size())
                        .arg(q.runs.size()),
                    false);
        return;
    }
    q.written << modelPath();
    emit siblingTrained(modelPath());
    if (++q.current < q.runs.size()) {
        if (!startWith(q.runs[q.current]))
            endSiblings(
                tr("The siblings stopped: the %1 one cannot start (%2)").arg(scoreName(q.runs[q.current]), last_error_),
                false);
        return;
    }
    endSiblings(tr("Trained the four siblings into %1; the main window compares them")
                    .arg(QFileInfo(q.written.front()).absolutePath()),
                true);
}

void TrainingWindow::endSiblings(const QString& message, bool complete) {
    const QStringList written = siblings_->written;
    siblings_.reset();
    showMessage(message, !complete);
    updateButtons();
    emit siblingsEnded(written, complete);
}

void TrainingWindow::chooseSiblingsFolder() {
    const QString start =
        QFileInfo(form_->settings().out.isEmpty() ? defaultModelPath(task_, ModelConfig()) : form_->settings().out)
            .absolutePath();
    QDir().mkpath(start);
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Folder for the four siblings"), start);
    if (!folder.isEmpty()) startSiblings(folder);
}

}  // namespace attnviz::ui
