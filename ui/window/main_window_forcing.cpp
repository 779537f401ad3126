// MainWindow's "what if?": forcing a candidate or any typed token at the current step through the undo history
// (state/forcing_history.h), Edit ▸ Undo / Redo / Clear forced tokens, and the decode each forcing asks for.
#include "window/main_window.h"

#include "state/decode_state.h"
#include "state/forcing_history.h"
#include "views/force_token_box.h"

#include <QAction>
#include <QUndoStack>

namespace attnviz::ui {

void MainWindow::createForcingActions() {
    QUndoStack* stack = history_->undoStack();
    undo_act_ = new QAction(QIcon::fromTheme(QStringLiteral("edit-undo")), tr("&Undo"), this);
    undo_act_->setShortcut(QKeySequence::Undo);
    redo_act_ = new QAction(QIcon::fromTheme(QStringLiteral("edit-redo")), tr("&Redo"), this);
    redo_act_->setShortcut(QKeySequence::Redo);
    connect(undo_act_, &QAction::triggered, stack, &QUndoStack::undo);
    connect(redo_act_, &QAction::triggered, stack, &QUndoStack::redo);
    // The texts name the forcing they undo or redo ("Undo Force “chat” at step 2").
    const auto describe = [](QAction* act, const QString& plain, const QString& named, const QString& what) {
        act->setText(what.isEmpty() ? plain : named.arg(what));
        act->setStatusTip(what.isEmpty() ? plain : what);
    };
    const auto update = [this, stack, describe] {
        undo_act_->setEnabled(stack->canUndo());
        redo_act_->setEnabled(stack->canRedo());
        describe(undo_act_, tr("&Undo"), tr("&Undo: %1"), stack->undoText());
        describe(redo_act_, tr("&Redo"), tr("&Redo: %1"), stack->redoText());
    };
    connect(stack, &QUndoStack::indexChanged, undo_act_, update);
    connect(stack, &QUndoStack::canUndoChanged, undo_act_, update);
    connect(stack, &QUndoStack::canRedoChanged, undo_act_, update);
    update();

    clear_forced_act_ = new QAction(tr("C&lear forced tokens"), this);
    clear_forced_act_->setStatusTip(tr("Forget every forced \"what if?\" token: the model's own output again"));
    clear_forced_act_->setToolTip(clear_forced_act_->statusTip());
    connect(clear_forced_act_, &QAction::triggered, history_, &ForcingHistory::clearForced);
    const auto enable = [this] { clear_forced_act_->setEnabled(!state_->forcedTokens().empty()); };
    connect(state_, &DecodeState::forcedTokensChanged, clear_forced_act_, enable);
    enable();
    force_box_->setClearAction(clear_forced_act_);
}

void MainWindow::forceCandidate(int token) {
    if (!model() || cursorStep() < 1) return;
    history_->force(cursorStep() - 1, token);
}

// A forcing was done, undone or redone: decode the state's forced tokens (ids of the decoded model).
void MainWindow::decodeForced(int cursor) { decodes_->decodeNow(cursor); }

}  // namespace attnviz::ui
