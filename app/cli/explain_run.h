// An explanation as the CLI runs it (explain, render --method): bounded before it starts (explain/explain_cost: the
// memory of decode's bound, and a bound on work that --max-work raises), its passes counted on a terminal, and its
// errors naming the method.
#pragma once
#include "args.h"

#include "explain/explanation.h"

#include <string>
#include <string_view>

namespace attnviz::cli {

// The default of --max-work: billions of multiply-adds one method may take (docs/robustness.md).
inline constexpr double kDefaultMaxExplainWork = 2000;
// Registers --max-work G on p.
void addMaxWorkOption(ArgParser& p, double* max_work);

// What explaining `decode` by `method` needs against the bounds: InputError "WHERE: --method ig on S source and T
// target tokens needs about X G multiply-adds (the limit is G: --max-work X allows it; ...)", or "... may hold up to
// X GiB (the limit is 4.0 GiB: ...)" above the decode's memory bound (kMaxDecodeBytes).
void checkExplainSize(const Model& model, const DecodeResult& decode, ExplainMethod method,
                      const ExplainOptions& options, double max_work, const std::string& where);

// explainDecode after checkExplainSize, with "attnviz-cli COMMAND: N / M passes of METHOD" on stderr while it is a
// terminal; any error (out of memory included) is an InputError starting "--method METHOD: ".
Explanation explainForCli(const Model& model, const DecodeResult& decode, ExplainMethod method, ExplainOptions options,
                          double max_work, const std::string& where, std::string_view command);

}  // namespace attnviz::cli
