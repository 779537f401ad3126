// Head importance of docs/explain.md ("Head importance"; Michel et al. 2019) for a Transformer on a corpus: for every
// head (kind, layer, head), the corpus BLEU of greedy decoding (or of the beam search the caller asks for: the
// same search as the BLEU it is set against) and the mean per-token log-probability of the
// references with that head off (Interventions::heads_off), and the gradient importance, the mean over lines of
// |Σ_positions ⟨o_h, ∂L/∂o_h⟩| with L = −Σ_t log p(ref_t) forced on the reference.
// Legend: d d_model, d_h = d / nhead.
#pragma once
#include "decode/limits.h"
#include "io/corpus.h"
#include "model/interventions.h"
#include "model/transformer_params.h"

#include <atomic>
#include <functional>
#include <vector>

namespace attnviz {

struct HeadScore {
    HeadRef head;
    double bleu_off = 0;           // corpus BLEU-4 (%) of the outputs (HeadImportanceOptions::beam) with the head off
    double mean_log_prob_off = 0;  // Σ log p(ref_t) / Σ reference tokens (<eos> included), head off
    double importance = 0;         // mean over lines of |∂L/∂g_h| at g = 1
};

// Every head of a Transformer: cross, then encoder, then decoder attention; layer by layer; head by head.
std::vector<HeadRef> allHeads(const TransformerConfig& c);

// ∂L/∂g_h at g = 1 of every head in allHeads' order, g_h a gate multiplying o_h at every position, for one line:
// `source` with <sos>/<eos>, `target` the reference ids with <eos>. Σ_positions ⟨o_h, ∂L/∂o_h⟩ is that derivative,
// and as o_h reaches the model only through out_proj's columns h·d_h … (h+1)·d_h − 1, it is ⟨W_O[:, h],
// ∂L/∂W_O[:, h]⟩: read off the engine's own backward (nn/transformer_loss), float or double.
// `start`: the decoder's first input (the target vocabulary's specials().start).
template <typename T>
std::vector<double> headGateGradients(const TransformerConfig& c, const TransformerParamsT<T>& p,
                                      const std::vector<int>& source, const std::vector<int>& target, int start = kSos);

struct HeadImportanceOptions {
    int max_len = 0;                           // the outputs' limit; 0: 2 S + 10
    int beam = 1;                              // the outputs' search: 1 greedy, K > 1 beam search of width K
    double length_penalty = 0;                 // the beam's (DecodeOptions::length_penalty)
    int max_source_tokens = kMaxSourceTokens;  // a longer source is an InputError naming its line
    int threads = 0;                           // jobs side by side; 0: one per core
    // Called on the calling thread after each of its jobs with (jobs done, jobs in all), e.g. for progress.
    std::function<void(size_t, size_t)> progress;
    // Set from another thread: no further job starts and the report comes back incomplete (the window's cancel).
    const std::atomic<bool>* cancel = nullptr;
};

// Every head's scores beside the plain model's on the same lines, so that what a head's removal costs can be read.
struct HeadImportanceReport {
    bool complete = true;          // false: cancelled; nothing below is filled then
    double bleu = 0;               // corpus BLEU-4 (%) of the plain model's outputs, by the same search
    double mean_log_prob = 0;      // Σ log p(ref_t) / Σ reference tokens, plain model
    std::vector<HeadScore> heads;  // allHeads' order
};

// InputError unless the model has attention heads to remove (a Transformer): what a caller checks before it decodes
// anything, and headImportanceReport first.
void checkHeadImportance(const Model& model);

// Every head's scores over `examples` (each with a reference), in allHeads' order, and the plain model's. The work is
// lines × (heads + 1) jobs (a line's two decodes with one head off, or its gradient and two plain decodes) on the
// engine's threads. Throws InputError naming the line for a line that cannot be decoded, and for a model that is not
// a Transformer.
HeadImportanceReport headImportanceReport(const Model& model, const std::vector<CorpusExample>& examples,
                                          const HeadImportanceOptions& options = {});
// The heads most costly to remove first: by bleu_off ascending (the most BLEU lost first), ties by
// mean_log_prob_off ascending (the most log-probability lost), then in allHeads' order.
std::vector<HeadScore> headsByBleuLost(std::vector<HeadScore> heads);
// headImportanceReport's heads (empty when cancelled).
std::vector<HeadScore> headImportance(const Model& model, const std::vector<CorpusExample>& examples,
                                      const HeadImportanceOptions& options = {});

}  // namespace attnviz
