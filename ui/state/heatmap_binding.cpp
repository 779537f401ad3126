#include "state/heatmap_binding.h"

#include "heatmap/heatmap_view.h"
#include "state/decode_state.h"

namespace attnviz::ui {

namespace {

// Rows the view shows: those before the cursor, -1 (all) once the cursor is at the end.
int visibleRows(const DecodeState& state) { return state.cursor() >= state.stepCount() ? -1 : state.cursor(); }

void showDecode(HeatmapView* view, const DecodeState& state) {
    const HeatmapData data = state.decode() ? HeatmapData::fromDecode(state.decode()->result) : HeatmapData{};
    // One replot for the new matrix, its shown rows and its marked row.
    view->setData(data, visibleRows(state), state.cursor() - 1);
}

void showCursor(HeatmapView* view, const DecodeState& state) {
    // Each of these replots: skip what did not change (after a decode at the end only the marked row moves).
    if (view->visibleRows() != visibleRows(state)) view->setVisibleRows(visibleRows(state));
    if (view->style().current_row != state.cursor() - 1) view->setCurrentRow(state.cursor() - 1);
}

void showSelection(HeatmapView* view, const DecodeState& state) {
    const HeatmapStyle& s = view->style();
    if (s.selected_row != state.selectedRow() || s.selected_col != state.selectedColumn())
        view->setSelectedCell(state.selectedRow(), state.selectedColumn());
}

}  // namespace

void bindHeatmap(HeatmapView* view, DecodeState* state) {
    QObject::connect(state, &DecodeState::decodeChanged, view, [view, state] { showDecode(view, *state); });
    QObject::connect(state, &DecodeState::cursorChanged, view, [view, state] { showCursor(view, *state); });
    QObject::connect(state, &DecodeState::selectionChanged, view, [view, state] { showSelection(view, *state); });
    QObject::connect(view, &HeatmapView::cellClicked, state,
                     [state](int row, int col) { state->setSelection(row, col); });
    showDecode(view, *state);
    showSelection(view, *state);
}

}  // namespace attnviz::ui
