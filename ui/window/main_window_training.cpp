// File ▸ Train a model…: the training window (training/training_window.h), one per main window, kept when closed
// (its last run, snapshots and curves stay); "Open in the main window" opens the trained model here, and the four
// siblings, once trained, are opened here in the compare view.
#include "dialogs/window_placement.h"
#include "training/training_form.h"
#include "training/training_settings_store.h"
#include "training/training_window.h"
#include "views/compare_view.h"
#include "window/main_window.h"

#include <QDockWidget>

namespace attnviz::ui {
namespace {

// "Train four siblings" done: the first (additive) opened as A, the compare view shown with the second as B; the
// others are in its list of A's siblings.
void compareSiblings(MainWindow* w, const QStringList& paths) {
    if (paths.size() < 2 || !w->openModel(paths.front())) return;
    w->showCompare();
    w->compareView()->setModelB(paths[1]);
    w->raise();
    w->activateWindow();
}

}  // namespace

TrainingWindow* MainWindow::showTrainingWindow() {
    if (!training_window_) {
        training_window_ = new TrainingWindow(this);
        if (const auto saved = savedTrainingSettings()) training_window_->form()->applySettings(*saved);
        fitToScreen(training_window_);  // its own size, or the screen's room
        connect(training_window_, &TrainingWindow::openModelRequested, this, [this](const QString& path) {
            if (openModel(path)) {
                raise();
                activateWindow();
            }
        });
        connect(training_window_, &TrainingWindow::siblingsEnded, this,
                [this](const QStringList& paths, bool complete) {
                    if (complete) compareSiblings(this, paths);
                });
    }
    training_window_->show();
    training_window_->raise();
    training_window_->activateWindow();
    return training_window_;
}

}  // namespace attnviz::ui
