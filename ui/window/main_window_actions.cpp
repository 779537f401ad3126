// MainWindow's shell: actions with standard shortcuts and status tips, menus, toolbars, the view toggles, the
// stepping keys, the shortcuts and about boxes. Settings, recent files and drag and drop are in main_window_files.cpp,
// export in main_window_export.cpp; the model/decode/step logic is in main_window.cpp.
#include "window/main_window.h"

#include "decode/attention_views.h"
#include "dialogs/export_dialog.h"
#include "dialogs/getting_started.h"
#include "dialogs/model_library.h"
#include "dialogs/window_placement.h"
#include "heatmap/colormaps.h"
#include "heatmap/explanation_data.h"
#include "heatmap/heatmap_view.h"
#include "state/decode_state.h"
#include "training/training_window.h"
#include "views/compare_view.h"
#include "views/corpus_browser.h"
#include "views/head_grid.h"
#include "window/about.h"
#include "window/heatmap_actions.h"
#include "window/siblings_menu.h"
#include "window/source_editor.h"
#include "window/step_panel.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QKeyEvent>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QTimer>
#include <QToolBar>
#include <QToolButton>

namespace attnviz::ui {

namespace {
constexpr int kNarrowGettingStarted = 400;  // px: the page still reads at this width, beside a heatmap
constexpr int kSettleMs = 500;              // a first start's docks placed and the window back to its size
QIcon icon(const char* theme, const char* resource) {
    return QIcon::fromTheme(QString::fromLatin1(theme),
                            QIcon(QStringLiteral(":/icons/%1.svg").arg(QLatin1String(resource))));
}

QAction* makeAction(QObject* parent, const QIcon& ic, const QString& text, const QKeySequence& key,
                    const QString& tip) {
    auto* a = new QAction(ic, text, parent);
    a->setShortcut(key);
    a->setStatusTip(tip);
    a->setToolTip(key.isEmpty() ? tip : QStringLiteral("%1 (%2)").arg(tip, key.toString(QKeySequence::NativeText)));
    return a;
}

}  // namespace

void MainWindow::createActions() {
    open_act_ = makeAction(this, icon("document-open", "open"), tr("&Open model…"), QKeySequence::Open,
                           tr("Open a model file (.safetensors)"));
    connect(open_act_, &QAction::triggered, this, &MainWindow::open);
    library_act_ = makeAction(this, icon("folder-open", "library"), tr("Model &library…"), QKeySequence(tr("Ctrl+L")),
                              tr("Browse the sample models by task and the Hugging Face cache's Marian models"));
    connect(library_act_, &QAction::triggered, this, &MainWindow::showLibrary);
    createWordsActions();
    open_corpus_act_ =
        makeAction(this, icon("document-open", "open"), tr("Open &corpus…"), QKeySequence(tr("Ctrl+K")),
                   tr("Open a TSV corpus in the corpus browser: every line scored, click one to see it"));
    connect(open_corpus_act_, &QAction::triggered, this, [this] {
        corpus_dock_->show();
        corpus_browser_->chooseAndOpen();
    });
    train_act_ = makeAction(this, icon("", "train"), tr("&Train a model…"), QKeySequence(tr("Ctrl+T")),
                            tr("Train a model on a corpus and watch its attention learn"));
    connect(train_act_, &QAction::triggered, this, &MainWindow::showTrainingWindow);
    export_act_ = makeAction(this, icon("document-save-as", "export"), tr("&Export heatmap…"), QKeySequence::Save,
                             tr("Save the heatmap as PNG, SVG, PDF, CSV or JSON"));
    connect(export_act_, &QAction::triggered, this, &MainWindow::showExportDialog);
    copy_act_ = makeAction(this, icon("edit-copy", "copy"), tr("&Copy image"), QKeySequence(tr("Ctrl+Shift+C")),
                           tr("Copy the heatmap picture to the clipboard"));
    connect(copy_act_, &QAction::triggered, this, &MainWindow::copyImage);
    quit_act_ = makeAction(this, icon("application-exit", "quit"), tr("&Quit"), QKeySequence::Quit, tr("Quit attnviz"));
    connect(quit_act_, &QAction::triggered, this, &QWidget::close);

    annotate_act_ = makeAction(this, icon("", "annotate"), tr("&Values in cells"), QKeySequence(tr("Ctrl+Shift+A")),
                               tr("Write each attention weight in its cell"));
    annotate_act_->setCheckable(true);
    connect(annotate_act_, &QAction::toggled, this, &MainWindow::applyStyle);
    hide_specials_act_ =
        makeAction(this, icon("", "specials"), tr("&Hide <sos>/<eos>"), QKeySequence(tr("Ctrl+Shift+H")),
                   tr("Hide the <sos>/<eos> columns and the <eos> row"));
    hide_specials_act_->setCheckable(true);
    connect(hide_specials_act_, &QAction::toggled, this, &MainWindow::applyStyle);
    heatmap_actions_->retranslate();  // zoom, copy cell values, inspect cell (they outlive a language change)

    first_act_ = makeAction(this, icon("go-first", "first"), tr("&First step"), QKeySequence(tr("Alt+Home")),
                            tr("Back to before the first decoder step (Home in the heatmap)"));
    connect(first_act_, &QAction::triggered, this, [this] { step(Step::First); });
    back_act_ = makeAction(this, icon("go-previous", "back"), tr("Step &back"), QKeySequence(tr("Alt+Left")),
                           tr("One decoder step back (← in the heatmap)"));
    connect(back_act_, &QAction::triggered, this, [this] { step(Step::Back); });
    forward_act_ = makeAction(this, icon("go-next", "forward"), tr("Step &forward"), QKeySequence(tr("Alt+Right")),
                              tr("One decoder step forward (→ in the heatmap)"));
    connect(forward_act_, &QAction::triggered, this, [this] { step(Step::Forward); });
    last_act_ = makeAction(this, icon("go-last", "last"), tr("&Last step"), QKeySequence(tr("Alt+End")),
                           tr("To the end of the output (End in the heatmap)"));
    connect(last_act_, &QAction::triggered, this, [this] { step(Step::Last); });
    play_act_ = makeAction(this, icon("media-playback-start", "play"), tr("&Play"), QKeySequence(tr("Alt+P")),
                           tr("Play the decoder step by step at the chosen speed (Space in the heatmap)"));
    play_act_->setCheckable(true);
    connect(play_act_, &QAction::triggered, this, [this](bool on) { setPlaying(on); });

    score_group_ = new QActionGroup(this);
    score_group_->setExclusive(true);
    const std::pair<ScoreKind, QString> scores[] = {{ScoreKind::Additive, tr("Additive")},
                                                    {ScoreKind::Dot, tr("Dot")},
                                                    {ScoreKind::ScaledDot, tr("Scaled dot")},
                                                    {ScoreKind::General, tr("General")}};
    int n = 1;
    for (const auto& [score, name] : scores) {
        auto* a = new QAction(name, score_group_);
        a->setCheckable(true);
        a->setShortcut(QKeySequence(tr("Ctrl+%1").arg(n++)));
        const ScoreKind kind = score;
        connect(a, &QAction::triggered, this, [this, kind] {
            if (!switchScore(kind)) updateScoreActions();
        });
        score_acts_[score] = a;
    }
    siblings_menu_ = new SiblingsMenu(this);
    connect(siblings_menu_, &SiblingsMenu::siblingChosen, this, [this](const QString& path) {
        if (!switchToSibling(path)) findSiblingModels();  // the check goes back to the open model
    });
    createForcingActions();
}

void MainWindow::createMenus() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(open_act_);
    file->addAction(open_folder_act_);
    recent_menu_ = file->addMenu(tr("Open &recent"));
    connect(recent_menu_, &QMenu::aboutToShow, this, &MainWindow::updateRecentMenu);
    file->addAction(library_act_);
    file->addAction(open_corpus_act_);
    file->addAction(train_act_);
    file->addSeparator();
    file->addAction(export_act_);
    file->addSeparator();
    file->addAction(quit_act_);

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(undo_act_);
    edit->addAction(redo_act_);
    edit->addAction(clear_forced_act_);
    edit->addSeparator();
    edit->addAction(copy_act_);
    edit->addAction(heatmap_actions_->copyValuesAction());

    QMenu* view = menuBar()->addMenu(tr("&View"));
    view->addAction(annotate_act_);
    view->addAction(hide_specials_act_);
    addWordsActions(view);
    view->addAction(step_dock_->toggleViewAction());  // the dock again after closing it
    view->addAction(compare_act_);
    view->addAction(diagnostics_act_);
    view->addAction(inspector_dock_->toggleViewAction());
    view->addAction(explain_scores_dock_->toggleViewAction());
    addExplainMenu(view);
    QMenu* colormaps = view->addMenu(tr("&Colour map"));
    for (const QString& name : colormapNames()) {
        QAction* a = colormaps->addAction(colormapDisplayName(name));
        connect(a, &QAction::triggered, this, [this, name] { setColormap(name); });
    }
    view->addSeparator();
    heatmap_actions_->addZoomActions(view);
    view->addAction(beam_dock_->toggleViewAction());
    view->addAction(corpus_dock_->toggleViewAction());
    view->addAction(head_dock_->toggleViewAction());
    view->addAction(intervention_dock_->toggleViewAction());
    view->addAction(head_importance_dock_->toggleViewAction());
    addAppearanceMenus(view);

    QMenu* decode = menuBar()->addMenu(tr("&Decoder"));
    for (QAction* a : {first_act_, back_act_, forward_act_, last_act_, play_act_}) decode->addAction(a);
    decode->addSeparator();
    QMenu* scoring = decode->addMenu(tr("&Scoring function"));
    scoring->setToolTipsVisible(true);
    scoring->addActions(score_group_->actions());
    menuBar()->addMenu(siblings_menu_);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Getting started"), this, &MainWindow::showGettingStarted)
        ->setStatusTip(tr("What the heatmap shows and what to try first"));
    help->addAction(tr("&Keyboard…"), this, &MainWindow::showShortcuts)->setStatusTip(tr("The stepping keys"));
    help->addAction(tr("&About attnviz"), this, &MainWindow::about)->setStatusTip(tr("What attnviz is"));
    help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt)->setStatusTip(tr("The Qt library's about box"));
}

void MainWindow::createToolBars() {
    QToolBar* file = addToolBar(tr("File"));
    file->setObjectName(QStringLiteral("FileToolBar"));
    file->addAction(open_act_);
    file->addAction(library_act_);
    file->addAction(train_act_);
    file->addAction(export_act_);
    file->addAction(copy_act_);

    QToolBar* steps = addToolBar(tr("Stepping"));
    steps->setObjectName(QStringLiteral("StepToolBar"));
    for (QAction* a : {first_act_, back_act_, play_act_, forward_act_, last_act_}) steps->addAction(a);
    speed_ = new QDoubleSpinBox(this);
    speed_->setRange(0.5, 20.0);
    speed_->setSingleStep(0.5);
    speed_->setValue(2.0);
    speed_->setSuffix(tr(" steps/s"));
    speed_->setToolTip(tr("Playing speed"));
    speed_->setStatusTip(speed_->toolTip());
    connect(speed_, &QDoubleSpinBox::valueChanged, this, [this](double v) {
        if (play_timer_->isActive()) play_timer_->setInterval(int(1000.0 / v));
    });
    steps->addWidget(speed_);

    // on the first row, which has room for it down to 800 px (the second row overflows there)
    QToolBar* explain = addToolBar(tr("Explain"));
    explain->setObjectName(QStringLiteral("ExplainToolBar"));
    addExplainBox(explain);

    addToolBarBreak();  // two rows: at 1024 px one row would hide controls behind the overflow button
    QToolBar* scoring = addToolBar(tr("Scoring"));
    scoring->setObjectName(QStringLiteral("ScoreToolBar"));
    scoring->addWidget(new QLabel(tr(" Scoring: "), this));
    scoring->addActions(score_group_->actions());
    scoring->addAction(siblings_menu_->menuAction());  // a button that opens the Siblings menu
    // on a click anywhere on it, not only on its small arrow: the button does nothing else
    if (auto* button = qobject_cast<QToolButton*>(scoring->widgetForAction(siblings_menu_->menuAction())))
        button->setPopupMode(QToolButton::InstantPopup);

    QToolBar* view = addToolBar(tr("View"));
    view->setObjectName(QStringLiteral("ViewToolBar"));
    colormap_box_ = new QComboBox(this);
    for (const QString& name : colormapNames()) colormap_box_->addItem(colormapDisplayName(name), name);
    colormap_box_->setToolTip(tr("Colour map"));
    colormap_box_->setStatusTip(tr("The colours of the heatmap"));
    connect(colormap_box_, &QComboBox::activated, this,
            [this](int i) { setColormap(colormap_box_->itemData(i).toString()); });
    view->addWidget(colormap_box_);
    view->addAction(annotate_act_);
    view->addAction(hide_specials_act_);
    addWordsActions(view);
}

QAction* MainWindow::stepAction(Step which) const {
    switch (which) {
    case Step::First:
        return first_act_;
    case Step::Back:
        return back_act_;
    case Step::Forward:
        return forward_act_;
    case Step::Last:
        return last_act_;
    }
    return nullptr;
}

QAction* MainWindow::scoreAction(ScoreKind score) const {
    const auto it = score_acts_.find(score);
    return it == score_acts_.end() ? nullptr : it->second;
}

// ------------------------------------------------------------------------------------------------ view

void MainWindow::setColormap(const QString& name) {
    style_.colormap = name;
    applyStyle();
}

void MainWindow::applyStyle() {
    style_.annotate = annotate_act_->isChecked();
    style_.hide_specials = hide_specials_act_->isChecked();
    HeatmapStyle shown = heatmap_->style();  // keeps the view's current row and selected cell
    shown.colormap = style_.colormap;
    shown.annotate = style_.annotate;
    shown.hide_specials = style_.hide_specials;
    shown.diagnostics = style_.diagnostics;
    heatmap_->setStyle(shown);
    compare_view_->setBaseStyle(style_);
    head_grid_->setColormap(style_.colormap);
    if (step_panel_->hideSpecials() != style_.hide_specials)
        step_panel_->setHideSpecials(style_.hide_specials);  // redraws its bars
    showColormapChoice();
}

// The colour-map box names the map the heatmap shows: the chosen one, or while a signed explanation is drawn on the
// diverging map, that map (the box shows it as its placeholder; a map chosen then applies to attention again).
void MainWindow::showColormapChoice() {
    if (!colormap_box_) return;
    const bool diverging = heatmap_->style().diverging;
    colormap_box_->setPlaceholderText(tr("RdBu (signed values: red raises, blue lowers)"));
    const int i = diverging ? -1 : colormap_box_->findData(style_.colormap);
    if (i != colormap_box_->currentIndex() && (i >= 0 || diverging)) colormap_box_->setCurrentIndex(i);
    colormap_box_->setToolTip(diverging ? tr("Colour map: the explanation shown has signed values, drawn on the "
                                             "red–blue diverging map; the map chosen here colours the attention")
                                        : tr("Colour map"));
}

// ------------------------------------------------------------------------------------------------ keyboard

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
    if (watched == training_window_ && event->type() == QEvent::Hide && getting_started_waits_) {
        getting_started_waits_ = false;
        QTimer::singleShot(0, this, &MainWindow::showGettingStarted);
    }
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

// ------------------------------------------------------------------------------------------------ settings

void MainWindow::showShortcuts() {
    QMessageBox::information(
        this, tr("Keyboard"),
        tr("<p>In the heatmap or the step panel (click it first):</p>"
           "<ul><li>← / → : one decoder step back / forward</li><li>Home / End : before the first / after the last "
           "step</li>"
           "<li>Space : play / pause</li></ul>"
           "<p>Everywhere (the text fields keep their own arrow keys): Alt+← / Alt+→, Alt+Home / Alt+End, Alt+P.</p>"
           "<p>Scoring function: Ctrl+1 additive, Ctrl+2 dot, Ctrl+3 scaled dot, Ctrl+4 general.</p>"
           "<p>In the source field, Tab moves on; when completions show, Enter or Tab takes one.</p>"));
}

// Beside the window where the screen has room for it, else where it hides the least of the training window (when
// shown), the heatmap and the window, in that order, narrower if that hides less (over the right column of a window
// that fills the screen); never larger than the screen, so that its Close button is on it. On a first start the
// window is still being laid out (docks shown with it grow it for a moment): placed again once it has settled,
// unless the user moved it since.
QDialog* MainWindow::showGettingStarted() {
    if (!getting_started_) getting_started_ = new GettingStartedDialog(this);
    if (!getting_started_->isVisible()) {
        placeGettingStarted();
        // A training window that leaves it no room (`--train` on a small screen): shown once that window is hidden.
        if (training_window_ && training_window_->isVisible() &&
            getting_started_->frameGeometry().intersects(training_window_->frameGeometry())) {
            training_window_->installEventFilter(this);
            getting_started_waits_ = true;
            return getting_started_;
        }
        QTimer::singleShot(kSettleMs, getting_started_, [this, placed = getting_started_->geometry()] {
            if (getting_started_->isVisible() && getting_started_->geometry() == placed) placeGettingStarted();
        });
    }
    getting_started_->show();
    getting_started_->raise();
    markGettingStartedShown();
    return getting_started_;
}

void MainWindow::placeGettingStarted() {
    const QRect available = availableGeometryOf(this);
    const QMargins frame = frameMarginsOf(getting_started_, this);
    const QSize size = fitInside(QRect(QPoint(), getting_started_->size()), available, frame).size();
    const QSize narrow(std::min(size.width(), kNarrowGettingStarted), size.height());
    QList<QRect> keep_clear;
    if (training_window_ && training_window_->isVisible()) keep_clear << training_window_->frameGeometry();
    keep_clear << QRect(heatmap_->mapToGlobal(QPoint()), heatmap_->size()) << frameGeometry();
    const QRect framed = placeBeside({size.grownBy(frame), narrow.grownBy(frame)}, available, keep_clear);
    getting_started_->setGeometry(framed.marginsRemoved(frame));
}

void MainWindow::about() { QMessageBox::about(this, tr("About attnviz"), aboutText(sampleModelDirs())); }

}  // namespace attnviz::ui
