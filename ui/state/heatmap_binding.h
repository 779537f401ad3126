// Keeps a HeatmapView showing a DecodeState (the view itself knows nothing of the state: it sits a layer lower):
// the decode's matrix, the rows up to the cursor, the current row and the selected cell; a click on a cell selects
// it in the state. A comparison shows two states in two views, each bound like this.
#pragma once

namespace attnviz::ui {

class DecodeState;
class HeatmapView;

// Shows `state` in `view` now and after every change, until either is destroyed.
void bindHeatmap(HeatmapView* view, DecodeState* state);

}  // namespace attnviz::ui
