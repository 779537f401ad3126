// Which target tokens a decode may produce, and how it picks among them: the greedy choice and the top-k candidates
// of a step (the window's candidate list, beam search's children). Internal to decode/.
// Legend: V target vocabulary size.
#pragma once
#include "decode/decoding.h"

#include <string>
#include <vector>

namespace attnviz::detail {

// A token decoding may produce: anything but the target's <pad>, <sos> and decoder start (`t` its specials). A
// forbidden token of a configured Transformer has log p = −∞ and is never chosen either.
inline bool producible(int id, const SpecialIds& t) { return id != t.pad && id != t.sos && id != t.start; }
// How many ids of the vocabulary are producible.
int producibleCount(const Vocabulary& target);
// Throws InputError "WHAT token id N cannot be produced (valid: 1 or 3..V−1)" for an id outside the target
// vocabulary, a control id, or an id the model forbids (a configured Transformer's forbidden_outputs).
void checkProducible(const Model& model, int id, const std::string& what);
// The most probable producible token of a step's log-probabilities (V); ties go to the lowest id.
int bestToken(const Vec& log_probs, const SpecialIds& target);
// The k most probable producible tokens with a finite log p, descending, ties lower id first. `out` is overwritten.
void topCandidates(const Vec& log_probs, int k, const SpecialIds& target, std::vector<Candidate>& out);

}  // namespace attnviz::detail
