#include "state/heatmap_binding.h"

#include "heatmap/attention_view_data.h"
#include "heatmap/explanation_data.h"
#include "heatmap/heatmap_view.h"
#include "state/decode_state.h"
#include "state/word_view.h"

namespace attnviz::ui {

namespace {

// Rows the view shows: those before the cursor, -1 (all) once the cursor is at the end or when the rows are not the
// decoder's steps (the encoder's self-attention).
// In words (state/word_view.h) the rows are the target's words: those started by the cursor's pieces are shown, and
// the current one is the word of the current piece.
int visibleRows(const DecodeState& state) {
    if (!stepsWithDecoder(state.attentionView().kind)) return -1;
    if (state.cursor() >= state.stepCount()) return -1;
    return state.wordsShown() ? wordsStarted(state.decode()->result.target_words, state.cursor()) : state.cursor();
}

int currentRow(const DecodeState& state) {
    if (!stepsWithDecoder(state.attentionView().kind)) return -1;
    const int piece = state.cursor() - 1;
    return state.wordsShown() && piece >= 0 ? wordOfPiece(state.decode()->result.target_words, piece) : piece;
}

// The state's selection is in pieces; in words a cell is its words' (and a click selects the words' first pieces).
int shownRow(const DecodeState& state, int piece) {
    return state.wordsShown() && piece >= 0 ? wordOfPiece(state.decode()->result.target_words, piece) : piece;
}
int shownColumn(const DecodeState& state, int piece) {
    return state.wordsShown() && piece >= 0 ? wordOfPiece(state.decode()->result.source_words, piece) : piece;
}

// The explanation shown instead of the attention: the chosen method's matrix once it is computed, for the decode's
// own cross-attention view (a head or a self-attention stays as it is). nullptr: the attention.
const Explanation* shownExplanation(const DecodeState& state) {
    if (!state.decode() || !state.attentionView().isDefault()) return nullptr;
    return state.shownExplanation();
}

// The method's look (explanationStyle), set only when it changes: a new style redraws the whole view.
void showMethodStyle(HeatmapView* view, const Explanation* e) {
    const HeatmapStyle s = explanationStyle(view->style(), e);
    const HeatmapStyle& now = view->style();
    if (s.diverging == now.diverging && s.fit_range == now.fit_range && s.scale_label == now.scale_label) return;
    view->setStyle(s);
}

void showDecode(HeatmapView* view, const DecodeState& state) {
    const Explanation* e = shownExplanation(state);
    showMethodStyle(view, e);
    const HeatmapData data = !state.decode() ? HeatmapData{}
                             : e             ? explanationData(*state.shownResult(), *e)
                                             : heatmapDataOf(*state.shownResult(), state.attentionView());
    // One replot for the new matrix, its shown rows and its marked row.
    view->setData(data, visibleRows(state), currentRow(state));
}

void showCursor(HeatmapView* view, const DecodeState& state) {
    // Each of these replots: skip what did not change (after a decode at the end only the marked row moves).
    if (view->visibleRows() != visibleRows(state)) view->setVisibleRows(visibleRows(state));
    if (view->style().current_row != currentRow(state)) view->setCurrentRow(currentRow(state));
}

// The selected cell is one of the decode's `attention` (the cell inspector explains it): other views show none.
void showSelection(HeatmapView* view, const DecodeState& state) {
    const bool shown = state.attentionView().isDefault();
    const int row = shown ? shownRow(state, state.selectedRow()) : -1;
    const int col = shown ? shownColumn(state, state.selectedColumn()) : -1;
    const HeatmapStyle& s = view->style();
    if (s.selected_row != row || s.selected_col != col) view->setSelectedCell(row, col);
}

}  // namespace

void bindHeatmap(HeatmapView* view, DecodeState* state) {
    QObject::connect(state, &DecodeState::decodeChanged, view, [view, state] { showDecode(view, *state); });
    QObject::connect(state, &DecodeState::cursorChanged, view, [view, state] { showCursor(view, *state); });
    QObject::connect(state, &DecodeState::selectionChanged, view, [view, state] { showSelection(view, *state); });
    QObject::connect(state, &DecodeState::attentionViewChanged, view, [view, state] {
        showDecode(view, *state);
        showSelection(view, *state);
    });
    QObject::connect(state, &DecodeState::explainMethodChanged, view, [view, state] { showDecode(view, *state); });
    QObject::connect(state, &DecodeState::explanationChanged, view, [view, state] { showDecode(view, *state); });
    QObject::connect(state, &DecodeState::wordsChanged, view, [view, state] {
        showDecode(view, *state);
        showSelection(view, *state);
    });
    QObject::connect(view, &HeatmapView::cellClicked, state, [state](int row, int col) {
        if (!state->attentionView().isDefault()) return;
        if (state->wordsShown()) {
            row = firstPiece(state->decode()->result.target_words, row);
            col = firstPiece(state->decode()->result.source_words, col);
        }
        state->setSelection(row, col);
    });
    showDecode(view, *state);
    showSelection(view, *state);
}

}  // namespace attnviz::ui
