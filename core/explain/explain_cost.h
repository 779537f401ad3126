// What explaining a decode by one method costs, known before it runs (docs/explain.md, "What a method costs"): the
// model passes it makes, their multiply-adds and the most bytes it holds at once, from the model's sizes, the decode's
// S and T and the options. An estimate within a small factor of a run's (the gradient methods' work grows with
// S·T + T², occlusion's with S·(S + T): a sentence of 1,000 words costs thousands of times one of 30), so that a
// caller can refuse hours of work or more memory than a machine has before any of it is spent.
// Legend: S source length with <sos>/<eos>, T target rows (<eos> included), E the source embedding width, V the
// target vocabulary.
#pragma once
#include "explain/explanation.h"

#include <cstddef>

namespace attnviz {

struct ExplainCost {
    size_t passes = 0;         // the model passes (forcedObjectives' batches, sourceGradients' passes); 0 for the
                               // methods that read the decode's weights
    double multiply_adds = 0;  // of every pass, forward and backward
    double bytes = 0;          // the method's matrices (T·S·E gradients per input held) and every thread's buffers
};

ExplainCost explainCost(const Model& model, int S, int T, ExplainMethod method, const ExplainOptions& options = {});

}  // namespace attnviz
