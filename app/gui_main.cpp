// attnviz: the desktop app. `attnviz [MODEL]` opens MODEL, else the last model, else the default sample model, with
// a sentence already decoded. `--screenshot FILE` saves the window (QWidget::grab) after the first decode and quits.
// `--beam K` shows the beam search dock with width K; `--compare B` opens the compare view with model B (and
// `--compare-head-a/-b L,H` choose which cross-attention of a Transformer side it compares); `--corpus F`
// opens F in the corpus browser; `--reference TEXT` forces the model onto a reference and `--gold LINKS` gives its
// gold links; `--heads KIND` shows a Transformer's head grid and `--head L,H` one head in the heatmap; `--hypothesis N`
// (with `--beam`) shows the N-th best beam hypothesis; `--knockout`, `--attend`, `--head-off` (as attnviz-cli's) open
// with those interventions; `--head-importance N` computes a Transformer's head importance on N lines (with
// `--screenshot`, saved once it is shown). `--train CORPUS` opens the training window on CORPUS and starts
// training (`--train-kind transformer`: a Transformer; with `--screenshot`, that window is saved when the training
// ends). `--help`, `--version` and `--check` (gui_check.h) work without a display. The window's part is in
// gui_startup.cpp (before the event loop) and gui_screenshot.cpp (once a decode is shown).
#include "attnviz_version.h"
#include "dialogs/getting_started.h"
#include "gui_check.h"
#include "gui_options.h"
#include "gui_screenshot.h"
#include "gui_startup.h"
#include "window/language.h"
#include "window/main_window.h"
#include "window/theme.h"

#include <QApplication>
#include <QCommandLineParser>

#include <string_view>

namespace {

using attnviz::app::Options;

void setNames() {
    QCoreApplication::setApplicationName(QStringLiteral("attnviz"));
    QCoreApplication::setOrganizationName(QStringLiteral("attnviz"));
    QCoreApplication::setApplicationVersion(QStringLiteral(ATTNVIZ_VERSION));
}

// --help and --version answer without a display: they need no QApplication (which would open one).
bool asksForTextOnly(int argc, char* argv[]) {
    for (int i = 1; i < argc; ++i) {
        const std::string_view a = argv[i];
        if (a == "--") return false;
        if (a == "-h" || a == "--help" || a == "--help-all" || a == "-?" || a == "-v" || a == "--version" ||
            a == "--check")
            return true;
    }
    return false;
}

// The saved choices of View → Theme and View → Language (the language follows the system locale by default), unless
// the command line names one for this run (screenshots).
void applyAppearance(const QCommandLineParser& parser, const Options& options) {
    if (parser.isSet(options.theme))
        attnviz::ui::setTheme(attnviz::ui::themeFromKey(parser.value(options.theme)));
    else
        attnviz::ui::applySavedTheme();
    if (!parser.isSet(options.language))
        attnviz::ui::applySavedLanguage();
    else
        attnviz::ui::setLanguage(parser.value(options.language));  // an unknown one was named by valueProblems
}

}  // namespace

int main(int argc, char* argv[]) {
    if (asksForTextOnly(argc, argv)) {
        QCoreApplication core(argc, argv);
        setNames();
        const Options options;
        QCommandLineParser parser;
        attnviz::app::setUpParser(parser, options);
        parser.process(core);                                    // prints the help or the version and exits
        return attnviz::app::checkCommandLine(parser, options);  // --check
    }
    Q_INIT_RESOURCE(attnviz);
    QApplication app(argc, argv);
    setNames();
    QApplication::setApplicationDisplayName(QStringLiteral("attnviz"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/attnviz.svg")));
    const Options options;
    QCommandLineParser parser;
    attnviz::app::setUpParser(parser, options);
    parser.process(app);
    // A screenshot waits on nobody: a bad value, an unreadable model or corpus ends it with status 1 at once.
    attnviz::app::StartupReport report(parser.isSet(options.screenshot));
    report.problems(attnviz::app::valueProblems(parser, options));
    if (report.failed()) return 1;
    applyAppearance(parser, options);

    attnviz::ui::MainWindow window;
    window.setInteractive(!report.fatal());  // a screenshot's errors on stderr, not in a dialog nobody would close
    QObject::connect(&window, &attnviz::ui::MainWindow::errorReported, &window,
                     [&report](const QString& text) { report.problems(text.split(u'\n', Qt::SkipEmptyParts)); });
    attnviz::app::prepareWindow(window, parser, options);
    attnviz::app::openStartupContent(window, parser, options, report);
    if (parser.isSet(options.train))
        attnviz::app::trainOnStartup(window, parser, options, report);
    else
        attnviz::app::scheduleStartupActions(window, parser, options, report);
    if (report.failed()) return 1;
    // A first start: the Getting started page beside the window (not for a screenshot, which is saved and quits).
    if (!parser.isSet(options.screenshot) && attnviz::ui::gettingStartedDue()) window.showGettingStarted();
    return QApplication::exec();
}
