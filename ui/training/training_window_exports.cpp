// TrainingWindow's exports (training_window.h): the filmstrip, the animation, the curves, and "Save as sibling".
#include "base/errors.h"
#include "dialogs/model_library.h"
#include "heatmap/heatmap_view.h"
#include "heatmap/utf8_text.h"
#include "io/atomic_file.h"
#include "io/model_file.h"
#include "training/loss_plot.h"
#include "training/training_animation.h"
#include "training/training_job.h"
#include "training/training_window.h"
#include "views/export_prompt.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QSpinBox>

namespace attnviz::ui {

namespace {

// The heatmap's style without the window's cursor and selection marks.
ExportOptions snapshotExportOptions(const HeatmapView* heatmap) {
    ExportOptions options;
    options.style = heatmap->style();
    options.style.current_row = -1;
    options.style.selected_row = options.style.selected_col = -1;
    return options;
}

}  // namespace

bool TrainingWindow::exportFilmstrip(const QString& path, QString* error) {
    return ui::exportFilmstrip(history_.snapshots, path, snapshotExportOptions(heatmap_), error);
}

bool TrainingWindow::exportAnimation(const QString& path, int delay_ms, QString* error) {
    return ui::exportAnimation(history_.snapshots, path, snapshotExportOptions(heatmap_), delay_ms, error);
}

int TrainingWindow::frameDelay() const { return frame_delay_->value(); }

bool TrainingWindow::exportCurves(const QString& path, QString* error) {
    if (QFileInfo(path).suffix().compare(QLatin1String("csv"), Qt::CaseInsensitive) != 0)
        return loss_plot_->exportImage(path, 1200, 700, error);
    try {
        writeFileAtomically(path.toStdString(), lossCurvesCsv(history_.reports, history_.metrics));
        return true;
    } catch (const std::exception& e) {
        if (error) *error = qs(errorMessage(e));
        return false;
    }
}

QString TrainingWindow::siblingPath() const {
    QString dir = QFileInfo(modelPath()).absolutePath();
    for (const QString& d : sampleModelDirs()) {
        bool found = false;
        for (const ModelInfo& m : scanModelDir(d)) found = found || (!task_.isEmpty() && m.task == task_);
        if (found) {
            dir = d;
            break;
        }
    }
    const std::shared_ptr<const Model> model = trainedModel();
    return QDir(dir).filePath(siblingFileName(task_, model ? model->config : ModelConfig(), guided_));
}

bool TrainingWindow::saveAsSibling(const QString& path, QString* error) {
    const std::shared_ptr<const Model> model = trainedModel();
    if (!model) {
        if (error) *error = tr("No trained model yet.");
        return false;
    }
    try {
        saveModel(*model, path.toStdString());  // with the "training" metadata of its run
        return true;
    } catch (const std::exception& e) {
        if (error) *error = qs(errorMessage(e));
        return false;
    }
}

QString TrainingWindow::suggestedExportFile(const QString& name) const { return QDir(exportFolder()).filePath(name); }

void TrainingWindow::chooseFilmstripFile() {
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export filmstrip"), suggestedExportFile(QStringLiteral("filmstrip.png")),
                                     tr("Images (*.png *.svg *.pdf)"));
    QString error;
    if (path.isEmpty()) return;
    rememberExport(path);
    if (exportFilmstrip(path, &error))
        showMessage(tr("Wrote %1").arg(path), false);
    else
        showMessage(error, true);
}

void TrainingWindow::chooseAnimationFile() {
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export animation"), suggestedExportFile(QStringLiteral("training.png")),
                                     tr("Animated PNG (*.png *.apng)"));
    QString error;
    if (path.isEmpty()) return;
    rememberExport(path);
    if (exportAnimation(path, frameDelay(), &error))
        showMessage(tr("Wrote %1").arg(path), false);
    else
        showMessage(error, true);
}

void TrainingWindow::chooseCurvesFile() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export loss curves"), suggestedExportFile(QStringLiteral("loss.csv")),
        tr("CSV numbers (*.csv);;PNG picture (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)"));
    QString error;
    if (path.isEmpty()) return;
    rememberExport(path);
    if (exportCurves(path, &error))
        showMessage(tr("Wrote %1").arg(path), false);
    else
        showMessage(error, true);
}

void TrainingWindow::chooseSiblingFile() {
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Save as sibling"), siblingPath(), tr("Models (*.safetensors)"));
    QString error;
    if (path.isEmpty()) return;
    if (saveAsSibling(path, &error))
        showMessage(tr("Wrote %1").arg(path), false);
    else
        showMessage(error, true);
}

}  // namespace attnviz::ui
