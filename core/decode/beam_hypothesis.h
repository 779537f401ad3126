// One hypothesis of a beam search (a node of BeamResult's tree and its path from the root) as the window and the
// CLI show it: its tokens, its place among the finished hypotheses, and its decode object with every attention.
// The search keeps every layer's and head's attention of a Transformer for its best hypothesis only (`best`);
// for any other node they come from a forced decode of the node's tokens, which feeds the decoder the same inputs
// the search fed it along that path and so gives the same rows.
// Legend: S source length with <sos>/<eos>, T the hypothesis's tokens (<eos> included when it finished).
#pragma once
#include "decode/decoding.h"

#include <vector>

namespace attnviz {

// Node ids from the first produced token to `node` (empty for the root). Throws InputError for a node the tree
// has not.
std::vector<int> beamPath(const BeamResult& tree, int node);
// The node's rank among the finished hypotheses (0: the best), −1 when it is not one of them.
int finishedRank(const BeamResult& tree, int node);

// The hypothesis ending at `node` (not the root) as a decode object: teacher forcing on its T target ids over the
// search's source (tree.best's source tokens and ids). attention, log_probs, total_log_prob and, for a Transformer,
// cross_attention, encoder_self_attention and decoder_self_attention are the forced decode's; the first two equal
// the search's rows and log-probabilities along the path. Of the options, parallel_steps is read. Throws InputError
// for the root or a node the tree has not.
DecodeResult hypothesisDecode(const Model& model, const BeamResult& tree, int node, const DecodeOptions& options = {});

}  // namespace attnviz
