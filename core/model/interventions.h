// Interventions of docs/explain.md ("Interventions"): a decode with some of the model's attention changed, not an
// explanation of the plain one. Plain data, part of a decode request (DecodeOptions::interventions); nn/ applies them
// (nn/attention for the RNN kinds, nn/transformer for the Transformer) and decode/ checks them against the model and
// the source (checkInterventions) before a decode starts. An empty set changes no bit of any decode.
// Legend: S source length with <sos>/<eos>.
#pragma once
#include "model/model.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnviz {

// AttentionKind (the three attentions of a Transformer) is model/transformer_params.h's.
// The CLI's and the JSON's names: "cross", "encoder", "decoder"; and back (nullopt for another name).
std::string_view headKindName(AttentionKind kind);
std::optional<AttentionKind> headKindFromName(std::string_view name);

// Row `row` (0-based, the target token it produces) attends only to source position `position`: a one-hot row.
struct AttendAt {
    int row = 0;
    int position = 0;
    bool operator==(const AttendAt&) const = default;
};

// Head `head` of layer `layer` of one of a Transformer's attentions outputs zeros (o_h = 0 before out_proj).
struct HeadRef {
    AttentionKind kind = AttentionKind::Cross;
    int layer = 0;
    int head = 0;
    bool operator==(const HeadRef&) const = default;
};

struct Interventions {
    std::vector<int> knockout;       // source positions (0 = <sos>) whose scores are −∞ before every softmax
    std::vector<AttendAt> attend;    // RNN models: one-hot rows; at most one per row
    std::vector<HeadRef> heads_off;  // Transformer models
    bool empty() const { return knockout.empty() && attend.empty() && heads_off.empty(); }
    bool operator==(const Interventions&) const = default;
};

// InputError naming the first intervention the model or a source of S tokens cannot take: a knockout or attend
// position past the source, an attend row < 0 or ≥ max_rows (the decode's length limit), two attends of one row,
// attend on a Transformer, head off on an RNN model, a layer or head out of range.
void checkInterventions(const Model& model, const Interventions& iv, int S, int max_rows);
// The part of checkInterventions that needs no sentence: attend on a Transformer, head off on an RNN model, a layer
// or head out of range. A command checks it once, before its first line, so that the error names no line.
void checkInterventionKinds(const Model& model, const Interventions& iv);

// The part of `iv` that `model` can take (checkInterventions on each intervention alone, in order: an attend is kept
// only with the attends kept before it): what a second model is decoded with beside the first (the compare view).
// `refused` (may be null) gets the reason for each one left out.
Interventions interventionsModelTakes(const Model& model, const Interventions& iv, int S, int max_rows,
                                      std::vector<std::string>* refused);

// (S) 1 where a position is knocked out; empty when none is (the plain path).
std::vector<char> knockoutMask(const Interventions& iv, int S);
// (heads) 1 where head h of `kind`'s layer `layer` is off; empty when none is.
std::vector<char> headsOffMask(const Interventions& iv, AttentionKind kind, int layer, int heads);
// The attended position of row `row`, or −1 (a scan of the attends: for one look-up).
int attendedPosition(const Interventions& iv, int row);
// (the largest attended row + 1) each row's attended position, −1 for a row without: a decode's look-ups per step
// in constant time.
std::vector<int> attendedPositions(const Interventions& iv);

}  // namespace attnviz
