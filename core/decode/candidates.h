// Which target tokens a decode may produce, and how it picks among them: the greedy choice and the top-k candidates
// of a step (the window's candidate list, beam search's children). Internal to decode/.
// Legend: V target vocabulary size.
#pragma once
#include "decode/decoding.h"

#include <vector>

namespace attnviz::detail {

// A token decoding may produce: anything but <pad> and <sos>.
inline bool producible(int id) { return id != kPad && id != kSos; }
// The most probable producible token of a step's log-probabilities (V); ties go to the lowest id.
int bestToken(const Vec& log_probs);
// The k most probable producible tokens, descending, ties lower id first. `out` is overwritten.
void topCandidates(const Vec& log_probs, int k, std::vector<Candidate>& out);

}  // namespace attnviz::detail
