// The heatmap of one of a decode's attentions (decode/attention_views.h): the decode's `attention`, or a Transformer's
// cross-, encoder self- or decoder self-attention of one layer and head (or the mean over its heads), with the view's
// tokens on both axes and its name for titles, the status bar and exports.
#pragma once
#include "decode/attention_views.h"
#include "heatmap/heatmap_data.h"

#include <QString>

namespace attnviz::ui {

// The view's matrix as the decode holds it (an invalid view: the default). Decoder self-attention is `causal`.
HeatmapData heatmapDataOf(const DecodeResult& r, const AttentionView& view);
// "cross-attention", "encoder self-attention", "decoder self-attention" (translated).
QString attentionKindName(AttentionKind kind);
// "Decoder self-attention, layer 2, head 1" / "…, layer 2, mean of 4 heads" (layers and heads counted from 1);
// the default view: "Attention (last layer, mean of the heads)" for a Transformer (nhead > 0), "Attention" otherwise.
QString attentionViewTitle(const AttentionView& view, int nhead);
// What the rows and the columns of the view are, for the axis note under the main heatmap.
QString attentionViewAxesText(AttentionKind kind);

}  // namespace attnviz::ui
