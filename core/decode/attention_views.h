// Which of a decode's attentions a view shows (docs/transformer.md): `attention` (the default heatmap, every
// model kind), or for a Transformer one layer's cross-attention, encoder self-attention or decoder self-attention,
// one head or the mean over the layer's heads. The matrices are the decode's own numbers (DecodeResult), cut or
// averaged here once, so that the window's head grid, its main heatmap and their exports show the same values.
// Legend: S source length with <sos>/<eos>, T target length, L layers of the kind's stack, nhead heads.
#pragma once
#include "decode/decoding.h"
#include "model/interventions.h"

#include <string>
#include <vector>

namespace attnviz {

// AttentionKind (cross, encoder self, decoder self) is model/interventions.h's.

struct AttentionView {
    AttentionKind kind = AttentionKind::Cross;
    int layer = -1;  // from 0; -1: the decode's `attention` (kind Cross), the default
    int head = -1;   // from 0; -1: the mean over the layer's heads
    bool isDefault() const { return layer < 0; }
    bool operator==(const AttentionView&) const = default;
};

// Layers and heads of `kind` in `r`: 0 for the RNN kinds (which have no heads and no self-attention).
int attentionLayers(const DecodeResult& r, AttentionKind kind);
int attentionHeads(const DecodeResult& r, AttentionKind kind);
// The default view, or a layer and head (or -1) that `r` has.
bool isValidView(const DecodeResult& r, const AttentionView& view);
// Whether the view's rows are the decoder's steps (shown up to the cursor): Cross and DecoderSelf, not EncoderSelf.
bool stepsWithDecoder(AttentionKind kind);

// (n) the mean over the heads of one query's weights, row h = head h of `heads` (nhead, n). The one definition of
// "averaged over heads": the decode's `attention` row is this of the last layer's cross-attention.
Vec meanOverHeads(const Mat& heads);

// The view's matrix, row by row (the heatmap's form); the mean over heads row by row with meanOverHeads. The default
// view is r.attention. Throws InputError for a view `r` does not have (isValidView).
std::vector<std::vector<float>> attentionViewRows(const DecodeResult& r, const AttentionView& view);

// The view's row and column tokens: Cross target × source, EncoderSelf source × source, DecoderSelf target × the
// decoder inputs (<sos> then the target tokens but the last).
struct AttentionAxes {
    std::vector<std::string> rows, cols;
};
AttentionAxes attentionViewAxes(const DecodeResult& r, AttentionKind kind);

// The view as a decode object of its own for a table (decodeToCsv): its axes' tokens as target and source tokens,
// its matrix as `attention`; ids, scores, log-probs and the Transformer keys left empty.
DecodeResult attentionViewResult(const DecodeResult& r, const AttentionView& view);

}  // namespace attnviz
