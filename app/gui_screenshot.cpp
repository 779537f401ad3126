#include "gui_screenshot.h"

#include "gui_check.h"
#include "gui_startup.h"
#include "heatmap/heatmap_view.h"
#include "state/decode_state.h"
#include "views/compare_view.h"
#include "views/corpus_browser.h"
#include "views/explain_scores_panel.h"
#include "views/head_importance_panel.h"
#include "window/main_window.h"

#include <QApplication>
#include <QTimer>

#include <functional>
#include <memory>

namespace attnviz::app {

namespace {

using Save = std::function<void(bool decoded)>;

// Runs `act` once, after the next decode the window shows.
void onFirstDecode(ui::MainWindow& window, std::function<void()> act) {
    QObject::connect(&window, &ui::MainWindow::decodeFinished, &window, std::move(act), Qt::SingleShotConnection);
}

// Saves the screenshot (save(true)) the first time `signal` of `sender` comes with `ready()` true; later signals
// save nothing.
template <class Sender, class Signal>
void saveOnceWhen(Sender* sender, Signal signal, QObject* context, std::function<bool()> ready, Save save) {
    auto saved = std::make_shared<bool>(false);
    QObject::connect(sender, signal, context, [ready, save, saved] {
        if (*saved || !ready()) return;
        *saved = true;
        save(true);
    });
}

// --select, --force and --contrast, on the first decode; connected before the screenshot's handler (connections run
// in order). Tokens outside the model's output vocabulary were refused by modelProblems before the window opened.
void actOnFirstDecode(ui::MainWindow& window, const QCommandLineParser& parser, const Options& options,
                      StartupReport& report) {
    if (const std::optional<QPoint> cell = selectedCell(parser.value(options.select));
        parser.isSet(options.select) && cell)
        onFirstDecode(window, [&window, cell = *cell] { window.state()->setSelection(cell.y(), cell.x()); });
    if (const std::optional<ForceAt> force = forceAt(parser.value(options.force)); parser.isSet(options.force) && force)
        onFirstDecode(window, [&window, &report, at = *force] {
            window.setCursorStep(at.step);
            const auto model = window.state()->decodedModel();
            const std::string token = at.token.toStdString();
            if (model && model->target_vocab.contains(token) && window.cursorStep() == at.step)
                window.forceCandidate(model->target_vocab.id(token));
            else
                report.problem(QStringLiteral("--force: cannot force %1 at step %2").arg(at.token).arg(at.step));
        });
    const std::optional<int> step = integerIn(parser.value(options.step), 0, 100000);
    if (parser.isSet(options.contrast) && step)
        onFirstDecode(window, [&window, token = parser.value(options.contrast).toStdString(), n = *step] {
            window.setCursorStep(n);
            const auto model = window.state()->decodedModel();
            if (model && model->target_vocab.contains(token)) window.explainContrast(model->target_vocab.id(token));
        });
}

// The screenshot's moment: what the line asked for, shown.
void saveWhenShown(ui::MainWindow& window, const QCommandLineParser& parser, const Options& options, const Save& save) {
    if (parser.isSet(options.head_importance)) {  // the heads' numbers shown (on --corpus's lines, if given)
        QObject::connect(
            window.headImportance(), &ui::HeadImportancePanel::computed, &window, [save] { save(true); },
            Qt::SingleShotConnection);
    } else if (parser.isSet(options.corpus)) {  // the corpus scored, then its first line decoded
        ui::CorpusBrowser* browser = window.corpusBrowser();
        QObject::connect(
            browser, &ui::CorpusBrowser::scoringFinished, &window,
            [&window, browser, save] {
                onFirstDecode(window, [save] { save(true); });
                browser->openRow(0);
            },
            Qt::SingleShotConnection);
    } else if (compareMethodName(parser.value(options.compare))) {  // B, the method's matrix, shown
        ui::CompareView* view = window.compareView();
        saveOnceWhen(
            view, &ui::CompareView::comparisonChanged, &window, [view] { return view->decodeB() && view->methodB(); },
            save);
    } else if (const std::optional<ForceAt> force = forceAt(parser.value(options.force))) {  // the forced decode shown
        saveOnceWhen(
            &window, &ui::MainWindow::decodeFinished, &window,
            [&window, row = force->step - 1] { return window.heatmapView()->labelMarks().forced_rows.contains(row); },
            save);
    } else if (parser.isSet(options.explain_scores)) {  // every method measured on the decode shown
        ui::ExplainScoresPanel* panel = window.explainScores();
        saveOnceWhen(
            panel, &ui::ExplainScoresPanel::measured, &window,
            [panel] { return panel->measures() && !panel->isBusy(); }, save);
    } else if (parser.isSet(options.contrast)) {  // the contrastive row shown
        saveOnceWhen(
            window.state(), &ui::DecodeState::explanationChanged, &window,
            [&window] {
                const auto& e = window.state()->explanation();
                return e && e->contrast;
            },
            save);
    } else if (window.explainMethod() != ExplainMethod::Attention) {  // --explain: its matrix shown
        QObject::connect(
            window.state(), &ui::DecodeState::explanationChanged, &window, [save] { save(true); },
            Qt::SingleShotConnection);
    } else {
        onFirstDecode(window, [save] { save(true); });
    }
}

void scheduleScreenshot(ui::MainWindow& window, const QCommandLineParser& parser, const Options& options,
                        StartupReport& report) {
    const QString file = parser.value(options.screenshot);
    const std::optional<int> at_step = integerIn(parser.value(options.step), 0, 100000);
    Save save = [&window, &report, file, at_step](bool decoded) {
        if (at_step) window.setCursorStep(*at_step);
        // Let the layout settle and the plots repaint before grabbing.
        QTimer::singleShot(400, &window, [&window, &report, file, decoded] {
            if (report.failed()) return;  // the program is ending with 1 already
            const bool ok = window.grab().save(file, "PNG");
            if (!ok) printProblems({QStringLiteral("cannot write ") + file});
            window.close();
            QApplication::exit(ok && decoded ? 0 : 1);
        });
    };
    saveWhenShown(window, parser, options, save);
    // head importance runs two decodes per head and line: minutes on a large corpus
    const int seconds = parser.isSet(options.head_importance) ? 600 : 20;
    QTimer::singleShot(seconds * 1000, &window, [save, seconds] {
        printProblems({QStringLiteral("nothing to show within %1 s; saving the window as it is").arg(seconds)});
        save(false);
    });
}

}  // namespace

void scheduleStartupActions(ui::MainWindow& window, const QCommandLineParser& parser, const Options& options,
                            StartupReport& report) {
    actOnFirstDecode(window, parser, options, report);
    if (parser.isSet(options.screenshot)) {
        scheduleScreenshot(window, parser, options, report);
    } else if (const std::optional<int> n = integerIn(parser.value(options.step), 0, 100000)) {
        onFirstDecode(window, [&window, n = *n] { window.setCursorStep(n); });
    }
}

}  // namespace attnviz::app
