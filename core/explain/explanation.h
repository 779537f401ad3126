// The attribution methods of docs/explain.md: for a decode (greedy, forced, a beam hypothesis, a what-if prefix),
// one T × S matrix per method saying how much each source position mattered to each target row. Every method reads
// the model through explain/forced_objective.h (the training code's passes) or the decode's own attention.
// Legend: S source length with <sos>/<eos>, T target rows (<eos> included), E the source embedding width.
#pragma once
#include "decode/decoding.h"
#include "explain/forced_objective.h"

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnviz {

enum class ExplainMethod { Attention, Norm, GradInput, GradNorm, IntegratedGradients, Occlusion, Rollout };

// Its name ("grad_input"), whether its values have a sign (a diverging colour map centred on 0), whether
// only a Transformer has it, and whether it reads the objective f_t (then a contrast changes it; the others read the
// weights).
struct MethodInfo {
    ExplainMethod method;
    const char* name;
    bool is_signed;
    bool transformer_only;
    bool reads_objective;
};
// Every method, in docs/explain.md's order.
const std::vector<MethodInfo>& explainMethods();
const MethodInfo& methodInfo(ExplainMethod method);
std::optional<ExplainMethod> methodFromName(std::string_view name);
// Whether a model of this config offers `method` (rollout needs self-attention: model/model_kind.h).
bool offeredFor(ExplainMethod method, const ModelConfig& config);
// The methods a model of this kind has.
std::vector<ExplainMethod> methodsFor(const ModelConfig& config);
// Comma-separated names → methods in the order given (duplicates dropped); "all", alone or in the list, stands for
// every method of the model's kind (methodsFor). Throws InputError naming an unknown name, or rollout asked of an RNN
// model (it has no encoder self-attention to roll out).
std::vector<ExplainMethod> parseMethodList(std::string_view list, const ModelConfig& config);

constexpr int kDefaultIgSteps = 32;
constexpr int kMaxIgSteps = 1024;

struct ExplainOptions {
    int ig_steps = kDefaultIgSteps;  // m of integrated gradients
    std::optional<Contrast> contrast;
    // The interventions the decode was made with (DecodeOptions::interventions): the methods that run the model
    // again run it with them, and norm leaves out the cross-attention heads that are off.
    Interventions interventions;
    int threads = 0;  // the gradient methods' passes side by side on this many threads (0: one per core)
    // Called after each model pass of a method that runs the model again with (passes done, passes in all: the
    // method's explainCost passes), one call at a time, on whichever engine thread ran the pass.
    std::function<void(size_t, size_t)> progress;
};

struct Explanation {
    ExplainMethod method = ExplainMethod::Attention;
    Mat values;                        // (T, S) R[t][j]
    std::vector<double> ig_delta;      // integrated gradients: (T) f_t(e) − f_t(0), what each row's sum should reach
    int ig_steps = 0;                  // integrated gradients: the m it was computed with
    std::optional<Contrast> contrast;  // the contrast it was computed with (methods that read the objective only)
};

// One method's matrix for the decode. Throws InputError for a method the model's kind lacks, an ig_steps outside
// 1..kMaxIgSteps, a contrast outside the decode or the vocabulary, or a decode without source or target ids.
Explanation explainDecode(const Model& model, const DecodeResult& decode, ExplainMethod method,
                          const ExplainOptions& options = {});

// Integrated gradients' completeness gap of row t: Σ_j R[t][j] − ig_delta[t].
double completenessGap(const Explanation& ig, int row);

}  // namespace attnviz
