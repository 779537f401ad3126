// Keeps a HeatmapView's label marks (heatmap_data.h: LabelMarks) on a DecodeState: the rows whose token the user
// forced ("what if?"), and the words the model does not know: source columns, and rows of a reference translation
// (forced decoding keeps the reference's spelling of a word that became <unk>).
#pragma once
#include "heatmap/heatmap_data.h"

namespace attnviz::ui {

class DecodeState;
class HeatmapView;

// The marks for the decode `state` shows (none without a decode).
LabelMarks labelMarksOf(const DecodeState& state);
// Shows labelMarksOf(state) in `view` now and after every change of the decode or the forced tokens.
void bindLabelMarks(HeatmapView* view, DecodeState* state);

}  // namespace attnviz::ui
