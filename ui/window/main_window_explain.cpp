// The main window's explanation method (docs/explain.md, docs/gui.md "Explain"): the toolbar's "Explain by" box and
// View ▸ Explain by choose what the heatmap shows for the decode: the model's attention, or an attribution method of
// core/explain computed off the UI thread (window/explain_worker.h). The attention is drawn at once; the method's
// matrix follows when it is ready, and only if it still belongs to the decode shown.
#include "heatmap/explanation_data.h"
#include "heatmap/utf8_text.h"
#include "state/decode_state.h"
#include "views/explain_scores_panel.h"
#include "window/dock_scroller.h"
#include "window/explain_progress.h"
#include "window/explain_worker.h"
#include "window/main_window.h"

#include <QActionGroup>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QMenu>
#include <QStatusBar>
#include <QToolBar>

namespace attnviz::ui {

void MainWindow::createExplainWorker() {
    explain_worker_ = new ExplainWorker(this);
    connect(explain_worker_, &ExplainWorker::finished, this,
            [this](std::shared_ptr<const PrefixDecoding> decode, std::shared_ptr<const Explanation> e,
                   const QString& error) {
                explain_progress_->finished();
                if (!error.isEmpty()) showStatus(tr("Could not explain: %1").arg(error), 8000);
                state_->setExplanation(decode.get(), std::move(e));
            });
    createExplainProgress();
    connect(state_, &DecodeState::decodeChanged, this, &MainWindow::requestExplanation);
    connect(state_, &DecodeState::explainMethodChanged, this, &MainWindow::requestExplanation);
    connect(state_, &DecodeState::explainMethodChanged, this, &MainWindow::showExplainChoice);
    connect(state_, &DecodeState::explainMethodChanged, this, &MainWindow::showAttentionView);
    connect(state_, &DecodeState::explanationChanged, this, &MainWindow::showAttentionView);
    connect(state_, &DecodeState::decodeChanged, this, &MainWindow::showAttentionView);
    // after the heatmap's own handlers (bindHeatmap, connected first), which set the map it draws with
    for (auto changed : {&DecodeState::decodeChanged, &DecodeState::explanationChanged,
                         &DecodeState::explainMethodChanged, &DecodeState::attentionViewChanged})
        connect(state_, changed, this, &MainWindow::showColormapChoice);
}

void MainWindow::createExplainScoresDock() {
    explain_scores_ = new ExplainScoresPanel(state_, gold_links_, this);
    explain_scores_dock_ = new QDockWidget(this);
    explain_scores_dock_->setObjectName(QStringLiteral("ExplainScoresDock"));
    explain_scores_dock_->setWidget(new DockScroller(explain_scores_, explain_scores_dock_));
    addDockWidget(Qt::RightDockWidgetArea, explain_scores_dock_);
    tabifyDockWidget(inspector_dock_, explain_scores_dock_);
    explain_scores_dock_->hide();  // View ▸ Which explanation is right?
    connect(explain_scores_dock_->toggleViewAction(), &QAction::triggered, this, [this](bool on) {
        if (on) explain_scores_dock_->raise();  // in front of the cell inspector it is tabbed with
    });
}

void MainWindow::addExplainBox(QToolBar* bar) {
    bar->addWidget(new QLabel(tr(" Explain by: "), this));
    explain_box_ = new QComboBox(this);
    explain_box_->setObjectName(QStringLiteral("ExplainBox"));
    for (const MethodInfo& m : explainMethods()) {
        explain_box_->addItem(explainMethodTitle(m.method), int(m.method));
        explain_box_->setItemData(explain_box_->count() - 1, explainMethodHint(m.method), Qt::ToolTipRole);
    }
    explain_box_->setToolTip(
        tr("What the heatmap shows: the model's attention, or what the model used by another "
           "method"));
    explain_box_->setStatusTip(explain_box_->toolTip());
    connect(explain_box_, &QComboBox::activated, this,
            [this](int i) { setExplainMethod(ExplainMethod(explain_box_->itemData(i).toInt())); });
    bar->addWidget(explain_box_);
    showExplainChoice();
}

void MainWindow::addExplainMenu(QMenu* view) {
    QMenu* menu = view->addMenu(tr("E&xplain by"));
    menu->setToolTipsVisible(true);
    explain_group_ = new QActionGroup(menu);
    for (const MethodInfo& m : explainMethods()) {
        QAction* a = menu->addAction(explainMethodTitle(m.method));
        a->setCheckable(true);
        a->setData(int(m.method));
        a->setToolTip(explainMethodHint(m.method));
        a->setStatusTip(explainMethodHint(m.method));
        explain_group_->addAction(a);
        connect(a, &QAction::triggered, this, [this, method = m.method] { setExplainMethod(method); });
    }
    showExplainChoice();
}

// Whether the open model offers `method`; with none open, whether the RNN models do (rollout is a Transformer's).
static bool offered(const Model* model, ExplainMethod method) {
    return model ? offeredFor(method, model->config) : !methodInfo(method).transformer_only;
}

void MainWindow::setExplainMethod(ExplainMethod method) {
    if (!offered(model().get(), method)) method = ExplainMethod::Attention;
    state_->setExplainMethod(method);
    showExplainChoice();
}

ExplainMethod MainWindow::explainMethod() const { return state_->explainMethod(); }

// The box and the menu show the state's method; rollout is offered for a Transformer only.
void MainWindow::showExplainChoice() {
    const int method = int(state_->explainMethod());
    if (explain_box_) {
        for (int i = 0; i < explain_box_->count(); ++i) {
            const auto m = ExplainMethod(explain_box_->itemData(i).toInt());
            const bool on = offered(model().get(), m);
            explain_box_->setItemData(i, on ? QVariant() : QVariant(0), Qt::UserRole - 1);  // 0: disabled item
        }
        const int i = explain_box_->findData(method);
        if (i != explain_box_->currentIndex()) explain_box_->setCurrentIndex(i);
    }
    if (explain_group_)
        for (QAction* a : explain_group_->actions()) {
            a->setEnabled(offered(model().get(), ExplainMethod(a->data().toInt())));
            a->setChecked(a->data().toInt() == method);
        }
}

void MainWindow::requestExplanation() {
    const ExplainMethod method = state_->explainMethod();
    if (method == ExplainMethod::Attention || !state_->decode() || state_->stepCount() == 0) {
        explain_worker_->cancelAll();
        explain_progress_->finished();
        return;
    }
    // the state holds its decode as a shared PrefixDecoding: the worker keeps it alive while it computes
    ExplainOptions options;
    options.contrast = state_->contrast();
    options.interventions = state_->decode()->interventions;  // the intervened model is the one explained
    explain_worker_->submit(state_->decodedModel(), state_->decodeShared(), method, options);
    explain_progress_->started(explainMethodShortTitle(method));
}

// A run longer than half a second shows in the status bar; Cancel drops it and shows the attention again.
void MainWindow::createExplainProgress() {
    explain_progress_ = new ExplainProgress(this);
    statusBar()->addPermanentWidget(explain_progress_);
    connect(explain_worker_, &ExplainWorker::progressed, explain_progress_, &ExplainProgress::setProgress);
    connect(explain_progress_, &ExplainProgress::cancelRequested, this, [this] {
        explain_worker_->cancelAll();
        explain_progress_->finished();
        setExplainMethod(ExplainMethod::Attention);
        showStatus(tr("Explanation cancelled: the heatmap shows the attention."), 5000);
    });
}

void MainWindow::explainContrast(std::optional<int> token) {
    if (!token) {
        state_->setContrast(std::nullopt);
        return;
    }
    if (!state_->currentStep()) return;
    state_->setContrast(Contrast{state_->cursor() - 1, *token});
    if (!methodInfo(state_->explainMethod()).reads_objective) setExplainMethod(ExplainMethod::Occlusion);
}

// The line above the heatmap while a method is chosen: its name, and "computing" until its matrix is shown.
QString MainWindow::explanationText() const {
    const ExplainMethod method = state_->explainMethod();
    if (method == ExplainMethod::Attention || !state_->decode() || !state_->attentionView().isDefault()) return {};
    QString name = explainMethodTitle(method);
    const std::optional<Contrast>& contrast = state_->contrast();
    const auto& tokens = state_->decode()->result.target_tokens;
    if (contrast && methodInfo(method).reads_objective && size_t(contrast->row) < tokens.size())
        name = tr("%1, why “%2” and not “%3” at step %4")
                   .arg(name, qs(tokens[size_t(contrast->row)]),
                        qs(state_->decodedModel()->target_vocab.token(contrast->token)))
                   .arg(contrast->row + 1);
    if (!state_->explanation()) return tr("Heatmap: %1 — computing… (the attention is shown until then)").arg(name);
    return methodInfo(method).is_signed
               ? tr("Heatmap: %1 — red: raised log p of the row's token, blue: lowered it").arg(name)
               : tr("Heatmap: %1 — rows: output tokens, columns: source tokens").arg(name);
}

}  // namespace attnviz::ui
