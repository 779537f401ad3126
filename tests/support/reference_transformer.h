// An independent, deliberately plain double-precision implementation of docs/transformer.md's forward pass (and of
// docs/marian.md's configuration of it: halves positions, no final norms, swish, tied tables, forbidden outputs): the
// encoder, and the decoder over a whole input at once with the causal mask (no caches), so that incremental
// decoding can be checked against a recomputation of the prefix. It shares nothing with core/ but the parameter
// struct it reads (model/transformer_params.h).
// Legend: S source length with <sos>/<eos>, T decoder input length, V target vocabulary size.
#pragma once
#include "model/transformer_params.h"

#include <vector>

namespace attnviz::testing {

using DMat = TMat<double>;

struct RefTransformerEncoding {
    DMat memory;                                    // (S, d)
    std::vector<std::vector<DMat>> self_attention;  // [layer][head] (S, S)
};

struct RefTransformerDecoding {
    DMat log_probs;                                 // (T, V) row i: the token at output position i
    std::vector<std::vector<DMat>> cross;           // [layer][head] (T, S)
    std::vector<std::vector<DMat>> self_attention;  // [layer][head] (T, T), masked above the diagonal
};

struct RefTransformerGreedy {
    std::vector<int> tokens;                    // produced, <eos> included if reached
    std::vector<RefTransformerDecoding> steps;  // steps[t]: the whole prefix [<sos>, y_1 .. y_t] recomputed
};

RefTransformerEncoding referenceTransformerEncode(const TransformerConfig& c, const TransformerParamsT<double>& p,
                                                  const std::vector<int>& source_ids);
// The decoder input [<sos>, y_1, …] all at once. `cross_knockout`: source positions no cross-attention head of any
// layer attends to (docs/explain.md's knockout; a row with none left is all zeros).
RefTransformerDecoding referenceTransformerDecode(const TransformerConfig& c, const TransformerParamsT<double>& p,
                                                  const DMat& memory, const std::vector<int>& inputs,
                                                  const std::vector<int>& cross_knockout = {});
// The decoder's ids: its first input, the end, and what is never produced (model-format.md's <sos> 2, <eos> 3,
// never <pad> 0 or <sos>; a Marian model's decoder start and never-produced <pad>).
struct RefIds {
    int start = 2;
    int eos = 3;
    std::vector<int> never = {0, 2};
};
// Greedy with model-format.md's rules (never <pad>/<sos>, ties to the lowest id, stop after <eos> or max_len),
// every step recomputing the whole prefix.
RefTransformerGreedy referenceTransformerGreedy(const TransformerConfig& c, const TransformerParamsT<double>& p,
                                                const std::vector<int>& source_ids, int max_len,
                                                const std::vector<int>& cross_knockout = {}, const RefIds& ids = {});

}  // namespace attnviz::testing
