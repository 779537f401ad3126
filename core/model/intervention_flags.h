// The interventions as the command lines write them (docs/explain.md, "CLI"): `--knockout J[,J…]`, `--attend T:J`,
// `--head-off KIND:L,H`, all 0-based. One parser for attnviz-cli (decode, render, eval, explain) and the window's
// command line. Only the form is checked here; whether a model and a sentence can take them is checkInterventions'.
#pragma once
#include "model/interventions.h"

#include <string>

namespace attnviz {

// Each appends to `iv`, or throws InputError naming the flag and the value when it is not of that form.
void addKnockoutFlag(const std::string& value, Interventions& iv);
void addAttendFlag(const std::string& value, Interventions& iv);
void addHeadOffFlag(const std::string& value, Interventions& iv);

}  // namespace attnviz
