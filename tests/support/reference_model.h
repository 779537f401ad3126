// An independent, deliberately plain double-precision implementation of the whole forward pass of
// docs/model-format.md (encoder, the four scores, the three spans, both decoders, log-softmax, greedy decoding).
// It shares nothing with core/ but the ModelParams it reads: tests and the trainer's checks compare against it.
// Legend: S source length with <sos>/<eos>, T target steps, V target vocabulary size.
#pragma once
#include "model/model.h"

#include <utility>
#include <vector>

namespace attnviz::testing {

using DVec = std::vector<double>;

struct RefEncoding {
    std::vector<DVec> h;  // (S, 2H_e) h_j = [f_j ; b_j]
    DVec s0;              // (H_d)
};

struct RefStep {
    DVec attention;  // (S), 0 outside a local window
    DVec scores;     // (S), NaN outside a local window
    DVec context;    // (2H_e)
    DVec log_probs;  // (V)
    double center;   // NaN for global
    int lo, hi;      // the window, inclusive
};

struct RefDecode {
    std::vector<int> tokens;  // the produced (greedy) or fed (forced) tokens, one per step
    std::vector<RefStep> steps;
    double total_log_prob = 0;  // Σ log p(tokens[i])
};

// docs/explain.md's interventions on the RNN kinds: knocked-out positions score −∞ before the softmax (a window with
// none left is all zeros, context 0); row `attend[k].first` is one-hot at position `attend[k].second` (context h_j).
struct RefInterventions {
    std::vector<int> knockout;
    std::vector<std::pair<int, int>> attend;  // (row, position)
};

// source_embeddings, if not null, replaces the embedding of each source position (S rows of E): the explanation
// tests differentiate through it.
RefEncoding referenceEncode(const Model& model, const std::vector<int>& source_ids,
                            const std::vector<DVec>* source_embeddings = nullptr);
// Teacher forcing: step i is fed target[i-1] (<sos> first) and scored on target[i].
RefDecode referenceForced(const Model& model, const std::vector<int>& source_ids, const std::vector<int>& target_ids,
                          const std::vector<DVec>* source_embeddings = nullptr, const RefInterventions& iv = {});
// Greedy decoding by the format's rules (never <pad>/<sos>, ties to the lowest id, stop after <eos> or max_len).
RefDecode referenceGreedy(const Model& model, const std::vector<int>& source_ids, int max_len,
                          const RefInterventions& iv = {});
// The training objective for one example: mean over target positions of −log p (target without <sos>, <eos> included).
double referenceLoss(const Model& model, const std::vector<int>& source_ids, const std::vector<int>& target_ids);

}  // namespace attnviz::testing
