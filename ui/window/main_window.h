// The attnviz main window: a source sentence decoded as you type (off the UI thread), the attention heatmap, the
// decoder stepped token by token with the current step's details beside it, "what if?" forcing, the scoring toggle
// among sibling models, exports. Built like Qt's application example (createActions / createMenus / readSettings).
//
// Model/view: the window's DecodeState (state()) holds the model, sentence, reference, forced tokens, the decode
// shown, the cursor and the selection; the heatmap, the step panel and the output line observe it. Its
// DecodeController (decodes()) turns edits of the state's request into decodes and their outcomes into the state; the
// window puts them into words.
//
// Keyboard: Left/Right/Home/End step and Space plays/pauses while the heatmap or the step panel has focus (in the
// text fields these keys edit text); Alt+Left/Right/Home/End and Alt+P work everywhere.
#pragma once
#include "explain/explanation.h"
#include "heatmap/heatmap_data.h"
#include "heatmap/heatmap_export.h"
#include "io/siblings.h"
#include "state/decode_controller.h"

#include <QActionGroup>
#include <QComboBox>
#include <QMainWindow>
#include <QPointer>

#include <map>
#include <memory>
#include <vector>

class QAction;
class QActionGroup;
class QComboBox;
class QDialog;
class QDockWidget;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QMenu;
class QTabWidget;
class QTimer;
class QToolBar;

namespace attnviz::ui {

class BeamTreeView;
class CompareView;
class CorpusBrowser;
class CellInspector;
class DecodeState;
class ExplainWorker;
class ExplainProgress;
class ExplainScoresPanel;
class HeatmapActions;
class ForceTokenBox;
class ForcingHistory;
class GoldLinksPanel;
class HeadGridView;
class InterventionEdits;
class InterventionListView;
class HeadImportancePanel;
struct HeadImportanceCorpus;
class HeatmapView;
class ReferenceFold;
class ReferenceMarker;
class StatusLine;
class ModelLibraryDialog;
class OutputLine;
class SiblingsMenu;
class SourceEditor;
class StepPanel;
class TrainingWindow;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    enum class Step { First, Back, Forward, Last };

    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Below kCompactHeight pixels the window is short (docs/gui.md, "Small screens"): the source field is one line
    // until typed in, the reference and gold links are folded behind a button, and a bottom dock keeps the heatmap
    // kLeastReadableRows rows and itself kDockContentLines lines of its contents before it gives the heatmap more.
    static constexpr int kCompactHeight = 920;
    static constexpr int kLeastReadableRows = 6;
    static constexpr int kDockContentLines = 5;

    // Opens `path` (command line), else the last model of the previous session, else the default sample model,
    // and decodes the last sentence (same model) or the model's example sentence at once.
    void openStartupModel(const QString& path = {});
    // Loads a model and decodes the current sentence with it (a model of another task than the open one: its own
    // first sentence, the reference cleared). On failure: a message naming the file and the loader's message; the
    // previous model, sentence and heatmap stay. Returns whether it loaded.
    bool openModel(const QString& path);
    // Switches to the sibling trained with `score` and every other setting of the open model (matchingSibling),
    // keeping sentence and step. False if there is none: the toggle never moves to a model that differs in more.
    bool switchScore(ScoreKind score);
    // Switches to the model at `path` (an entry of the Siblings menu), keeping sentence, step and "what if".
    bool switchToSibling(const QString& path);

    void setSourceText(const QString& text);  // decodes after the debounce, like typing
    QString sourceText() const;
    void setReferenceText(const QString& text);
    void decodeNow();  // skips the debounce

    int cursorStep() const;  // steps shown, 0..stepCount()
    int stepCount() const;
    void setCursorStep(int cursor);
    void step(Step which);
    void setPlaying(bool on);
    bool isPlaying() const;
    // "What if?": forces `token` at the current step (cursor - 1) and decodes on from there, as an undoable edit
    // (nothing when it is the model's own choice there). main_window_forcing.cpp.
    void forceCandidate(int token);

    // Writes the heatmap (all decoded rows) to `path`; on failure a message naming the path, nothing left behind.
    bool exportTo(const QString& path, const ExportOptions& options);
    ExportOptions exportOptions() const;  // the default sizes with the window's colour map / toggles
    // What the user typed and chose for the decode shown (the JSON export's "context").
    DecodeContext decodeContext() const;

    // When false, errors are reported by errorReported() and the status bar only, never a modal dialog (tests).
    void setInteractive(bool on) { interactive_ = on; }

    // The document the views observe.
    DecodeState* state() const { return state_; }
    // The decodes of the state's request, and the outcome behind the decode shown.
    DecodeController* decodes() const { return decodes_; }
    std::shared_ptr<const Model> model() const;
    QString modelPath() const;
    HeatmapView* heatmapView() const { return heatmap_; }
    HeatmapActions* heatmapActions() const { return heatmap_actions_; }  // zoom, the heatmap's context menu
    StepPanel* stepPanel() const { return step_panel_; }
    ExplainScoresPanel* explainScores() const { return explain_scores_; }
    QDockWidget* explainScoresDock() const { return explain_scores_dock_; }
    BeamTreeView* beamTree() const { return beam_tree_; }
    QDockWidget* beamDock() const { return beam_dock_; }
    SourceEditor* sourceEditor() const { return source_; }
    QLineEdit* referenceEdit() const { return reference_; }
    QAction* stepAction(Step which) const;
    QAction* playAction() const { return play_act_; }
    QAction* copyImageAction() const { return copy_act_; }
    QAction* hideSpecialsAction() const { return hide_specials_act_; }
    QAction* scoreAction(ScoreKind score) const;
    SiblingsMenu* siblingsMenu() const { return siblings_menu_; }
    ForcingHistory* forcingHistory() const { return history_; }
    ForceTokenBox* forceTokenBox() const { return force_box_; }
    ReferenceMarker* referenceMarker() const { return reference_marker_; }
    ReferenceFold* referenceFold() const { return reference_fold_; }
    QAction* undoAction() const { return undo_act_; }
    QAction* redoAction() const { return redo_act_; }
    QAction* clearForcedAction() const { return clear_forced_act_; }
    QDockWidget* stepDock() const { return step_dock_; }
    CompareView* compareView() const { return compare_view_; }
    // View ▸ Compare models (main_window_compare.cpp): the compare view in a tab beside the heatmap's.
    QAction* compareAction() const { return compare_act_; }  // checked while the tab is there
    void showCompare(bool on = true);                        // adds the tab, in front, or removes it
    bool compareShown() const;                               // its tab is in front
    QTabWidget* centralTabs() const { return central_tabs_; }
    CellInspector* cellInspector() const { return inspector_; }
    QDockWidget* inspectorDock() const { return inspector_dock_; }
    QAction* diagnosticsAction() const { return diagnostics_act_; }  // coverage row and entropy column
    GoldLinksPanel* goldLinks() const { return gold_links_; }        // gold links of the reference, their marks
    QString confidenceText() const;                                  // the status bar's sentence confidence
    QString statusText() const;  // the status bar's message, whole (StatusLine; empty when none is shown)
    // File ▸ Open corpus: shows the corpus dock and opens `path` in it; false (reported) when it cannot be opened.
    bool openCorpus(const QString& path);
    CorpusBrowser* corpusBrowser() const { return corpus_browser_; }
    QDockWidget* corpusDock() const { return corpus_dock_; }
    // View ▸ Attention heads: a Transformer's layers and heads; a thumbnail clicked there fills the heatmap.
    HeadGridView* headGrid() const { return head_grid_; }
    QDockWidget* headDock() const { return head_dock_; }
    // View ▸ Head importance: a Transformer's heads removed in turn on a corpus; a head clicked there is shown in the
    // head grid (main_window_head_importance.cpp).
    HeadImportancePanel* headImportance() const { return head_importance_; }
    QDockWidget* headImportanceDock() const { return head_importance_dock_; }
    QString attentionViewText() const;  // the line above the heatmap naming the attention shown ("" for the default)
    // View ▸ Interventions (main_window_interventions.cpp): knockouts, attends and heads off, with their switches.
    InterventionListView* interventionList() const { return intervention_list_; }
    // The command line's --knockout, --attend, --head-off: the list's entries in place of the ones there (not an
    // undoable edit), named by the words of the current sentence; decodeNow() decodes with them.
    void setInterventions(const Interventions& iv);
    QDockWidget* interventionDock() const { return intervention_dock_; }
    // Explain by (main_window_explain.cpp): what the heatmap shows for the decode, attention or an attribution method.
    void setExplainMethod(ExplainMethod method);
    ExplainMethod explainMethod() const;
    QComboBox* explainBox() const { return explain_box_; }
    ExplainWorker* explainWorker() const { return explain_worker_; }
    // "Why the current step's token and not `token`?": the contrastive explanation of that row (a method that reads
    // the objective: the one chosen, else occlusion). nullopt: the row's token alone again.
    void explainContrast(std::optional<int> token);
    QAction* openCorpusAction() const { return open_corpus_act_; }
    QString noticeText() const;
    QString colormap() const { return style_.colormap; }
    void setColormap(const QString& name);
    // File ▸ Train a model…: the training window (made on first use, window/main_window_training.cpp).
    // Help ▸ Getting started, not modal; marks it shown (gettingStartedDue). Returns the dialog (tests); it waits,
    // hidden, while a training window leaves it no room on the screen.
    QDialog* showGettingStarted();
    TrainingWindow* showTrainingWindow();
    QAction* trainAction() const { return train_act_; }
    // File ▸ Open model folder… (a Hugging Face Marian folder, docs/marian.md) and View ▸ Pieces / Words, enabled for
    // a SentencePiece model (main_window_words.cpp).
    QAction* openFolderAction() const { return open_folder_act_; }
    QAction* piecesAction() const { return pieces_act_; }
    QAction* wordsAction() const { return words_act_; }
    // The explanation's progress line in the status bar, shown while a method runs longer than half a second
    // (window/explain_progress.h).
    ExplainProgress* explainProgress() const { return explain_progress_; }

signals:
    void decodeFinished();  // a decode was shown (also: the sentence became empty)
    void errorReported(const QString& text);

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* event) override;        // language and palette changes (main_window_appearance.cpp)
    void resizeEvent(QResizeEvent* event) override;  // the heatmap's room (main_window_docks.cpp)
    void showEvent(QShowEvent* event) override;      // the docks shown with the window (main_window_docks.cpp)
    bool event(QEvent* event) override;              // back to the asked size (main_window_docks.cpp)

private:
    // main_window_actions.cpp: the shell (actions, menus, toolbars, view toggles, settings, recent files).
    void createActions();
    void createMenus();
    void createToolBars();
    void readSettings();
    void writeSettings();
    void addRecentFile(const QString& path);
    void updateRecentMenu();
    void open();
    void showLibrary();
    void showExportDialog();
    void copyImage();
    void showShortcuts();
    void placeGettingStarted();
    void about();
    void applyStyle();
    void showColormapChoice();  // the box names the map shown (the diverging one for a signed explanation)

    // main_window_appearance.cpp: View → Language and View → Theme, and the window in another language at once.
    void addAppearanceMenus(QMenu* view);
    // Rebuilds the actions, menus and toolbars (createActions/createMenus/createToolBars are the one place their
    // texts are written; new ones belong there too) keeping their state, then the other texts.
    void retranslateUi();

    // main_window_beam.cpp: the beam search dock (hidden at first, in the View menu).
    void createBeamDock();

    // main_window_docks.cpp: the heatmap's room beside the bottom docks (the rows it keeps when one is shown or the
    // window is resized); `grow`: a dock shown squeezed grows to two fifths of the window, within that room.
    static constexpr int kReadableRows = 8;
    void fitFormToHeight();
    void keepHeatmapRoom(QDockWidget* dock, bool grow);
    void fitBottomDocks(QDockWidget* grown);
    int compactContent(const QDockWidget* d) const;
    void returnToAskedSize();
    void fitRightDocks();
    // A dock shown where its area lacks room goes into a tab with `partner` (nullptr: the area's longest dock).
    void tabWhereNoRoom(QDockWidget* dock, QDockWidget* partner);
    void tabDockIfNoRoom(QDockWidget* dock, QDockWidget* partner);
    int dockAreaRoom(Qt::DockWidgetArea area) const;

    // main_window.cpp: the model, the decode and the step.
    void createCentralWidgets();
    void retranslateCentralWidgets();  // labels, tooltips and placeholders of the fields and the step dock
    void retranslateNotices();         // the notice line, the step panel's hint and the time for the decode shown
    void connectState();
    void setModel(std::shared_ptr<const Model> model, const QString& path);
    void modelChanged();
    void findSiblingModels();
    void updateScoreActions();
    QString noSiblingReason(ScoreKind score) const;
    std::vector<int> forcingForSibling(const Model& sibling) const;
    void updateStatus();
    static QString sizesText(const ModelConfig& c);  // the status bar tooltip's sizes line
    void describeDecode(const DecodeOutcome& outcome);
    void clearDecode(const QString& hint);
    void updateStepActions();
    void setNotice(const QString& text, bool warning = false);
    void reportError(const QString& title, const QString& text);

    // main_window_forcing.cpp: "what if?" forcing, its undo history and the field for any token.
    void createForcingActions();
    void decodeForced(int cursor);
    // main_window_status.cpp: the status bar in plain words, and load errors plain first, details second.
    // The status bar's message (StatusLine): the first line of `text`, for timeout_ms when > 0.
    void showStatus(const QString& text, int timeout_ms = 0);
    void showHoverStatus(int row, int col);
    void reportLoadError(const QString& path, const QString& technical);
    // main_window_gold.cpp: the gold links field under the reference and its marks on the heatmap.
    void createGoldLinks(QFormLayout* form);
    // main_window_compare.cpp: the compare view's tab beside the heatmap's page.
    void createCompareTab(QWidget* heatmap_page);
    void retranslateCompare();
    // main_window_inspector.cpp: the cell inspector dock, the diagnostics toggle, the sentence's confidence.
    void createInspector();
    void retranslateInspector();
    void updateConfidence();
    // main_window_corpus.cpp: the corpus browser dock; a line clicked there opens here.
    void createCorpusDock();
    void openCorpusLine(const QString& source, const QString& reference, const QString& gold);
    void leaveCorpusLineIfEdited(const QString& source);
    // main_window_heads.cpp: the head grid dock; the line above the heatmap and the marks that follow its attention.
    void createHeadGridDock();
    void showAttentionView();
    // main_window_interventions.cpp: the interventions' dock, their marks on the heatmap, the decode they ask for,
    // and what a model change keeps of them.
    void createInterventionsDock();
    void showInterventionsDock();
    void decodeInterventions();
    void showInterventionMarks();
    void keepInterventionsFor(const Model& model);
    QString interventionNotice(const DecodeOutcome& outcome) const;
    // main_window_head_importance.cpp: the head importance dock, its lines, and a head shown from it.
    void createHeadImportanceDock();
    HeadImportanceCorpus headImportanceCorpus() const;
    void showHead(const HeadRef& head);
    // main_window_explain.cpp: the explanation method's box, menu and worker.
    void createExplainWorker();
    void createExplainScoresDock();  // beside the cell inspector
    void addExplainBox(QToolBar* bar);
    void addExplainMenu(QMenu* view);
    void showExplainChoice();
    void requestExplanation();
    // main_window_words.cpp: File ▸ Open model folder…, View ▸ Pieces / Words and the line that says what words are.
    void createWordsActions();
    void addWordsActions(QWidget* menu_or_bar);
    void openFolder();
    void updateWordsActions();
    QString wordsText() const;
    void createExplainProgress();
    QString explanationText() const;

    DecodeState* state_;
    std::vector<Sibling> siblings_;                // the open model's siblings, itself included (findSiblings)
    std::map<ScoreKind, QString> score_siblings_;  // per score, the sibling the toggle moves to (the model for its own)
    HeatmapStyle style_;  // colour map and toggles (the view's own style also holds the current row and selection)
    bool interactive_ = true;

    DecodeController* decodes_;
    ForcingHistory* history_;
    SourceEditor* source_ = nullptr;
    QLineEdit* reference_ = nullptr;
    ReferenceMarker* reference_marker_ = nullptr;
    ForceTokenBox* force_box_ = nullptr;
    QLabel* notice_ = nullptr;
    bool notice_warning_ = false;
    QLabel* source_label_ = nullptr;
    QLabel* reference_label_ = nullptr;
    ReferenceFold* reference_fold_ = nullptr;  // the reference and gold links rows, folded in a short window
    QDockWidget* step_dock_ = nullptr;
    OutputLine* output_ = nullptr;
    HeatmapView* heatmap_ = nullptr;
    HeatmapActions* heatmap_actions_ = nullptr;
    StepPanel* step_panel_ = nullptr;
    QDockWidget* beam_dock_ = nullptr;
    BeamTreeView* beam_tree_ = nullptr;
    StatusLine* status_line_ = nullptr;
    QLabel* model_label_ = nullptr;
    QLabel* time_label_ = nullptr;
    QTimer* play_timer_ = nullptr;
    QDoubleSpinBox* speed_ = nullptr;
    QComboBox* colormap_box_ = nullptr;
    QPointer<ModelLibraryDialog> library_;
    CellInspector* inspector_ = nullptr;
    QSize settled_size_;     // the window's size once the event loop has run after a resize (tabDockIfNoRoom)
    QSize shown_size_;       // the size the window was shown at, until the docks shown with it are placed
    QSize asked_size_;       // the size last asked for (the user, --size, the saved one), not the layout's growth
    QSize returning_to_;     // the size returnToAskedSize resized to, until its resize event
    QRect fitted_geometry_;  // readSettings' geometry fitted to the screen, until the first show fits it again
    struct RightColumnFit {  // what fitRightDocks last saw of the right column, and whether the user sized it since
        QList<QDockWidget*> docks;
        QList<int> heights;
        bool user_sized = false;
    } right_column_fit_;
    bool fit_pending_ = false;  // a fit after a layout request is queued
    QDockWidget* inspector_dock_ = nullptr;
    QAction* diagnostics_act_ = nullptr;  // owned by the window: kept when the menus are rebuilt
    QLabel* confidence_label_ = nullptr;
    GoldLinksPanel* gold_links_ = nullptr;
    QDialog* getting_started_ = nullptr;  // Help ▸ Getting started, made when first asked for
    bool getting_started_waits_ = false;  // for the training window in front of the screen to be hidden
    QString corpus_line_source_;  // the corpus line's sentence while it is the window's (its reference is the line's)

    QMenu* recent_menu_ = nullptr;
    QAction* open_act_ = nullptr;
    QAction* open_folder_act_ = nullptr;
    QActionGroup* words_group_ = nullptr;  // owns pieces_act_ and words_act_
    QAction* pieces_act_ = nullptr;
    QAction* words_act_ = nullptr;
    ExplainProgress* explain_progress_ = nullptr;
    QAction* library_act_ = nullptr;
    QAction* train_act_ = nullptr;
    QPointer<TrainingWindow> training_window_;
    QAction* export_act_ = nullptr;
    QAction* copy_act_ = nullptr;
    QAction* quit_act_ = nullptr;
    QAction* annotate_act_ = nullptr;
    QAction* hide_specials_act_ = nullptr;
    QAction* first_act_ = nullptr;
    QAction* back_act_ = nullptr;
    QAction* forward_act_ = nullptr;
    QAction* last_act_ = nullptr;
    QAction* play_act_ = nullptr;
    QAction* undo_act_ = nullptr;
    QAction* redo_act_ = nullptr;
    QAction* clear_forced_act_ = nullptr;
    QActionGroup* score_group_ = nullptr;
    std::map<ScoreKind, QAction*> score_acts_;
    SiblingsMenu* siblings_menu_ = nullptr;
    QTabWidget* central_tabs_ = nullptr;  // the heatmap's page, and the compare view's while shown
    QAction* compare_act_ = nullptr;      // owned by the window: kept when the menus are rebuilt
    QWidget* compare_page_ = nullptr;     // the compare view's tab: the view in a scroll area
    CompareView* compare_view_ = nullptr;
    QDockWidget* corpus_dock_ = nullptr;
    CorpusBrowser* corpus_browser_ = nullptr;
    QAction* open_corpus_act_ = nullptr;
    QDockWidget* head_dock_ = nullptr;
    HeadGridView* head_grid_ = nullptr;
    QDockWidget* head_importance_dock_ = nullptr;
    HeadImportancePanel* head_importance_ = nullptr;
    QLabel* view_label_ = nullptr;  // above the heatmap: which attention it shows when not the default
    InterventionEdits* intervention_edits_ = nullptr;
    InterventionListView* intervention_list_ = nullptr;
    QDockWidget* intervention_dock_ = nullptr;
    ExplainWorker* explain_worker_ = nullptr;
    ExplainScoresPanel* explain_scores_ = nullptr;
    QDockWidget* explain_scores_dock_ = nullptr;
    // rebuilt with the toolbars and menus on a language change: guarded, as showExplainChoice may run in between
    QPointer<QComboBox> explain_box_;
    QPointer<QActionGroup> explain_group_;
};

}  // namespace attnviz::ui
