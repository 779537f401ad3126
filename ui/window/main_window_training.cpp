// File ▸ Train a model…: the training window (training/training_window.h), one per main window, kept when closed
// (its last run, snapshots and curves stay); "Open in the main window" opens the trained model here.
#include "training/training_window.h"
#include "window/main_window.h"

namespace attnviz::ui {

TrainingWindow* MainWindow::showTrainingWindow() {
    if (!training_window_) {
        training_window_ = new TrainingWindow(this);
        connect(training_window_, &TrainingWindow::openModelRequested, this, [this](const QString& path) {
            if (openModel(path)) {
                raise();
                activateWindow();
            }
        });
    }
    training_window_->show();
    training_window_->raise();
    training_window_->activateWindow();
    return training_window_;
}

}  // namespace attnviz::ui
