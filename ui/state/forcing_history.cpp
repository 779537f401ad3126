#include "state/forcing_history.h"
#include "heatmap/utf8_text.h"

#include "state/decode_state.h"

#include <QUndoStack>

#include <utility>

namespace attnviz::ui {

std::vector<int> forcedPrefixAfter(const PrefixDecoding& decode, int step, int token, bool greedy_baseline) {
    std::vector<int> forced;
    if (step < 0 || step >= int(decode.steps.size())) return forced;
    for (int i = 0; i < step; ++i) forced.push_back(decode.steps[size_t(i)].token);
    forced.push_back(token);
    if (!greedy_baseline) return forced;
    // Step i's top_k does not depend on step i's own token: it is the model's choice there whatever was forced.
    auto ownChoice = [&](size_t i) {
        const auto& top = decode.steps[i].top_k;
        return !top.empty() && top.front().id == forced[i];
    };
    while (!forced.empty() && ownChoice(forced.size() - 1)) forced.pop_back();
    return forced;
}

QVector<int> userForcedRows(const PrefixDecoding& decode, int forced_count) {
    QVector<int> rows;
    for (int i = 0; i < forced_count && i < int(decode.steps.size()); ++i) {
        const StepRecord& s = decode.steps[size_t(i)];
        if (s.forced && !s.top_k.empty() && s.token != s.top_k.front().id) rows << i;
    }
    return rows;
}

// One edit of the forced tokens: `after` when done, `before` when undone, each with the cursor to show.
class ForcedTokensCommand : public QUndoCommand {
public:
    ForcedTokensCommand(ForcingHistory* history, std::vector<int> before, int cursor_before, std::vector<int> after,
                        int cursor_after, const QString& text)
        : QUndoCommand(text),
          history_(history),
          before_(std::move(before)),
          after_(std::move(after)),
          cursor_before_(cursor_before),
          cursor_after_(cursor_after) {}
    void redo() override { apply(after_, cursor_after_); }
    void undo() override { apply(before_, cursor_before_); }

private:
    void apply(const std::vector<int>& tokens, int cursor) {
        history_->state_->setForcedTokens(tokens);
        emit history_->forcedTokensApplied(cursor);
    }
    ForcingHistory* history_;
    std::vector<int> before_, after_;
    int cursor_before_, cursor_after_;
};

ForcingHistory::ForcingHistory(DecodeState* state, QObject* parent)
    : QObject(parent), state_(state), stack_(new QUndoStack(this)) {
    // Edits of the request start a new decode that no command speaks of.
    connect(state_, &DecodeState::sourceTextChanged, stack_, &QUndoStack::clear);
    connect(state_, &DecodeState::referenceTextChanged, stack_, &QUndoStack::clear);
    connect(state_, &DecodeState::modelChanged, stack_, &QUndoStack::clear);
}

bool ForcingHistory::force(int step, int token) {
    const PrefixDecoding* decode = state_->decode();
    if (!decode || step < 0 || step >= int(decode->steps.size())) return false;
    if (token == decode->steps[size_t(step)].token) return false;
    const Vocabulary& vocab = state_->decodedModel()->target_vocab;
    if (token < 0 || token >= vocab.size()) return false;
    const bool greedy = state_->referenceText().trimmed().isEmpty();
    std::vector<int> after = forcedPrefixAfter(*decode, step, token, greedy);
    if (after == state_->forcedTokens()) return false;
    const QString text = tr("Force “%1” at step %2").arg(qs(vocab.token(token))).arg(step + 1);
    stack_->push(
        new ForcedTokensCommand(this, state_->forcedTokens(), state_->cursor(), std::move(after), step + 1, text));
    return true;
}

bool ForcingHistory::clearForced() {
    if (state_->forcedTokens().empty()) return false;
    stack_->push(new ForcedTokensCommand(this, state_->forcedTokens(), state_->cursor(), {}, state_->cursor(),
                                         tr("Clear forced tokens")));
    return true;
}

}  // namespace attnviz::ui
