// What `attnviz-cli eval` counts and how it reports it (docs/cli.md): the alignment and explanation settings of a run,
// the counts of a line (they add up over the corpus), and the readable and JSON reports.
#pragma once
#include "decode/attention_views.h"
#include "eval/head_importance.h"
#include "eval/metrics.h"
#include "explain/measures.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attnviz::cli {

// How the alignment of the attention is read: `align` gives `aer` (its `words` the model's: a SentencePiece model's
// pieces merged by --merge); `modes` (--align-mode all) are counted beside it; `head` (--head L,H): the decoder
// layer's cross-attention head the links are read off instead of the decode's `attention`.
struct AlignSettings {
    AlignOptions align;
    std::vector<AlignOptions> modes;
    AttentionView head;
};

// --explain LIST: the explanation methods measured on each line's forced reference (docs/explain.md), with the
// seed of the random order (--seed; line i's order is seeded by seed + i) and integrated gradients' steps.
struct ExplainRequest {
    std::string list;  // as given
    std::vector<ExplainMethod> methods;
    uint64_t seed = 0;
    int ig_steps = kDefaultIgSteps;
};

// One line's counts, its AER counts under each of settings.modes (empty without gold links), and with --explain
// each method's measures.
struct LineCounts {
    EvalCounts counts;
    std::vector<AerCounts> modes;
    LineMeasures explain;
};

// One eval run as the reports name it.
struct EvalRun {
    std::string model_path, data_path, data_name;  // data_name: "<stdin>" for --data -
    int beam = 1;
    double seconds = 0;
    double length_penalty = 0;  // the beam's --length-penalty
};

// The report as one JSON object; `heads` (--head-importance) may be null.
void printEvalJson(const EvalReport& r, const LineCounts& total, const AlignSettings& settings, const EvalRun& run,
                   const ExplainRequest& explain, const Interventions& iv, const std::vector<HeadScore>* heads);
// The readable report, then printHeadsText.
void printEvalText(const EvalReport& r, const LineCounts& total, const AlignSettings& settings, const EvalRun& run,
                   const ExplainRequest& explain);
// The heads sorted by BLEU lost (most first), beside the model's own BLEU, and the interventions (numbers only:
// nothing from a file).
void printHeadsText(const std::vector<HeadScore>* scores, const Interventions& iv, double bleu);

}  // namespace attnviz::cli
