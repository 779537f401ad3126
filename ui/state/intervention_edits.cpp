#include "state/intervention_edits.h"

#include "state/decode_state.h"

#include <QUndoStack>

#include <utility>

namespace attnviz::ui {

// One edit of the list: `after` when done, `before` when undone.
class InterventionsCommand : public QUndoCommand {
public:
    InterventionsCommand(InterventionEdits* edits, InterventionList before, InterventionList after, const QString& text)
        : QUndoCommand(text), edits_(edits), before_(std::move(before)), after_(std::move(after)) {}
    void redo() override { apply(after_); }
    void undo() override { apply(before_); }

private:
    void apply(const InterventionList& list) {
        edits_->state_->setInterventions(list);
        emit edits_->interventionsApplied();
    }
    InterventionEdits* edits_;
    InterventionList before_, after_;
};

InterventionEdits::InterventionEdits(DecodeState* state, QUndoStack* stack, QObject* parent)
    : QObject(parent), state_(state), stack_(stack) {}

bool InterventionEdits::push(InterventionList after, const QString& text, QString* problem) {
    if (after == state_->interventions()) return false;
    if (const PrefixDecoding* decode = state_->decode()) {
        const QString why = knockoutProblem(after, int(decode->source.ids.size()));
        if (!why.isEmpty()) {
            if (problem) *problem = why;
            return false;
        }
    }
    stack_->push(new InterventionsCommand(this, state_->interventions(), std::move(after), text));
    return true;
}

bool InterventionEdits::add(const InterventionItem& item, QString* problem) {
    InterventionList after = state_->interventions();
    InterventionItem on = item;
    on.enabled = true;
    const int i = indexOf(after, item);
    if (i >= 0)
        after[size_t(i)] = on;
    else
        after.push_back(on);
    return push(std::move(after), interventionText(item), problem);
}

bool InterventionEdits::setEnabled(int index, bool on, QString* problem) {
    InterventionList after = state_->interventions();
    if (index < 0 || index >= int(after.size()) || after[size_t(index)].enabled == on) return false;
    after[size_t(index)].enabled = on;
    const QString what = interventionText(after[size_t(index)]);
    return push(std::move(after), on ? tr("Switch on: %1").arg(what) : tr("Switch off: %1").arg(what), problem);
}

bool InterventionEdits::remove(int index) {
    InterventionList after = state_->interventions();
    if (index < 0 || index >= int(after.size())) return false;
    const QString what = interventionText(after[size_t(index)]);
    after.erase(after.begin() + index);
    return push(std::move(after), tr("Remove: %1").arg(what), nullptr);
}

bool InterventionEdits::removeSame(const InterventionItem& item) {
    return remove(indexOf(state_->interventions(), item));
}

bool InterventionEdits::clear() {
    if (state_->interventions().empty()) return false;
    return push({}, tr("Clear all interventions"), nullptr);
}

}  // namespace attnviz::ui
