// Which cross-attention each side of a comparison compares (`attnviz-cli compare --head-a/--head-b`, the compare
// view's choosers): the decode's `attention` (the default: for a Transformer the last decoder layer's cross-attention
// averaged over heads), or for a Transformer one decoder layer's cross-attention, one head or the mean over that
// layer's heads. The rows are the decode's own (decode/attention_views.h), the numbers the head grid shows; the
// comparison's maths (eval/compare.h) then runs on them unchanged.
#pragma once
#include "decode/attention_views.h"
#include "model/config.h"

#include <string>

namespace attnviz {

// `r` with `attention` replaced by the rows of the cross-attention `view` chooses and `scores` dropped (raw scores
// belong to the decode's attention; a Transformer has none); tokens, ids and the per-head keys kept. The default view
// returns `r` as it is. Throws InputError for a view `r` does not have (isValidView) or of another kind than Cross.
DecodeResult withComparedAttention(const DecodeResult& r, const AttentionView& view);

// "L,H" or "L,mean", layer and head counted from 1 (as `attnviz --head`): a cross-attention view (0-based inside).
// Throws InputError naming what is wrong ("wants LAYER,HEAD from 1, e.g. 2,1 or 2,mean; got "2,x"").
AttentionView parseHeadChoice(const std::string& text);

// Why `config`'s models have no such cross-attention ("" when they have; the default view always fits): an RNN model
// has no layers or heads; the layer or head past the model's ("it has 3 decoder layers; layer 4 asked for").
std::string headChoiceProblem(const ModelConfig& config, const AttentionView& view);

// The choice in words, counted from 1: "attention" (the default), "layer 2, head 3", "layer 2, mean of heads".
std::string headChoiceText(const AttentionView& view);

}  // namespace attnviz
