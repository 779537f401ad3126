// How an intervened output differs from the plain model's (docs/gui.md, "Interventions"): the two token sequences
// aligned by the fewest edits (Levenshtein over whole tokens), each step of the alignment a token kept, changed
// (another token in its place), added (only in the new output) or dropped (only in the plain one).
#pragma once
#include <string>
#include <vector>

namespace attnviz::ui {

struct TokenChange {
    enum class Kind { Kept, Changed, Added, Dropped };
    Kind kind = Kind::Kept;
    int before = -1;  // index in the plain output (-1 for Added)
    int after = -1;   // index in the new output (-1 for Dropped)
    bool operator==(const TokenChange&) const = default;
};

// The alignment in reading order. Among alignments with the fewest edits, a change is preferred to an addition plus
// a drop, and ties go to the earliest tokens kept.
std::vector<TokenChange> diffTokens(const std::vector<std::string>& before, const std::vector<std::string>& after);

struct ChangeCounts {
    int kept = 0, changed = 0, added = 0, dropped = 0;
    bool unchanged() const { return changed == 0 && added == 0 && dropped == 0; }
};
ChangeCounts countChanges(const std::vector<TokenChange>& diff);

}  // namespace attnviz::ui
