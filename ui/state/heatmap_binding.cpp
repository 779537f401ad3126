#include "state/heatmap_binding.h"

#include "heatmap/attention_view_data.h"
#include "heatmap/explanation_data.h"
#include "heatmap/heatmap_view.h"
#include "state/decode_state.h"

namespace attnviz::ui {

namespace {

// Rows the view shows: those before the cursor, -1 (all) once the cursor is at the end or when the rows are not the
// decoder's steps (the encoder's self-attention).
int visibleRows(const DecodeState& state) {
    if (!stepsWithDecoder(state.attentionView().kind)) return -1;
    return state.cursor() >= state.stepCount() ? -1 : state.cursor();
}

int currentRow(const DecodeState& state) {
    return stepsWithDecoder(state.attentionView().kind) ? state.cursor() - 1 : -1;
}

// The explanation shown instead of the attention: the chosen method's matrix once it is computed, for the decode's
// own cross-attention view (a head or a self-attention stays as it is). nullptr: the attention.
const Explanation* shownExplanation(const DecodeState& state) {
    if (!state.decode() || !state.attentionView().isDefault()) return nullptr;
    return state.explanation();
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
                             : e             ? explanationData(state.decode()->result, *e)
                                             : heatmapDataOf(state.decode()->result, state.attentionView());
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
    const int row = shown ? state.selectedRow() : -1, col = shown ? state.selectedColumn() : -1;
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
    QObject::connect(view, &HeatmapView::cellClicked, state, [state](int row, int col) {
        if (state->attentionView().isDefault()) state->setSelection(row, col);
    });
    showDecode(view, *state);
    showSelection(view, *state);
}

}  // namespace attnviz::ui
