// What attnviz's command line asks of the main window before its event loop runs: its size and docks, the model,
// sentence, reference, interventions and explanation method, the compare view, a corpus, head importance, a training
// run. Values are read as gui_options.h reads them and checked by gui_check.h, whose lines were printed before the
// window opened; what a model or a sentence cannot take is refused here with attnviz-cli's reasons.
#pragma once
#include "gui_options.h"

#include <QStringList>

namespace attnviz::ui {
class MainWindow;
}

namespace attnviz::app {

// Where the startup's problems go, and the window's reported errors (MainWindow::errorReported): stderr, always. With
// --screenshot (or --train with it) nothing may wait on a person: a problem also ends the program with status 1,
// before any picture is saved.
class StartupReport {
public:
    explicit StartupReport(bool fatal) : fatal_(fatal) {}
    // Prints each line ("attnviz: LINE"); when fatal, marks the run failed and ends a running event loop with 1.
    void problems(const QStringList& lines);
    void problem(const QString& line) { problems({line}); }
    bool fatal() const { return fatal_; }
    bool failed() const { return failed_; }

private:
    bool fatal_;
    bool failed_ = false;
};

// --size, --coverage, --beam, --heads / --head and --hypothesis: the window before its first model opens (then shown).
void prepareWindow(ui::MainWindow& window, const QCommandLineParser& parser, const Options& options);
// The model (MODEL, else the last, else the sample), then --explain, --explain-scores, --reference, --gold,
// --sentence and the interventions, decoded; then --compare and its heads, --corpus and --head-importance.
void openStartupContent(ui::MainWindow& window, const QCommandLineParser& parser, const Options& options,
                        StartupReport& report);
// --train CORPUS: the training window with the corpus's defaults (for the --train-kind), started; --screenshot saves
// that window once the training has ended (then the program ends).
void trainOnStartup(ui::MainWindow& window, const QCommandLineParser& parser, const Options& options,
                    StartupReport& report);

}  // namespace attnviz::app
