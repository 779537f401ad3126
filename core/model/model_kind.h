// What each model kind offers, asked in one place: the views, the interventions and the explanations name what they
// need (heads, self-attention, one attention row per step) instead of asking whether the model is a Transformer.
// How a kind is stored and computed (its keys, tensors, parameter count and steps) is the model layer's own:
// model/config, model/params, model/model and decode/kind_steps dispatch on the kind.
#pragma once
#include "model/config.h"

namespace attnviz {

struct KindOffers {
    // Layers of attention heads (docs/transformer.md): the head grid, a head's view, head importance, a head off.
    bool attention_heads = false;
    // Encoder and decoder self-attention: their views and the rollout explanation.
    bool self_attention = false;
    // One attention row per step, scored from the decoder's state (docs/model-format.md): attending a single source
    // position (the attend intervention) and the cell inspector's breakdown of a weight into its score.
    bool one_scored_row = false;
};

inline KindOffers kindOffers(const ModelConfig& c) {
    if (c.isTransformer()) return {.attention_heads = true, .self_attention = true, .one_scored_row = false};
    return {.attention_heads = false, .self_attention = false, .one_scored_row = true};
}

}  // namespace attnviz
