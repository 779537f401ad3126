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
// ends). `--help`, `--version` and `--check` (gui_options.h) work without a display.
#include "attnviz_version.h"
#include "dialogs/getting_started.h"
#include "eval/compare_heads.h"
#include "gui_options.h"
#include "heatmap/heatmap_view.h"
#include "model/intervention_flags.h"
#include "state/decode_state.h"
#include "training/training_form.h"
#include "training/training_window.h"
#include "views/beam_tree.h"
#include "views/compare_view.h"
#include "views/corpus_browser.h"
#include "views/explain_scores_panel.h"
#include "views/gold_links_panel.h"
#include "views/head_choice_box.h"
#include "views/head_grid.h"
#include "views/head_importance_panel.h"
#include "window/language.h"
#include "window/main_window.h"
#include "window/theme.h"

#include <QApplication>
#include <QComboBox>
#include <QCommandLineParser>
#include <QDockWidget>
#include <QSpinBox>
#include <QTimer>

#include <cstdio>
#include <functional>
#include <memory>
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

// --heads KIND shows the head grid dock on that attention; --head L,H (from 1, H may be "mean") shows that thumbnail
// in the heatmap once the first decode is shown.
void showHeads(attnviz::ui::MainWindow& window, const QCommandLineParser& parser, const Options& options) {
    using attnviz::AttentionKind;
    if (!parser.isSet(options.heads)) return;
    const QString kind = parser.value(options.heads);
    if (kind != "cross" && kind != "encoder" && kind != "decoder")
        return (void)std::fprintf(stderr, "attnviz: --heads wants cross, encoder or decoder\n");
    const AttentionKind k = kind == "cross"     ? AttentionKind::Cross
                            : kind == "encoder" ? AttentionKind::EncoderSelf
                                                : AttentionKind::DecoderSelf;
    window.headGrid()->setKind(k);
    window.headDock()->show();
    if (!parser.isSet(options.head)) return;
    attnviz::AttentionView view;
    try {
        view = attnviz::parseHeadChoice(parser.value(options.head).toStdString());
    } catch (const std::exception& e) {
        return (void)std::fprintf(stderr, "attnviz: --head %s\n", e.what());
    }
    view.kind = k;
    window.headGrid()->setAveraged(view.head < 0);
    QObject::connect(
        &window, &attnviz::ui::MainWindow::decodeFinished, &window,
        [&window, view] { window.state()->setAttentionView(view); }, Qt::SingleShotConnection);
}

// --compare-head-a / --compare-head-b: the compare view's choosers (as `attnviz-cli compare --head-a/--head-b`).
void chooseCompareHeads(attnviz::ui::MainWindow& window, const QCommandLineParser& parser, const Options& options) {
    attnviz::ui::CompareView* view = window.compareView();
    for (const auto& [option, box] :
         {std::pair{&options.compare_head_a, view->headBoxA()}, std::pair{&options.compare_head_b, view->headBoxB()}}) {
        if (!parser.isSet(*option)) continue;
        const QString flag = QStringLiteral("--") + option->names().constFirst();
        try {
            if (!box->setChoice(attnviz::parseHeadChoice(parser.value(*option).toStdString())))
                std::fprintf(stderr, "attnviz: %s: that model has no such layer and head (or no heads at all)\n",
                             qPrintable(flag));
        } catch (const std::exception& e) {
            std::fprintf(stderr, "attnviz: %s %s\n", qPrintable(flag), e.what());
        }
    }
}

// --hypothesis N (with --beam) shows the N-th best finished hypothesis of the first search that has N of them (the
// first decodes may be of no sentence yet).
void showHypothesis(attnviz::ui::MainWindow& window, const QCommandLineParser& parser, const Options& options) {
    if (!parser.isSet(options.hypothesis)) return;
    bool ok = false;
    const int n = parser.value(options.hypothesis).toInt(&ok);
    if (!ok || n < 1 || !parser.isSet(options.beam))
        return (void)std::fprintf(stderr, "attnviz: --hypothesis wants a rank from 1, with --beam\n");
    attnviz::ui::BeamTreeView* view = window.beamTree();
    auto done = std::make_shared<bool>(false);
    QObject::connect(view, &attnviz::ui::BeamTreeView::searched, view, [view, n, done] {
        const attnviz::BeamResult* tree = view->result();
        if (*done || !tree || int(tree->finished.size()) < n) return;
        *done = true;
        const int node = tree->finished[size_t(n) - 1];
        QTimer::singleShot(0, view, [view, node] { view->showNode(node); });  // once every view has this decode
    });
}

// --knockout, --attend, --head-off (as the CLI's, core's parser): the window's interventions before its decode.
void setInterventions(attnviz::ui::MainWindow& window, const QCommandLineParser& parser, const Options& options) {
    attnviz::Interventions iv;
    try {
        for (const QString& v : parser.values(options.knockout)) attnviz::addKnockoutFlag(v.toStdString(), iv);
        for (const QString& v : parser.values(options.attend)) attnviz::addAttendFlag(v.toStdString(), iv);
        for (const QString& v : parser.values(options.head_off)) attnviz::addHeadOffFlag(v.toStdString(), iv);
    } catch (const std::exception& e) {
        return (void)std::fprintf(stderr, "attnviz: %s\n", e.what());
    }
    if (!iv.empty()) window.setInterventions(iv);
}

// --head-importance N: the dock shown and computed on the first N lines (after --corpus, whose lines it takes).
void computeHeadImportance(attnviz::ui::MainWindow& window, const QCommandLineParser& parser, const Options& options) {
    bool ok = false;
    const int lines = parser.value(options.head_importance).toInt(&ok);
    if (!ok || lines < 1)
        return (void)std::fprintf(stderr, "attnviz: --head-importance wants a number of lines (1 or more)\n");
    window.headImportanceDock()->show();
    window.headImportanceDock()->raise();
    attnviz::ui::HeadImportancePanel* panel = window.headImportance();
    panel->linesBox()->setValue(lines);
    if (!panel->compute()) std::fprintf(stderr, "attnviz: head importance: %s\n", qPrintable(panel->statusText()));
}

// Saves the screenshot (save(true)) the first time `signal` of `sender` comes with `ready()` true; later signals
// save nothing.
template <class Sender, class Signal>
void saveOnceWhen(Sender* sender, Signal signal, QObject* context, std::function<bool()> ready,
                  std::function<void(bool)> save) {
    auto saved = std::make_shared<bool>(false);
    QObject::connect(sender, signal, context, [ready, save, saved] {
        if (*saved || !ready()) return;
        *saved = true;
        save(true);
    });
}

// What the command line asks of the window once it shows a decode: a cell inspected (--select), a screenshot saved
// (--screenshot, then the program ends) or a step shown (--step).
void scheduleStartupActions(attnviz::ui::MainWindow& window, const QCommandLineParser& parser, const Options& options) {
    const QCommandLineOption& step = options.step;
    const QCommandLineOption& screenshot = options.screenshot;
    if (parser.isSet(options.select)) {  // before the screenshot's handler: connections run in order
        const QStringList cell = parser.value(options.select).split(u',');
        bool row_ok = false, col_ok = false;
        const int row = cell.value(0).toInt(&row_ok), col = cell.value(1).toInt(&col_ok);
        if (cell.size() != 2 || !row_ok || !col_ok)
            std::fprintf(stderr, "attnviz: --select wants row,column (e.g. 2,3), got %s\n",
                         qPrintable(parser.value(options.select)));
        else
            QObject::connect(
                &window, &attnviz::ui::MainWindow::decodeFinished, &window,
                [&window, row, col] { window.state()->setSelection(row, col); }, Qt::SingleShotConnection);
    }
    const std::optional<attnviz::app::ForceAt> force = attnviz::app::forceAt(parser.value(options.force));
    if (force) {  // before the screenshot's handler, too
        QObject::connect(
            &window, &attnviz::ui::MainWindow::decodeFinished, &window,
            [&window, at = *force] {
                window.setCursorStep(at.step);
                const auto model = window.state()->decodedModel();
                const std::string token = at.token.toStdString();
                if (model && model->target_vocab.contains(token) && window.cursorStep() == at.step)
                    window.forceCandidate(model->target_vocab.id(token));
                else
                    std::fprintf(stderr, "attnviz: --force: cannot force %s at step %d\n", token.c_str(), at.step);
            },
            Qt::SingleShotConnection);
    }
    if (parser.isSet(options.contrast) && parser.isSet(step)) {  // before the screenshot's handler, too
        QObject::connect(
            &window, &attnviz::ui::MainWindow::decodeFinished, &window,
            [&window, token = parser.value(options.contrast).toStdString(), n = parser.value(step).toInt()] {
                window.setCursorStep(n);
                const auto model = window.state()->decodedModel();
                if (model && model->target_vocab.contains(token))
                    window.explainContrast(model->target_vocab.id(token));
                else
                    std::fprintf(stderr, "attnviz: --contrast: %s is not in the model's output vocabulary\n",
                                 token.c_str());
            },
            Qt::SingleShotConnection);
    }
    if (parser.isSet(screenshot)) {
        const QString file = parser.value(screenshot);
        const int at_step = parser.isSet(step) ? parser.value(step).toInt() : -1;
        auto save = [&window, file, at_step](bool decoded) {
            if (at_step >= 0) window.setCursorStep(at_step);
            // Let the layout settle and the plots repaint before grabbing.
            QTimer::singleShot(400, &window, [&window, file, decoded] {
                const bool ok = window.grab().save(file, "PNG");
                if (!ok) std::fprintf(stderr, "attnviz: cannot write %s\n", qPrintable(file));
                window.close();
                QApplication::exit(ok && decoded ? 0 : 1);
            });
        };
        if (parser.isSet(options.head_importance)) {  // the heads' numbers shown (on --corpus's lines, if given)
            QObject::connect(
                window.headImportance(), &attnviz::ui::HeadImportancePanel::computed, &window, [save] { save(true); },
                Qt::SingleShotConnection);
        } else if (parser.isSet(options.corpus)) {  // the corpus scored, then its first line decoded
            attnviz::ui::CorpusBrowser* browser = window.corpusBrowser();
            QObject::connect(
                browser, &attnviz::ui::CorpusBrowser::scoringFinished, &window,
                [&window, browser, save] {
                    QObject::connect(
                        &window, &attnviz::ui::MainWindow::decodeFinished, &window, [save] { save(true); },
                        Qt::SingleShotConnection);
                    browser->openRow(0);
                },
                Qt::SingleShotConnection);
        } else if (attnviz::app::compareMethodName(parser.value(options.compare))) {  // B, the method's matrix, shown
            attnviz::ui::CompareView* view = window.compareView();
            saveOnceWhen(
                view, &attnviz::ui::CompareView::comparisonChanged, &window,
                [view] { return view->decodeB() && view->methodB(); }, save);
        } else if (force) {  // the decode that follows the forced token shown
            saveOnceWhen(
                &window, &attnviz::ui::MainWindow::decodeFinished, &window,
                [&window, row = force->step - 1] {
                    return window.heatmapView()->labelMarks().forced_rows.contains(row);
                },
                save);
        } else if (parser.isSet(options.explain_scores)) {  // every method measured on the decode shown
            attnviz::ui::ExplainScoresPanel* panel = window.explainScores();
            saveOnceWhen(
                panel, &attnviz::ui::ExplainScoresPanel::measured, &window,
                [panel] { return panel->measures() && !panel->isBusy(); }, save);
        } else if (parser.isSet(options.contrast)) {  // the contrastive row shown
            saveOnceWhen(
                window.state(), &attnviz::ui::DecodeState::explanationChanged, &window,
                [&window] {
                    const auto& e = window.state()->explanation();
                    return e && e->contrast;
                },
                save);
        } else if (window.explainMethod() != attnviz::ExplainMethod::Attention) {  // --explain: its matrix shown
            QObject::connect(
                window.state(), &attnviz::ui::DecodeState::explanationChanged, &window, [save] { save(true); },
                Qt::SingleShotConnection);
        } else {
            QObject::connect(
                &window, &attnviz::ui::MainWindow::decodeFinished, &window, [save] { save(true); },
                Qt::SingleShotConnection);
        }
        // head importance runs two decodes per head and line: minutes on a large corpus
        const int seconds = parser.isSet(options.head_importance) ? 600 : 20;
        QTimer::singleShot(seconds * 1000, &window, [save, seconds] {
            std::fprintf(stderr, "attnviz: nothing to show within %d s; saving the window as it is\n", seconds);
            save(false);
        });
    } else if (parser.isSet(step)) {
        QObject::connect(
            &window, &attnviz::ui::MainWindow::decodeFinished, &window,
            [&window, n = parser.value(step).toInt()] { window.setCursorStep(n); }, Qt::SingleShotConnection);
    }
}

// --train CORPUS: the training window with the corpus's defaults (for the --train-kind), started; --screenshot saves that window once the
// training has ended (then the program ends).
void trainOnStartup(attnviz::ui::MainWindow& window, const QCommandLineParser& parser, const Options& options) {
    attnviz::ui::TrainingWindow* training = window.showTrainingWindow();
    if (parser.isSet(options.train_kind)) {  // before the corpus, whose defaults follow the kind
        QComboBox* kind = training->form()->decoderBox();
        const int index = kind->findData(parser.value(options.train_kind));
        if (index >= 0)
            kind->setCurrentIndex(index);
        else
            std::fprintf(stderr, "attnviz: unknown model kind %s (bahdanau, luong, transformer)\n",
                         qPrintable(parser.value(options.train_kind)));
    }
    training->form()->setCorpusFile(parser.value(options.train));
    if (!training->start()) std::fprintf(stderr, "attnviz: %s\n", qPrintable(training->lastError()));
    if (!parser.isSet(options.screenshot)) return;
    const QString file = parser.value(options.screenshot);
    auto save = [training, file] {
        QTimer::singleShot(600, training, [training, file] {  // the curves' last replot and the layout settle
            const bool ok = training->grab().save(file, "PNG");
            if (!ok) std::fprintf(stderr, "attnviz: cannot write %s\n", qPrintable(file));
            QApplication::exit(ok && training->lastError().isEmpty() ? 0 : 1);
        });
    };
    if (!training->isRunning()) save();
    QObject::connect(training, &attnviz::ui::TrainingWindow::trainingFinished, training, save);
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
    // The saved choices of View → Theme and View → Language (the language follows the system locale by default),
    // unless the command line names one for this run (screenshots).
    if (parser.isSet(options.theme))
        attnviz::ui::setTheme(attnviz::ui::themeFromKey(parser.value(options.theme)));
    else
        attnviz::ui::applySavedTheme();
    if (!parser.isSet(options.language))
        attnviz::ui::applySavedLanguage();
    else if (!attnviz::ui::setLanguage(parser.value(options.language)))
        std::fprintf(stderr, "attnviz: unknown language %s (en, zh_CN)\n", qPrintable(parser.value(options.language)));
    const QCommandLineOption& sentence = options.sentence;

    attnviz::ui::MainWindow window;
    const QStringList args = parser.positionalArguments();
    if (parser.isSet(options.size)) {
        const QStringList wh = parser.value(options.size).split(u'x');
        const int w = wh.value(0).toInt(), h = wh.value(1).toInt();
        if (wh.size() != 2 || w <= 0 || h <= 0)
            std::fprintf(stderr, "attnviz: --size wants WIDTHxHEIGHT (e.g. 800x600), got %s\n",
                         qPrintable(parser.value(options.size)));
        else
            window.resize(w, h);
    }
    if (parser.isSet(options.coverage)) window.diagnosticsAction()->setChecked(true);
    window.show();
    if (parser.isSet(options.beam)) {
        window.beamTree()->setBeamWidth(parser.value(options.beam).toInt());
        window.beamDock()->show();
    }
    showHeads(window, parser, options);  // before the screenshot's handler: connections run in order
    showHypothesis(window, parser, options);
    window.openStartupModel(args.value(0));
    if (parser.isSet(options.explain)) {
        const auto method = attnviz::methodFromName(parser.value(options.explain).toStdString());
        if (!method)
            std::fprintf(stderr, "attnviz: --explain: unknown method %s\n", qPrintable(parser.value(options.explain)));
        else
            window.setExplainMethod(*method);
    }
    if (parser.isSet(options.explain_scores)) {
        window.explainScoresDock()->show();
        window.explainScoresDock()->raise();
    }
    if (parser.isSet(options.reference)) window.setReferenceText(parser.value(options.reference));
    if (parser.isSet(options.gold)) window.goldLinks()->setLinks(parser.value(options.gold));
    if (parser.isSet(sentence)) window.setSourceText(parser.value(sentence));
    setInterventions(window, parser, options);  // of the sentence: after it, before its decode
    if (parser.isSet(sentence) || !window.state()->interventions().empty()) window.decodeNow();
    if (parser.isSet(options.compare)) {
        window.showCompare();
        const QString b = parser.value(options.compare);
        if (const std::optional<QString> name = attnviz::app::compareMethodName(b)) {
            const auto method = attnviz::methodFromName(name->toStdString());
            if (!method || !window.compareView()->setMethodB(*method))
                std::fprintf(stderr, "attnviz: --compare: the model has no explanation method %s\n", qPrintable(*name));
        } else if (!window.compareView()->setModelB(b)) {
            std::fprintf(stderr, "attnviz: %s\n", qPrintable(window.compareView()->errorText()));
        }
    }
    chooseCompareHeads(window, parser, options);

    if (parser.isSet(options.corpus)) {
        if (!window.openCorpus(parser.value(options.corpus)))
            std::fprintf(stderr, "attnviz: %s\n", qPrintable(window.corpusBrowser()->errorText()));
    }
    if (parser.isSet(options.head_importance)) computeHeadImportance(window, parser, options);
    if (parser.isSet(options.train))
        trainOnStartup(window, parser, options);
    else
        scheduleStartupActions(window, parser, options);
    // A first start: the Getting started page beside the window (not for a screenshot, which is saved and quits).
    if (!parser.isSet(options.screenshot) && attnviz::ui::gettingStartedDue()) window.showGettingStarted();
    return QApplication::exec();
}
