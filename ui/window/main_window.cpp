#include "window/main_window.h"

#include "dialogs/model_library.h"
#include "heatmap/heatmap_view.h"
#include "io/model_file.h"
#include "text/tokenizer.h"
#include "window/source_editor.h"
#include "window/step_panel.h"

#include <qcustomplot.h>
#include <QAction>
#include <QActionGroup>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTimer>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace attnviz::ui {

namespace {
QString qs(std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }
}  // namespace

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent), worker_(new DecodeWorker(this)) {
    setWindowIcon(QIcon(QStringLiteral(":/icons/attnviz.svg")));
    setAcceptDrops(true);
    play_timer_ = new QTimer(this);
    connect(play_timer_, &QTimer::timeout, this, [this] {
        if (cursor_ >= stepCount())
            setPlaying(false);
        else
            step(Step::Forward);
    });
    connect(worker_, &DecodeWorker::finished, this, &MainWindow::showOutcome);

    createCentralWidgets();
    createActions();
    createMenus();
    createToolBars();
    statusBar()->addPermanentWidget(model_label_ = new QLabel(this));
    statusBar()->addPermanentWidget(time_label_ = new QLabel(this));
    readSettings();
    applyStyle();
    updateScoreActions();
    updateStatus();
    clearDecode(tr("Open a model (File ▸ Open, or File ▸ Sample models) and type a sentence."));
}

MainWindow::~MainWindow() = default;

void MainWindow::createCentralWidgets() {
    source_ = new SourceEditor(this);
    source_->setToolTip(
        tr("The sentence to translate; the heatmap follows as you type. Words the model does not "
           "know are underlined."));
    connect(source_, &QPlainTextEdit::textChanged, this, &MainWindow::sourceChanged);
    reference_ = new QLineEdit(this);
    reference_->setClearButtonEnabled(true);
    reference_->setPlaceholderText(tr("Optional: a translation to score instead of letting the model decode"));
    reference_->setToolTip(
        tr("When not empty, the model is forced onto this translation (teacher forcing) and the "
           "heatmap shows where it looks for each of its words."));
    connect(reference_, &QLineEdit::textChanged, this, &MainWindow::sourceChanged);
    notice_ = new QLabel(this);
    notice_->setWordWrap(true);
    output_ = new QLabel(this);
    output_->setWordWrap(true);
    output_->setTextFormat(Qt::RichText);
    output_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    heatmap_ = new HeatmapView(this);
    heatmap_->setFocusPolicy(Qt::StrongFocus);
    heatmap_->installEventFilter(this);
    if (heatmap_->plot()) heatmap_->plot()->installEventFilter(this);
    connect(heatmap_, &HeatmapView::cellClicked, this, [this](int row, int) {
        if (row >= 0) setCursorStep(row + 1);
        heatmap_->setFocus();
    });

    auto* form = new QFormLayout;
    form->addRow(tr("&Source:"), source_);
    form->addRow(tr("&Reference:"), reference_);
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->addLayout(form);
    layout->addWidget(notice_);
    layout->addWidget(output_);
    layout->addWidget(heatmap_, 1);
    setCentralWidget(central);

    step_panel_ = new StepPanel(this);
    step_panel_->installEventFilter(this);
    step_panel_->barChart()->installEventFilter(this);
    step_panel_->candidateList()->installEventFilter(this);
    connect(step_panel_, &StepPanel::candidateChosen, this, &MainWindow::forceCandidate);
    auto* dock = new QDockWidget(tr("Current step"), this);
    dock->setObjectName(QStringLiteral("StepDock"));
    dock->setWidget(step_panel_);
    addDockWidget(Qt::RightDockWidgetArea, dock);
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
    QString sentence;
    if (chosen == last && !last_sentence.trimmed().isEmpty()) {
        sentence = last_sentence;
    } else {
        const auto ex = model_->extra_metadata.find("example");
        sentence = exampleSentence(qs(model_->task), ex == model_->extra_metadata.end() ? QString() : qs(ex->second));
        if (sentence.isEmpty()) {  // a few words the model knows
            QStringList words;
            for (int i = 4; i < model_->source_vocab.size() && words.size() < 5; ++i)
                words << qs(model_->source_vocab.token(i));
            sentence = words.join(u' ');
        }
    }
    source_->setText(sentence);
    decodeNow();
}

bool MainWindow::openModel(const QString& path) {
    std::shared_ptr<const Model> model;
    try {
        model = std::make_shared<const Model>(loadModel(QDir::toNativeSeparators(path).toStdString()));
    } catch (const std::exception& e) {
        reportError(tr("Cannot open model"),
                    tr("Could not open the model %1.\n\n%2").arg(QDir::toNativeSeparators(path), qs(e.what())));
        return false;
    }
    setModel(std::move(model), path);
    addRecentFile(path);
    decodeNow();
    return true;
}

void MainWindow::setModel(std::shared_ptr<const Model> model, const QString& path) {
    model_ = std::move(model);
    model_path_ = QFileInfo(path).absoluteFilePath();
    source_->setModel(model_);
    siblings_.clear();
    for (const Sibling& s : findSiblings(model_path_.toStdString(), *model_)) {
        // Among several siblings with one score prefer the one that differs from this model only in the score.
        const QString p = qs(s.path);
        const bool same_kind = s.config.decoder == model_->config.decoder && s.config.span == model_->config.span;
        auto it = siblings_.find(s.config.score);
        if (it == siblings_.end() || (same_kind && QFileInfo(it->second).absoluteFilePath() != model_path_))
            siblings_[s.config.score] = p;
    }
    siblings_[model_->config.score] = model_path_;
    setWindowTitle(tr("%1 — attnviz").arg(QFileInfo(path).fileName()));
    setWindowFilePath(model_path_);
    updateScoreActions();
    updateStatus();
}

bool MainWindow::switchScore(ScoreKind score) {
    if (!model_) return false;
    if (score == model_->config.score) return true;
    const auto it = siblings_.find(score);
    if (it == siblings_.end()) return false;
    const QString path = it->second;  // a copy: setModel refills siblings_
    std::shared_ptr<const Model> model;
    try {
        model = std::make_shared<const Model>(loadModel(path.toStdString()));
    } catch (const std::exception& e) {
        reportError(tr("Cannot open model"),
                    tr("Could not open the model %1.\n\n%2").arg(QDir::toNativeSeparators(path), qs(e.what())));
        updateScoreActions();  // the check goes back to the current model's score
        return false;
    }
    const int keep = cursor_;
    // A "what if" carries over: the forced tokens, spelled the same in the sibling's vocabulary, up to the first
    // one the sibling does not know.
    std::vector<int> forced;
    if (outcome_ && !outcome_->request.forced_prefix.empty()) {
        const Vocabulary& from = outcome_->request.model->target_vocab;
        for (int id : outcome_->request.forced_prefix) {
            const int mapped = model->target_vocab.id(from.token(id));
            if (mapped == kUnk && id != kUnk) break;
            forced.push_back(mapped);
        }
    }
    setModel(std::move(model), path);
    DecodeRequest r = makeRequest();
    r.cursor = keep;  // same sentence, same step
    r.forced_prefix = std::move(forced);
    if (!sourceText().trimmed().isEmpty()) worker_->submit(std::move(r));
    return true;
}

void MainWindow::updateScoreActions() {
    const QString folder = model_path_.isEmpty() ? QString() : QDir::toNativeSeparators(QFileInfo(model_path_).path());
    const QString task = model_ && !model_->task.empty() ? qs(model_->task) : tr("(none)");
    for (auto& [score, act] : score_acts_) {
        const bool has = siblings_.count(score) > 0;
        act->setEnabled(has);
        act->setChecked(model_ && model_->config.score == score);
        const QString name = qs(toString(score));
        if (!model_)
            act->setToolTip(tr("Open a model first"));
        else if (has)
            act->setToolTip(
                tr("Show the model trained with %1 scoring (%2)").arg(name, QFileInfo(siblings_[score]).fileName()));
        else
            act->setToolTip(tr("no model trained with %1 scoring for task %2 in %3").arg(name, task, folder));
        act->setStatusTip(act->toolTip());
    }
}

void MainWindow::updateStatus() {
    if (!model_) {
        model_label_->setText(tr("No model"));
        return;
    }
    const ModelConfig& c = model_->config;
    model_label_->setText(tr("%1 · %2 · %3 · E %4, H %5/%6 · V %7→%8 · %9 k params")
                              .arg(model_->task.empty() ? tr("(no task)") : qs(model_->task), qs(toString(c.decoder)),
                                   qs(toString(c.score)))
                              .arg(c.emb_dim)
                              .arg(c.enc_hid_dim)
                              .arg(c.dec_hid_dim)
                              .arg(model_->source_vocab.size())
                              .arg(model_->target_vocab.size())
                              .arg(double(model_->parameterCount()) / 1000.0, 0, 'f', 1));
    model_label_->setToolTip(QDir::toNativeSeparators(model_path_));
}

// ------------------------------------------------------------------------------------------------ decoding

QString MainWindow::sourceText() const { return source_->text(); }
void MainWindow::setSourceText(const QString& text) { source_->setText(text); }
void MainWindow::setReferenceText(const QString& text) { reference_->setText(text); }

DecodeRequest MainWindow::makeRequest() const {
    DecodeRequest r;
    r.model = model_;
    r.source = sourceText().toStdString();
    r.reference = reference_->text().trimmed().toStdString();
    return r;
}

void MainWindow::sourceChanged() {
    if (!model_) return;
    if (sourceText().trimmed().isEmpty()) {
        worker_->cancelAll();
        clearDecode(tr("Type a sentence above to see where the model looks."));
        emit decodeFinished();
        return;
    }
    worker_->schedule(makeRequest());
}

void MainWindow::decodeNow() {
    if (!model_) return;
    if (sourceText().trimmed().isEmpty()) {
        sourceChanged();
        return;
    }
    worker_->submit(makeRequest());
}

void MainWindow::showOutcome(std::shared_ptr<const DecodeOutcome> outcome) {
    if (outcome->request.model != model_) return;  // decoded with a model that is no longer open
    if (!outcome->error.isEmpty()) {
        setNotice(outcome->error, true);  // keep the last heatmap; the sentence is the user's to fix
        emit decodeFinished();
        return;
    }
    outcome_ = std::move(outcome);
    const int T = stepCount();
    cursor_ = outcome_->request.cursor < 0 ? T : std::min(outcome_->request.cursor, T);
    // One replot for the new matrix, its shown rows and its marked row; applyCursor() then finds them up to date.
    heatmap_->setData(HeatmapData::fromDecode(outcome_->result), cursor_ >= T ? -1 : cursor_, cursor_ - 1);
    applyCursor();
    time_label_->setText(tr("decoded in %1 ms").arg(outcome_->milliseconds, 0, 'f', 1));

    QStringList notes;
    if (outcome_->source_tokens_cut > 0)
        notes << tr("The sentence is long: only its first %L1 tokens are decoded (%L2 more are left out).")
                     .arg(outcome_->request.max_source_tokens)
                     .arg(outcome_->source_tokens_cut);
    int unknown = 0;
    for (int id : outcome_->source.ids) unknown += id == kUnk;
    if (unknown > 0) notes << tr("%n word(s) not in the model's vocabulary (underlined) become <unk>.", "", unknown);
    if (!outcome_->request.reference.empty()) notes << tr("Forced decoding of the reference translation.");
    setNotice(notes.join(u' '), outcome_->source_tokens_cut > 0);
    emit decodeFinished();
}

void MainWindow::clearDecode(const QString& hint) {
    setPlaying(false);
    outcome_.reset();
    cursor_ = 0;
    heatmap_->setData(HeatmapData{});
    step_panel_->clear(hint);
    output_->clear();
    time_label_->clear();
    setNotice(hint);
}

void MainWindow::forceCandidate(int token) {
    if (!outcome_ || cursor_ < 1 || !model_) return;
    const int index = cursor_ - 1;
    DecodeRequest r = makeRequest();
    r.model = outcome_->request.model;
    for (int i = 0; i < index; ++i) r.forced_prefix.push_back(outcome_->steps[size_t(i)].token);
    r.forced_prefix.push_back(token);
    r.cursor = index + 1;
    worker_->submit(std::move(r));
}

// ------------------------------------------------------------------------------------------------ stepping

int MainWindow::stepCount() const { return outcome_ ? int(outcome_->steps.size()) : 0; }

void MainWindow::setCursorStep(int cursor) {
    cursor_ = std::clamp(cursor, 0, stepCount());
    applyCursor();
}

void MainWindow::step(Step which) {
    switch (which) {
    case Step::First:
        setCursorStep(0);
        break;
    case Step::Back:
        setCursorStep(cursor_ - 1);
        break;
    case Step::Forward:
        setCursorStep(cursor_ + 1);
        break;
    case Step::Last:
        setCursorStep(stepCount());
        break;
    }
}

void MainWindow::setPlaying(bool on) {
    if (on && outcome_) {
        if (cursor_ >= stepCount()) setCursorStep(0);  // play again from the start
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

void MainWindow::applyCursor() {
    const int T = stepCount();
    style_.current_row = cursor_ - 1;
    // Each of these replots: skip what did not change (after a decode at the end only the marked row moves).
    const int visible = cursor_ >= T ? -1 : cursor_;
    if (heatmap_->visibleRows() != visible) heatmap_->setVisibleRows(visible);
    if (heatmap_->style().current_row != cursor_ - 1) heatmap_->setCurrentRow(cursor_ - 1);
    if (outcome_ && cursor_ > 0) {
        const int i = cursor_ - 1;
        step_panel_->setStep(outcome_->steps[size_t(i)], i, T, heatmap_->data().source_tokens,
                             outcome_->request.model->target_vocab, heatmap_->data().target_tokens.value(i));
    } else if (outcome_) {
        step_panel_->clear(tr("Before the first step: press → (or Alt+→) to decode the first token."));
    }
    first_act_->setEnabled(cursor_ > 0);
    back_act_->setEnabled(cursor_ > 0);
    forward_act_->setEnabled(cursor_ < T);
    last_act_->setEnabled(cursor_ < T);
    play_act_->setEnabled(T > 0);
    updateOutputLine();
}

void MainWindow::updateOutputLine() {
    if (!outcome_) {
        output_->clear();
        return;
    }
    // The whole output; the steps shown so far in black, the current one underlined, the rest grey.
    const auto& tokens = outcome_->result.target_tokens;
    const bool chars = outcome_->request.model->config.tokenizer.target == TokenizerKind::Char;
    QString html = tr("<b>Output:</b> ");
    for (int i = 0; i < int(tokens.size()); ++i) {
        QString t = qs(tokens[size_t(i)]).toHtmlEscaped();
        if (chars && t == QStringLiteral("\u2581")) t = QStringLiteral("&nbsp;");
        if (outcome_->steps[size_t(i)].forced) t = QStringLiteral("<i>%1</i>").arg(t);
        if (i == cursor_ - 1)
            t = QStringLiteral("<u><b>%1</b></u>").arg(t);
        else if (i >= cursor_)
            t = QStringLiteral("<span style='color:#999'>%1</span>").arg(t);
        html += t;
        if (!chars) html += u' ';
    }
    output_->setText(html);
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
    // Stepping keys while the heatmap or the step panel has focus (text fields keep their own arrow keys).
    if (event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        if (key->modifiers() == Qt::NoModifier || key->modifiers() == Qt::KeypadModifier) {
            switch (key->key()) {
            case Qt::Key_Left:
                step(Step::Back);
                return true;
            case Qt::Key_Right:
                step(Step::Forward);
                return true;
            case Qt::Key_Home:
                step(Step::First);
                return true;
            case Qt::Key_End:
                step(Step::Last);
                return true;
            case Qt::Key_Space:
                setPlaying(!isPlaying());
                return true;
            default:
                break;
            }
        }
    }
    return QMainWindow::eventFilter(watched, event);
}

// ------------------------------------------------------------------------------------------------ view

void MainWindow::setColormap(const QString& name) {
    style_.colormap = name;
    applyStyle();
}

void MainWindow::applyStyle() {
    style_.annotate = annotate_act_->isChecked();
    style_.hide_specials = hide_specials_act_->isChecked();
    style_.current_row = cursor_ - 1;
    heatmap_->setStyle(style_);
    if (step_panel_->hideSpecials() != style_.hide_specials) {
        step_panel_->setHideSpecials(style_.hide_specials);
        applyCursor();  // redraws the step panel's bars
    }
    const int i = colormap_box_->findData(style_.colormap);
    if (i >= 0 && i != colormap_box_->currentIndex()) colormap_box_->setCurrentIndex(i);
}

void MainWindow::setNotice(const QString& text, bool warning) {
    notice_->setText(text);
    notice_->setStyleSheet(warning ? QStringLiteral("color: #b00020;") : QString());
    notice_->setVisible(!text.isEmpty());
}

QString MainWindow::noticeText() const { return notice_->text(); }

void MainWindow::reportError(const QString& title, const QString& text) {
    statusBar()->showMessage(text.section(u'\n', 0, 0), 10000);
    emit errorReported(text);
    if (interactive_) QMessageBox::warning(this, title, text);
}

}  // namespace attnviz::ui
