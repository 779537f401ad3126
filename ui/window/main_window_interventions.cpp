// MainWindow's interventions (docs/gui.md, "Interventions"): the dock that lists them (views/intervention_list.h),
// their edits on the undo stack "what if?" uses (state/intervention_edits.h), the heatmap's context menu and the head
// grid's "Remove this head" wired to those edits, the decode each edit asks for, the marks of the decode shown on the
// heatmap (and so on its exports), and what a model change keeps of the list.
#include "heatmap/heatmap_view.h"
#include "heatmap/utf8_text.h"
#include "state/decode_state.h"
#include "state/forcing_history.h"
#include "state/intervention_edits.h"
#include "state/word_view.h"
#include "text/tokenizer.h"
#include "views/head_grid.h"
#include "views/intervention_list.h"
#include "window/dock_scroller.h"
#include "window/heatmap_actions.h"
#include "window/main_window.h"

#include <QDockWidget>

#include <algorithm>

namespace attnviz::ui {

void MainWindow::createInterventionsDock() {
    intervention_edits_ = new InterventionEdits(state_, history_->undoStack(), this);
    intervention_list_ = new InterventionListView(state_, intervention_edits_, this);
    intervention_dock_ = new QDockWidget(this);
    intervention_dock_->setObjectName(QStringLiteral("InterventionsDock"));
    intervention_dock_->setWidget(new DockScroller(intervention_list_, intervention_dock_));
    addDockWidget(Qt::RightDockWidgetArea, intervention_dock_);
    intervention_dock_->hide();                           // shown with the first intervention
    tabWhereNoRoom(intervention_dock_, inspector_dock_);  // a short window: in a tab with the cell inspector
    heatmap_actions_->setInterventionEdits(intervention_edits_);
    head_grid_->setInterventionEdits(intervention_edits_);
    connect(heatmap_actions_, &HeatmapActions::interventionRefused, this, [this](const QString& why) {
        showInterventionsDock();
        intervention_list_->setMessage(why);
        showStatus(why, 10000);
    });
    connect(intervention_edits_, &InterventionEdits::interventionsApplied, this, &MainWindow::decodeInterventions);
    connect(state_, &DecodeState::interventionsChanged, this, [this] {
        if (!state_->interventions().empty()) showInterventionsDock();
    });
    connect(state_, &DecodeState::decodeChanged, this, &MainWindow::showInterventionMarks);
    connect(state_, &DecodeState::wordsChanged, this, &MainWindow::showInterventionMarks);
    connect(state_, &DecodeState::attentionViewChanged, this, &MainWindow::showInterventionMarks);
}

// Shown with room for a few entries: the right column's other docks give up some height. In a short window it shares
// a tab with the cell inspector (tabDockIfNoRoom), in front.
void MainWindow::showInterventionsDock() {
    if (intervention_dock_->isVisible()) return;
    const bool opening = intervention_dock_->isHidden();
    intervention_dock_->show();
    intervention_dock_->raise();
    if (opening && tabifiedDockWidgets(intervention_dock_).isEmpty())
        resizeDocks({intervention_dock_}, {std::max(200, height() / 4)}, Qt::Vertical);
}

// An edit was done, undone or redone: decode the sentence again at once with the list's enabled entries (the state's
// forced tokens still apply), keeping the step shown.
void MainWindow::decodeInterventions() {
    decodes_->decodeNow(state_->hasDecode() && cursorStep() < stepCount() ? cursorStep() : -1);
}

// The knockouts and attends of the decode shown, drawn where the heatmap's columns are its source positions (the
// cross-attention, the model's or a head's, and the explanations of it). Heads off are the head grid's.
void MainWindow::showInterventionMarks() {
    Interventions drawn;
    if (state_->decode() && state_->attentionView().kind == AttentionKind::Cross) {
        drawn = state_->decode()->interventions;
        drawn.heads_off.clear();
        if (state_->wordsShown()) {  // the heatmap's columns are words (state/word_view.h)
            drawn.knockout = knockoutWords(state_->decode()->result, drawn.knockout);
            drawn.attend.clear();
        }
    }
    if (drawn == heatmap_->style().interventions) return;
    HeatmapStyle shown = heatmap_->style();
    shown.interventions = drawn;
    heatmap_->setStyle(shown);
}

// Switching to a sibling (or opening another model) keeps the entries the new model can take for the sentence (a
// knockout: any model; an attend: the RNN kinds; a head: a Transformer that has it) and says which it dropped.
void MainWindow::keepInterventionsFor(const Model& model) {
    const InterventionList& list = state_->interventions();
    if (list.empty()) return;
    int S = 2;
    try {
        S = int(tokenizeSource(model, sourceText().toStdString()).ids.size());
    } catch (const std::exception&) {
        // a sentence the new model cannot read: its decode says why; positions are checked against <sos> <eos>
    }
    InterventionList dropped;
    QStringList reasons;
    InterventionList kept = interventionsFor(model, list, S, &dropped, &reasons);
    state_->setInterventions(std::move(kept));
    if (dropped.empty()) return;
    QStringList lines;
    for (size_t i = 0; i < dropped.size(); ++i)
        lines << tr("%1 was dropped: %2").arg(interventionText(dropped[i]), reasons.value(int(i)));
    showInterventionsDock();
    intervention_list_->setMessage(lines.join(u'\n'));
    showStatus(lines.front(), 10000);
}

void MainWindow::setInterventions(const Interventions& iv) {
    std::vector<std::string> words;
    if (model()) try {
            words = tokenizeSource(*model(), sourceText().toStdString()).tokens;
        } catch (const std::exception&) {
            // an unreadable sentence: entries named by position; its decode says what is wrong
        }
    const auto word = [&](int j) {
        return j >= 0 && j < int(words.size()) ? qs(words[size_t(j)]) : QString::number(j);
    };
    InterventionList list;
    for (int j : iv.knockout) list.push_back(InterventionItem::knockout(j, word(j)));
    for (const AttendAt& a : iv.attend)
        list.push_back(InterventionItem::attend(a.row, QString(), a.position, word(a.position)));
    for (const HeadRef& h : iv.heads_off) list.push_back(InterventionItem::headOff(h));
    state_->setInterventions(std::move(list));
}

// The notice line when the engine refused the interventions: the decode shown is the plain model's.
QString MainWindow::interventionNotice(const DecodeOutcome& outcome) const {
    if (outcome.intervention_error.isEmpty()) return {};
    return tr("The interventions were not made, the plain model is shown: %1").arg(outcome.intervention_error);
}

}  // namespace attnviz::ui
