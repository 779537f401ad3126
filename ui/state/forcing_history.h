// "What if?" as undoable edits (Edit ▸ Undo / Redo) of a DecodeState's forced tokens: forcing a token at a step, and
// clearing every forced token. Each edit is a QUndoCommand that sets the state's forced tokens; whoever decodes (the
// window) decodes again when forcedTokensApplied is sent, with the step cursor it names.
//
// The forced tokens are a prefix (decode/prefix_decode.h: ids forced at steps 0, 1, ...): forcing at step i forces
// the tokens shown before it too. Entries at the end that the model chooses itself are left out, so that choosing
// the model's own token is no forcing and the list does not grow. The history is emptied when the sentence, the
// reference or the model changes: its commands speak of that decode's steps and that model's ids.
#pragma once
#include "decode/prefix_decode.h"

#include <QObject>
#include <QString>
#include <QVector>

#include <vector>

class QUndoStack;

namespace attnviz::ui {

class DecodeState;

// The forced tokens after forcing `token` at step `step` (0-based) of `decode`: its tokens before the step, then
// `token`; with `greedy_baseline` (no reference: the unforced decode is greedy) the trailing entries equal to the
// model's own choice (top_k[0]) are dropped.
std::vector<int> forcedPrefixAfter(const PrefixDecoding& decode, int step, int token, bool greedy_baseline);

// The rows of `decode` (data indices) among its first `forced_count` steps where the token is forced and is not the
// model's own choice: what the user changed.
QVector<int> userForcedRows(const PrefixDecoding& decode, int forced_count);

class ForcingHistory : public QObject {
    Q_OBJECT
public:
    explicit ForcingHistory(DecodeState* state, QObject* parent = nullptr);

    QUndoStack* undoStack() const { return stack_; }
    // Forces `token` at step `step` of the state's decode as one undoable command. False (nothing done) without a
    // decode, for a step outside it, for the token the step shows, and when the forced tokens would not change
    // (the model's own choice).
    bool force(int step, int token);
    // Clears the forced tokens as one undoable command (the model's own decode again); false when none are forced.
    bool clearForced();

signals:
    // A command was done, undone or redone: the state's forced tokens are its; decode with them and show step
    // `cursor` (DecodeState::setCursor's numbering).
    void forcedTokensApplied(int cursor);

private:
    friend class ForcedTokensCommand;
    DecodeState* state_;
    QUndoStack* stack_;
};

}  // namespace attnviz::ui
