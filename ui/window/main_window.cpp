#include "window/main_window.h"
#include "base/errors.h"
#include "window/dock_scroller.h"

#include "dialogs/model_library.h"
#include "heatmap/heatmap_view.h"
#include "heatmap/plot_palette.h"
#include "heatmap/utf8_text.h"
#include "io/model_file.h"
#include "state/decode_state.h"
#include "state/forcing_history.h"
#include "state/heatmap_binding.h"
#include "state/model_names.h"
#include "text/tokenizer.h"
#include "views/force_token_box.h"
#include "views/heatmap_marks.h"
#include "window/heatmap_actions.h"
#include "window/notice_line.h"
#include "window/output_line.h"
#include "window/reference_fold.h"
#include "window/reference_marker.h"
#include "window/siblings_menu.h"
#include "window/source_editor.h"
#include "window/status_line.h"
#include "window/step_panel.h"

#include <qcustomplot.h>
#include <QAction>
#include <QDir>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QVBoxLayout>

namespace attnviz::ui {

namespace {

// The notice line after a decode: what was left out, unknown words, forced decoding.
QString decodeNotes(const DecodeOutcome& outcome) {
    QStringList notes;
    if (outcome.source_tokens_cut > 0)
        notes << MainWindow::tr("The sentence is long: only its first %L1 tokens are decoded (%L2 more are left out).")
                     .arg(outcome.request.max_source_tokens)
                     .arg(outcome.source_tokens_cut);
    int unknown = 0;
    for (int id : outcome.source.ids) unknown += id == kUnk;
    if (unknown > 0)
        notes << MainWindow::tr("%n word(s) not in the model's vocabulary (underlined) become <unk>.", "", unknown);
    int unknown_reference = 0;  // forced decoding keeps the spelling of a reference word that became <unk>
    const DecodeResult& r = outcome.result;
    for (size_t i = 0; i < r.target_ids.size() && i < r.target_tokens.size(); ++i)
        unknown_reference += r.target_ids[i] == kUnk && r.target_tokens[i] != kSpecialTokens[kUnk];
    if (unknown_reference > 0)
        notes << MainWindow::tr(
            "%n word(s) of the reference not in the model's output vocabulary (underlined) become "
            "<unk>.",
            "", unknown_reference);
    if (!outcome.request.reference.empty()) notes << MainWindow::tr("Forced decoding of the reference translation.");
    return notes.join(u' ');
}

QString openModelHint() {
    return MainWindow::tr("Open a model (File ▸ Open, or File ▸ Model library) and type a sentence.");
}
QString typeSentenceHint() { return MainWindow::tr("Type a sentence above to see where the model looks."); }
QString decodeTime(const DecodeOutcome& outcome) {
    return MainWindow::tr("decoded in %1 ms").arg(outcome.milliseconds, 0, 'f', 1);
}
}  // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      state_(new DecodeState(this)),
      decodes_(new DecodeController(state_, this)),
      history_(new ForcingHistory(state_, this)) {
    setWindowIcon(QIcon(QStringLiteral(":/icons/attnviz.svg")));
    setAcceptDrops(true);
    play_timer_ = new QTimer(this);
    connect(play_timer_, &QTimer::timeout, this, [this] {
        if (cursorStep() >= stepCount())
            setPlaying(false);
        else
            step(Step::Forward);
    });
    connect(decodes_, &DecodeController::decoded, this, [this](const std::shared_ptr<const DecodeOutcome>& outcome) {
        describeDecode(*outcome);
        emit decodeFinished();
    });
    connect(decodes_, &DecodeController::failed, this, [this](const QString& message) {
        setNotice(message, true);  // the last heatmap stays; the sentence is the user's to fix
        emit decodeFinished();
    });
    connect(decodes_, &DecodeController::sentenceEmptied, this, [this] {
        clearDecode(typeSentenceHint());
        emit decodeFinished();
    });

    createCentralWidgets();
    createActions();
    createMenus();
    createToolBars();
    connectState();
    createExplainWorker();
    statusBar()->addWidget(status_line_ = new StatusLine(this), 1);
    statusBar()->addPermanentWidget(model_label_ = new QLabel(this));
    statusBar()->addPermanentWidget(time_label_ = new QLabel(this));
    readSettings();
    applyStyle();
    updateScoreActions();
    updateStatus();
    clearDecode(openModelHint());
}

MainWindow::~MainWindow() = default;

void MainWindow::createCentralWidgets() {
    source_ = new SourceEditor(this);
    reference_ = new QLineEdit(this);
    reference_->setClearButtonEnabled(true);
    reference_marker_ = new ReferenceMarker(reference_);
    notice_ = new NoticeLine(this);
    output_ = new OutputLine(this);

    heatmap_ = new HeatmapView(this);
    heatmap_->setFocusPolicy(Qt::StrongFocus);
    heatmap_->installEventFilter(this);
    if (heatmap_->plot()) heatmap_->plot()->installEventFilter(this);
    heatmap_actions_ = new HeatmapActions(heatmap_, state_, this);
    connect(heatmap_, &HeatmapView::contextMenuRequested, this, [this](int row, int col, const QPoint& at) {
        heatmap_actions_->showContextMenu(row, col, at, copy_act_, export_act_);
    });

    auto* form = new QFormLayout;
    auto* source_row = new QHBoxLayout;  // the sentence, and the button that folds the rows under it
    form->addRow(source_label_ = new QLabel(this), source_row);
    form->addRow(reference_label_ = new QLabel(this), reference_);
    source_label_->setBuddy(source_);
    reference_label_->setBuddy(reference_);
    createGoldLinks(form);
    reference_fold_ = new ReferenceFold(form, reference_, gold_links_, this);
    source_row->addWidget(source_, 1);
    source_row->addWidget(reference_fold_->button(), 0, Qt::AlignTop);
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->addLayout(form);
    layout->addWidget(notice_);
    layout->addWidget(output_);
    auto* heatmap_page = new QWidget(this);  // the heatmap's tab; the compare view's is beside it
    auto* heatmap_layout = new QVBoxLayout(heatmap_page);
    heatmap_layout->setContentsMargins(0, 0, 0, 0);
    heatmap_layout->addWidget(view_label_ = new QLabel(this));
    view_label_->hide();
    heatmap_layout->addWidget(heatmap_, 1);
    createCompareTab(heatmap_page);
    layout->addWidget(central_tabs_, 1);
    setCentralWidget(central);

    step_panel_ = new StepPanel(this);
    step_panel_->installEventFilter(this);
    step_panel_->barChart()->installEventFilter(this);
    step_panel_->candidateList()->installEventFilter(this);
    connect(step_panel_, &StepPanel::candidateChosen, this, &MainWindow::forceCandidate);
    connect(step_panel_, &StepPanel::contrastChosen, this, [this](int token) { explainContrast(token); });
    connect(step_panel_, &StepPanel::contrastCleared, this, [this] { explainContrast(std::nullopt); });
    force_box_ = new ForceTokenBox(this);
    auto* dock_contents = new QWidget(this);
    auto* dock_layout = new QVBoxLayout(dock_contents);
    dock_layout->setContentsMargins(0, 0, 0, 0);
    dock_layout->addWidget(step_panel_, 1);
    dock_layout->addWidget(force_box_);
    step_dock_ = new QDockWidget(this);
    step_dock_->setObjectName(QStringLiteral("StepDock"));
    step_dock_->setWidget(new DockScroller(dock_contents, step_dock_));
    addDockWidget(Qt::RightDockWidgetArea, step_dock_);
    // The right column (current step, inspector) runs the full height; the bottom docks (beam search, corpus, heads,
    // head importance) share the heatmap's column, so the right column's height does not squeeze them.
    setCorner(Qt::BottomRightCorner, Qt::RightDockWidgetArea);
    createBeamDock();
    createInspector();
    createExplainScoresDock();
    createCorpusDock();
    createHeadGridDock();
    createInterventionsDock();
    createHeadImportanceDock();
    retranslateCentralWidgets();
}

void MainWindow::retranslateCentralWidgets() {
    source_->setToolTip(
        tr("The sentence to translate; the heatmap follows as you type. Words the model does not "
           "know are underlined."));
    reference_->setPlaceholderText(tr("Optional: a translation to score instead of letting the model decode"));
    reference_->setToolTip(
        tr("When not empty, the model is forced onto this translation (teacher forcing) and the "
           "heatmap shows where it looks for each of its words."));
    source_label_->setText(tr("&Source:"));
    reference_label_->setText(tr("&Reference:"));
    reference_fold_->retranslate();
    step_dock_->setWindowTitle(tr("Current step"));
    beam_dock_->setWindowTitle(tr("Beam search"));
    retranslateCompare();
    corpus_dock_->setWindowTitle(tr("Corpus"));
    head_dock_->setWindowTitle(tr("Attention heads"));
    intervention_dock_->setWindowTitle(tr("Interventions"));
    showAttentionView();
    retranslateInspector();
    explain_scores_dock_->setWindowTitle(tr("Which explanation is right?"));
    head_importance_dock_->setWindowTitle(tr("Head importance"));
}

// The views observe the state; the text fields and the state follow each other (the decode controller decodes the
// state's edits).
void MainWindow::connectState() {
    bindHeatmap(heatmap_, state_);
    bindLabelMarks(heatmap_, state_);
    step_panel_->setDecodeState(state_);
    output_->setDecodeState(state_);
    force_box_->setDecodeState(state_);
    connect(force_box_, &ForceTokenBox::tokenChosen, this, &MainWindow::forceCandidate);
    connect(history_, &ForcingHistory::forcedTokensApplied, this, &MainWindow::decodeForced);
    connect(heatmap_, &HeatmapView::cellHovered, this, &MainWindow::showHoverStatus);
    // A click selects the cell (bindHeatmap), which the cell inspector explains; stepping stays on the toolbar and keys.
    connect(heatmap_, &HeatmapView::cellClicked, this, [this] { heatmap_->setFocus(); });

    connect(source_, &QPlainTextEdit::textChanged, this, [this] {
        leaveCorpusLineIfEdited(source_->text());
        state_->setSourceText(source_->text());
    });
    connect(state_, &DecodeState::sourceTextChanged, this, [this](const QString& text) {
        if (source_->text() != text) source_->setText(text);
    });
    connect(reference_, &QLineEdit::textChanged, state_, &DecodeState::setReferenceText);
    connect(state_, &DecodeState::referenceTextChanged, this, [this](const QString& text) {
        if (reference_->text() != text) reference_->setText(text);
    });

    connect(state_, &DecodeState::modelChanged, this, &MainWindow::modelChanged);
    connect(state_, &DecodeState::decodeChanged, this, &MainWindow::updateStepActions);
    connect(state_, &DecodeState::cursorChanged, this, &MainWindow::updateStepActions);
}

// ------------------------------------------------------------------------------------------------ the model

void MainWindow::openStartupModel(const QString& path) {
    QSettings settings;
    const QString last = settings.value(QStringLiteral("Session/lastModel"), QString()).toString();
    const QString last_sentence = settings.value(QStringLiteral("Session/lastSentence"), QString()).toString();
    QString chosen = path;
    if (chosen.isEmpty() && !last.isEmpty() && QFileInfo::exists(last)) chosen = last;
    if (chosen.isEmpty()) chosen = defaultSampleModel();
    if (chosen.isEmpty()) {
        setNotice(tr("No model is open and no sample models were found. Open one with File ▸ Open."), true);
        return;
    }
    if (!openModel(chosen)) return;
    setSourceText(chosen == last && !last_sentence.trimmed().isEmpty() ? last_sentence : firstSentence(*model()));
    decodeNow();
}

bool MainWindow::openModel(const QString& path) {
    std::shared_ptr<const Model> model;
    try {
        model = std::make_shared<const Model>(loadModel(QDir::toNativeSeparators(path).toStdString()));
    } catch (const std::exception& e) {
        reportLoadError(path, qs(errorMessage(e)));
        return false;
    }
    const std::shared_ptr<const Model> before = this->model();
    const bool other_task = before && before->task != model->task;
    setModel(model, path);
    if (other_task) {  // the sentence (and its reference) of another task would mean nothing to this model
        setReferenceText({});
        setSourceText(firstSentence(*model));
    }
    addRecentFile(path);
    decodeNow();
    return true;
}

void MainWindow::setModel(std::shared_ptr<const Model> model, const QString& path) {
    state_->setForcedTokens({});  // a "what if" belongs to the model it was asked of
    keepInterventionsFor(*model);
    state_->setModel(std::move(model), QFileInfo(path).absoluteFilePath());
}

void MainWindow::modelChanged() {
    source_->setModel(model());
    reference_marker_->setModel(model());
    findSiblingModels();
    setWindowTitle(tr("%1 — attnviz").arg(modelDisplayName(*model(), modelPath())));
    setWindowFilePath(modelPath());
    updateScoreActions();
    updateStatus();
    setExplainMethod(state_->explainMethod());  // rollout only for a Transformer
}

QString MainWindow::sizesText(const ModelConfig& c) {
    if (!c.isTransformer())
        return tr("Embedding size %1; hidden size %2 (encoder), %3 (decoder)")
            .arg(c.emb_dim)
            .arg(c.enc_hid_dim)
            .arg(c.dec_hid_dim);
    const TransformerConfig& t = c.transformer;
    if (t.sameHeads() && t.sameFeedForward())
        return tr("d_model %1, %2 heads, %3 encoder and %4 decoder layers, feed-forward %5")
            .arg(t.d_model)
            .arg(t.encoder_nhead)
            .arg(t.num_encoder_layers)
            .arg(t.num_decoder_layers)
            .arg(t.encoder_dim_feedforward);
    return tr("d_model %1; encoder: %2 layers, %3 heads, feed-forward %4; decoder: %5 layers, %6 heads, "
              "feed-forward %7")
        .arg(t.d_model)
        .arg(t.num_encoder_layers)
        .arg(t.encoder_nhead)
        .arg(t.encoder_dim_feedforward)
        .arg(t.num_decoder_layers)
        .arg(t.decoder_nhead)
        .arg(t.decoder_dim_feedforward);
}

void MainWindow::updateStatus() {
    if (!model()) {
        model_label_->setText(tr("No model"));
        return;
    }
    // Plain words in the bar; the sizes and the file in the tooltip.
    const Model& m = *model();
    const ModelConfig& c = m.config;
    model_label_->setText(tr("Model: %1 (%2 decoder, %3 scoring)")
                              .arg(m.marian         ? modelDisplayName(m, modelPath())
                                   : m.task.empty() ? QFileInfo(modelPath()).completeBaseName()
                                                    : qs(m.task),
                                   qs(toString(c.decoder)), ui::scoringName(c.score)));
    model_label_->setToolTip(tr("%1\n%2\nVocabularies: %L3 source and %L4 output tokens; %5 k parameters")
                                 .arg(QDir::toNativeSeparators(modelPath()), sizesText(c))
                                 .arg(m.source_vocab.size())
                                 .arg(m.target_vocab.size())
                                 .arg(double(m.parameterCount()) / 1000.0, 0, 'f', 1));
}

// ------------------------------------------------------------------------------------------------ decoding

std::shared_ptr<const Model> MainWindow::model() const { return state_->model(); }
QString MainWindow::modelPath() const { return state_->modelPath(); }
QString MainWindow::sourceText() const { return state_->sourceText(); }
void MainWindow::setSourceText(const QString& text) { state_->setSourceText(text); }
void MainWindow::setReferenceText(const QString& text) { state_->setReferenceText(text); }

void MainWindow::decodeNow() { decodes_->decodeNow(); }

// The decode shown in words: its time in the status bar, what was left out or refused on the notice line.
void MainWindow::describeDecode(const DecodeOutcome& outcome) {
    time_label_->setText(decodeTime(outcome));
    const QString refused = interventionNotice(outcome);
    setNotice(refused.isEmpty() ? decodeNotes(outcome) : refused, outcome.source_tokens_cut > 0 || !refused.isEmpty());
}

void MainWindow::clearDecode(const QString& hint) {
    setPlaying(false);
    decodes_->clear();
    step_panel_->setEmptyHint(hint);
    time_label_->clear();
    setNotice(hint);
}

void MainWindow::retranslateNotices() {
    if (const DecodeOutcome* shown = decodes_->outcome()) {
        describeDecode(*shown);
    } else if (!model()) {
        clearDecode(openModelHint());
    } else if (sourceText().trimmed().isEmpty()) {
        clearDecode(typeSentenceHint());
    }
}

// ------------------------------------------------------------------------------------------------ stepping

int MainWindow::cursorStep() const { return state_->cursor(); }
int MainWindow::stepCount() const { return state_->stepCount(); }
void MainWindow::setCursorStep(int cursor) { state_->setCursor(cursor); }

void MainWindow::step(Step which) {
    switch (which) {
    case Step::First:
        setCursorStep(0);
        break;
    case Step::Back:
        setCursorStep(cursorStep() - 1);
        break;
    case Step::Forward:
        setCursorStep(cursorStep() + 1);
        break;
    case Step::Last:
        setCursorStep(stepCount());
        break;
    }
}

void MainWindow::setPlaying(bool on) {
    if (on && state_->hasDecode()) {
        if (cursorStep() >= stepCount()) setCursorStep(0);  // play again from the start
        play_timer_->start(int(1000.0 / speed_->value()));
    } else {
        play_timer_->stop();
    }
    play_act_->setChecked(play_timer_->isActive());
    play_act_->setText(play_timer_->isActive() ? tr("&Pause") : tr("&Play"));
    play_act_->setIcon(
        play_timer_->isActive()
            ? QIcon::fromTheme(QStringLiteral("media-playback-pause"), QIcon(QStringLiteral(":/icons/pause.svg")))
            : QIcon::fromTheme(QStringLiteral("media-playback-start"), QIcon(QStringLiteral(":/icons/play.svg"))));
}

bool MainWindow::isPlaying() const { return play_timer_->isActive(); }

void MainWindow::updateStepActions() {
    const int cursor = cursorStep(), T = stepCount();
    first_act_->setEnabled(cursor > 0);
    back_act_->setEnabled(cursor > 0);
    forward_act_->setEnabled(cursor < T);
    last_act_->setEnabled(cursor < T);
    play_act_->setEnabled(T > 0);
}

// ------------------------------------------------------------------------------------------------ messages

void MainWindow::setNotice(const QString& text, bool warning) {
    notice_->setText(text);
    notice_->setVisible(!source_->isCompact() || !text.isEmpty());  // a short window keeps no room for none
    notice_warning_ = warning;
    notice_->setStyleSheet(warning ? warningStyleSheet(palette()) : QString());
    notice_->setToolTip(text);  // the whole of a notice longer than its two lines
}

QString MainWindow::noticeText() const { return notice_->text(); }

void MainWindow::reportError(const QString& title, const QString& text) {
    showStatus(text, 10000);
    emit errorReported(text);
    if (interactive_) QMessageBox::warning(this, title, text);
}

}  // namespace attnviz::ui
