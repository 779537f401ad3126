#include "explain_run.h"

#include "command_run.h"
#include "input_bounds.h"

#include "base/byte_size.h"
#include "base/errors.h"
#include "explain/explain_cost.h"

#include <cmath>
#include <cstdio>

namespace attnviz::cli {
namespace {

// Billions of multiply-adds, rounded up: "41000" (the value --max-work takes).
std::string gigas(double multiply_adds) {
    char text[48];
    std::snprintf(text, sizeof text, "%.0f", std::ceil(multiply_adds / 1e9));
    return text;
}

// What makes a method cheaper, for its messages.
std::string cheaper(ExplainMethod method) {
    return method == ExplainMethod::IntegratedGradients ? "a shorter sentence or fewer --ig-steps"
                                                        : "a shorter sentence";
}

}  // namespace

void addMaxWorkOption(ArgParser& p, double* max_work) {
    p.option("--max-work", max_work, "G",
             "refuse an explanation method needing more than G billion multiply-adds (default 2000, minutes on one "
             "core; the estimate is printed)",
             1, 1e9);
}

void checkExplainSize(const Model& model, const DecodeResult& decode, ExplainMethod method,
                      const ExplainOptions& options, double max_work, const std::string& where) {
    const int S = int(decode.source_ids.size()), T = int(decode.target_ids.size());
    const ExplainCost cost = explainCost(model, S, T, method, options);
    const std::string what = (where.empty() ? "" : where + ": ") + "--method " + methodInfo(method).name + " on " +
                             std::to_string(S) + " source and " + std::to_string(T) + " target tokens ";
    if (cost.bytes > double(kMaxDecodeBytes))
        throw InputError(what + "may hold up to " + gibText(cost.bytes) + " (the limit is " +
                         gibText(double(kMaxDecodeBytes)) + "): use " + cheaper(method));
    if (cost.multiply_adds > max_work * 1e9)
        throw InputError(what + "needs about " + gigas(cost.multiply_adds) + " G multiply-adds (the limit is " +
                         gigas(max_work * 1e9) + " G: --max-work " + gigas(cost.multiply_adds) + " allows it, or use " +
                         cheaper(method) + ")");
}

Explanation explainForCli(const Model& model, const DecodeResult& decode, ExplainMethod method, ExplainOptions options,
                          double max_work, const std::string& where, std::string_view command) {
    const std::string name = methodInfo(method).name;
    checkExplainSize(model, decode, method, options, max_work, where);
    TerminalProgress progress(command, "passes of " + name);
    if (progress.active()) options.progress = [&progress](size_t done, size_t all) { progress.show(done, all); };
    try {
        return explainDecode(model, decode, method, options);
    } catch (const std::exception& e) {
        throw InputError("--method " + name + ": " + errorMessage(e));
    }
}

}  // namespace attnviz::cli
