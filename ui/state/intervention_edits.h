// The interventions list's edits as undoable commands (Edit ▸ Undo / Redo) on the undo stack "what if?" forcing uses
// (state/forcing_history.h): add a knockout, an attend or a head off, switch one on or off, remove one, clear them all
// (the plain model again). Each command sets the state's list (DecodeState::setInterventions); whoever decodes (the
// window) decodes again when interventionsApplied is sent.
#pragma once
#include "state/intervention_items.h"

#include <QObject>
#include <QString>

class QUndoStack;

namespace attnviz::ui {

class DecodeState;

class InterventionEdits : public QObject {
    Q_OBJECT
public:
    // `stack` is shared with the forcing history (and emptied with it when the sentence or the model changes).
    InterventionEdits(DecodeState* state, QUndoStack* stack, QObject* parent = nullptr);

    // Adds `item` (enabled) as one command; an entry for the same intervention is replaced (an attend of the same row)
    // or switched on. False when nothing would change, or when the list could not be decoded: *problem (if given)
    // then says why (knockoutProblem).
    bool add(const InterventionItem& item, QString* problem = nullptr);
    // Switches entry `index` on or off; false when it is so already, out of range, or the list could not be decoded.
    bool setEnabled(int index, bool on, QString* problem = nullptr);
    bool remove(int index);
    // Removes every entry: the plain model. False when the list is empty.
    bool clear();
    // Removes the entry that is the same intervention as `item` (the context menus' "Restore"); false when none is.
    bool removeSame(const InterventionItem& item);

signals:
    // A command was done, undone or redone: the state's list is its; decode with it.
    void interventionsApplied();

private:
    friend class InterventionsCommand;
    bool push(InterventionList after, const QString& text, QString* problem);

    DecodeState* state_;
    QUndoStack* stack_;
};

}  // namespace attnviz::ui
