#include "gui_startup.h"

#include "eval/compare_heads.h"
#include "gui_check.h"
#include "state/decode_state.h"
#include "training/training_form.h"
#include "training/training_window.h"
#include "views/beam_tree.h"
#include "views/compare_view.h"
#include "views/gold_links_panel.h"
#include "views/head_choice_box.h"
#include "views/head_grid.h"
#include "views/head_importance_panel.h"
#include "window/main_window.h"

#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QSpinBox>
#include <QTimer>

#include <memory>

namespace attnviz::app {

void StartupReport::problems(const QStringList& lines) {
    if (lines.isEmpty()) return;
    printProblems(lines);
    if (!fatal_) return;
    failed_ = true;
    QCoreApplication::exit(1);  // a running event loop ends; before it runs, main sees failed()
}

namespace {

// --heads KIND shows the head grid dock on that attention; --head L,H (from 1, H may be "mean") shows that thumbnail
// in the heatmap once the first decode is shown. Values of the wrong form were named by valueProblems.
void showHeads(ui::MainWindow& window, const QCommandLineParser& parser, const Options& options) {
    const std::optional<AttentionKind> kind = headKindFromName(parser.value(options.heads).toStdString());
    if (!parser.isSet(options.heads) || !kind) return;
    window.headGrid()->setKind(*kind);
    window.headDock()->show();
    if (!parser.isSet(options.head)) return;
    AttentionView view;
    try {
        view = parseHeadChoice(parser.value(options.head).toStdString());
    } catch (const std::exception&) {
        return;
    }
    view.kind = *kind;
    window.headGrid()->setAveraged(view.head < 0);
    QObject::connect(
        &window, &ui::MainWindow::decodeFinished, &window, [&window, view] { window.state()->setAttentionView(view); },
        Qt::SingleShotConnection);
}

// --hypothesis N (with --beam) shows the N-th best finished hypothesis of the first search that has N of them (the
// first decodes may be of no sentence yet).
void showHypothesis(ui::MainWindow& window, const QCommandLineParser& parser, const Options& options) {
    const std::optional<int> n = integerIn(parser.value(options.hypothesis), 1, 32);
    if (!parser.isSet(options.hypothesis) || !n || !parser.isSet(options.beam)) return;
    ui::BeamTreeView* view = window.beamTree();
    auto done = std::make_shared<bool>(false);
    QObject::connect(view, &ui::BeamTreeView::searched, view, [view, n = *n, done] {
        const BeamResult* tree = view->result();
        if (*done || !tree || int(tree->finished.size()) < n) return;
        *done = true;
        const int node = tree->finished[size_t(n) - 1];
        QTimer::singleShot(0, view, [view, node] { view->showNode(node); });  // once every view has this decode
    });
}

// --compare-head-a / --compare-head-b: the compare view's choosers (as `attnviz-cli compare --head-a/--head-b`).
void chooseCompareHeads(ui::MainWindow& window, const QCommandLineParser& parser, const Options& options,
                        StartupReport& report) {
    ui::CompareView* view = window.compareView();
    for (const auto& [option, box] :
         {std::pair{&options.compare_head_a, view->headBoxA()}, std::pair{&options.compare_head_b, view->headBoxB()}}) {
        if (!parser.isSet(*option)) continue;
        try {
            if (!box->setChoice(parseHeadChoice(parser.value(*option).toStdString())))
                report.problem(flagName(*option) + ": that model has no such layer and head (or no heads at all)");
        } catch (const std::exception&) {
            // of the wrong form: valueProblems said so
        }
    }
}

// --compare B: the compare view in a bottom dock, with model B or method:NAME of the model.
void showCompare(ui::MainWindow& window, const QCommandLineParser& parser, const Options& options,
                 StartupReport& report) {
    if (!parser.isSet(options.compare)) return;
    window.showCompare();
    const QString b = parser.value(options.compare);
    if (const std::optional<QString> name = compareMethodName(b)) {
        const auto method = methodFromName(name->toStdString());
        if (!method || !window.compareView()->setMethodB(*method))
            report.problem(flagName(options.compare) + ": the model has no explanation method " + *name);
    } else if (!window.compareView()->setModelB(b)) {
        report.problem(window.compareView()->errorText());
    }
    chooseCompareHeads(window, parser, options, report);
}

// --head-importance N: the dock shown and computed on the first N lines (after --corpus, whose lines it takes).
void computeHeadImportance(ui::MainWindow& window, const QCommandLineParser& parser, const Options& options,
                           StartupReport& report) {
    const std::optional<int> lines = integerIn(parser.value(options.head_importance), 1, 200000);
    if (!lines) return;
    window.headImportanceDock()->show();
    window.headImportanceDock()->raise();
    ui::HeadImportancePanel* panel = window.headImportance();
    panel->linesBox()->setValue(*lines);
    if (!panel->compute()) report.problem("head importance: " + panel->statusText());
}

// --explain, --explain-scores, --reference, --gold, --sentence and the interventions (of the sentence: after it),
// each refused with attnviz-cli's reason when the open model or the sentence cannot take it; then the decode.
void setDecodeRequest(ui::MainWindow& window, const QCommandLineParser& parser, const Options& options,
                      StartupReport& report) {
    const std::shared_ptr<const Model> model = window.model();
    if (parser.isSet(options.explain) && model) {
        const QString name = parser.value(options.explain);
        const QString why = methodProblem(name, *model);
        if (!why.isEmpty())
            report.problem(flagName(options.explain) + ": " + why);
        else if (const auto method = methodFromName(name.toStdString()))
            window.setExplainMethod(*method);
    }
    if (parser.isSet(options.explain_scores)) {
        window.explainScoresDock()->show();
        window.explainScoresDock()->raise();
    }
    if (parser.isSet(options.reference)) window.setReferenceText(parser.value(options.reference));
    if (parser.isSet(options.gold)) window.goldLinks()->setLinks(parser.value(options.gold));
    if (parser.isSet(options.sentence)) window.setSourceText(parser.value(options.sentence));
    Interventions iv;
    try {
        iv = interventionsOf(parser, options);
    } catch (const std::exception&) {
        // of the wrong form: valueProblems said so
    }
    const QString refused = model ? interventionProblem(parser, options, *model, window.sourceText()) : QString();
    if (!refused.isEmpty())
        report.problem(refused);
    else if (!iv.empty())
        window.setInterventions(iv);
    if (parser.isSet(options.sentence) || !window.state()->interventions().empty()) window.decodeNow();
}

}  // namespace

void prepareWindow(ui::MainWindow& window, const QCommandLineParser& parser, const Options& options) {
    if (const std::optional<QSize> size = windowSize(parser.value(options.size)); parser.isSet(options.size) && size)
        window.resize(*size);
    if (parser.isSet(options.coverage)) window.diagnosticsAction()->setChecked(true);
    if (parser.isSet(options.words)) window.state()->setShowsWords(true);  // kept when the model is not SentencePiece
    window.show();
    if (const std::optional<int> k = integerIn(parser.value(options.beam), 1, 32); parser.isSet(options.beam) && k) {
        if (const std::optional<double> a =
                numberIn(parser.value(options.length_penalty), -ui::kMaxLengthPenalty, ui::kMaxLengthPenalty);
            a)
            window.beamTree()->lengthPenaltyBox()->setValue(*a);
        window.beamTree()->setBeamWidth(*k);
        window.beamDock()->show();
    }
    showHeads(window, parser, options);  // before the screenshot's handler: connections run in order
    showHypothesis(window, parser, options);
}

void openStartupContent(ui::MainWindow& window, const QCommandLineParser& parser, const Options& options,
                        StartupReport& report) {
    const QStringList args = parser.positionalArguments();
    window.openStartupModel(args.value(0));
    setDecodeRequest(window, parser, options, report);
    showCompare(window, parser, options, report);
    if (parser.isSet(options.corpus)) window.openCorpus(parser.value(options.corpus));  // errorReported says why not
    if (parser.isSet(options.head_importance)) computeHeadImportance(window, parser, options, report);
}

void trainOnStartup(ui::MainWindow& window, const QCommandLineParser& parser, const Options& options,
                    StartupReport& report) {
    ui::TrainingWindow* training = window.showTrainingWindow();
    if (parser.isSet(options.train_kind)) {  // before the corpus, whose defaults follow the kind
        QComboBox* kind = training->form()->decoderBox();
        if (const int index = kind->findData(parser.value(options.train_kind)); index >= 0)
            kind->setCurrentIndex(index);
    }
    training->form()->setCorpusFile(parser.value(options.train));
    if (parser.isSet(options.screenshot) || parser.isSet(options.check))  // never a dialog: an occupied folder is kept
        training->setReplaceQuestion([](const QString&) { return false; });
    if (!training->start()) report.problem(training->lastError());
    if (!parser.isSet(options.screenshot) || report.failed()) return;
    const QString file = parser.value(options.screenshot);
    auto save = [training, file] {
        QTimer::singleShot(600, training, [training, file] {  // the curves' last replot and the layout settle
            const bool ok = training->grab().save(file, "PNG");
            if (!ok) printProblems({QStringLiteral("cannot write ") + file});
            QApplication::exit(ok && training->lastError().isEmpty() ? 0 : 1);
        });
    };
    if (!training->isRunning()) save();
    QObject::connect(training, &ui::TrainingWindow::trainingFinished, training, save);
}

}  // namespace attnviz::app
