// Parallel corpora: UTF-8 TSV files of `source<TAB>target[<TAB>alignment]` lines (docs/cli.md, `train --data`,
// `eval --data`, `decode --input`). The alignment is Pharaoh format: space-separated `i-j` links, 0-based, source
// word i to target word j, specials (<sos>, <eos>) not counted. A link is sure (`i-j`) or possible (`i?j`), as in
// Och & Ney's sure/possible annotation; every sure link is also possible (S ⊆ P).
//
// Reading rules (every problem is an InputError "PATH:LINE: what", LINE 1-based):
// - the path must be a regular file (a FIFO, device or directory is refused before any read);
// - the file must be valid UTF-8 (a leading byte-order mark is dropped); CRLF line ends are accepted;
// - a line is at most kMaxLineBytes (64 KiB) long, so that no line can make a reader allocate much;
// - blank (whitespace-only) lines are skipped; every example keeps its own line number;
// - at most three tab-separated fields; an empty source or target is an error;
// - an alignment token that is not `i-j` or `i?j` with two non-negative integers ("3-x", "3", "-1-2") is an error;
// - with a tokenizer given, links whose source or target index is past the sentence's word count are errors,
//   and the tokens are kept in the example (the trainer builds vocabularies from them).
// With CorpusOptions::skip_bad_lines a bad line is listed in Corpus::skipped instead and reading goes on (the window's
// corpus browser opens the good lines); a file that cannot be read at all still throws.
#pragma once
#include "model/config.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace attnviz {

// The longest line a corpus reader accepts, in bytes (CR and LF not counted).
inline constexpr size_t kMaxLineBytes = 65536;

// One gold link: (source word i, target word j), both 0-based, specials not counted.
using AlignmentLink = std::pair<int, int>;

// Gold links with Och & Ney's two kinds: sure links S (written `i-j`) and possible links P (`i?j`). A sure link is
// also possible (S ⊆ P): `possible` holds only the links written `i?j` and not also `i-j`, so P = sure ∪ possible.
struct GoldAlignment {
    std::vector<AlignmentLink> sure;      // S, sorted, duplicates removed
    std::vector<AlignmentLink> possible;  // P \ S, sorted, duplicates removed
    bool empty() const { return sure.empty() && possible.empty(); }
    bool isSure(const AlignmentLink& link) const;
    bool isPossible(const AlignmentLink& link) const;  // in S or in P
    std::vector<AlignmentLink> all() const;            // S ∪ P, sorted
    bool operator==(const GoldAlignment&) const = default;
};
// Builds S and P \ S from links of either kind (sorting, removing duplicates, a sure link winning over a possible one).
GoldAlignment makeGoldAlignment(std::vector<AlignmentLink> sure, std::vector<AlignmentLink> possible = {});
// The links as Pharaoh text, sure then possible: "0-0 1-2 2?1".
std::string pharaohText(const GoldAlignment& gold);

struct CorpusExample {
    int line = 0;        // 1-based line number in the file
    std::string source;  // the raw text of the first field (no tab, no CR)
    std::string target;  // the second field; "" when absent and CorpusOptions::require_target is false
    bool has_target = false;
    bool has_alignment = false;  // a third field was present (it may hold zero links)
    GoldAlignment alignment;     // its sure and possible links
    // Filled only when CorpusOptions::tokenizer is set: the words without specials.
    std::vector<std::string> source_tokens;
    std::vector<std::string> target_tokens;
};

struct CorpusOptions {
    // false: a line may be just `source` (decode --input); true: the tab and target are required (train, eval).
    bool require_target = true;
    // When set, both sides are tokenized with it (source with .source, target with .target), empty-after-
    // tokenization sides are errors and alignment indices are checked against the word counts.
    std::optional<TokenizerConfig> tokenizer;
    // true: a bad line is skipped and listed in Corpus::skipped (its message as the InputError would have said it)
    // rather than ending the read.
    bool skip_bad_lines = false;
};

// A line left out under CorpusOptions::skip_bad_lines.
struct SkippedLine {
    int line = 0;         // 1-based
    std::string message;  // "PATH:LINE: what"
};
// At most this many skipped lines are listed (a binary file would have one per line); skipped_count counts them all.
inline constexpr size_t kMaxListedSkippedLines = 100;

struct Corpus {
    std::string name;  // the path (or the name given to parseCorpus)
    std::vector<CorpusExample> examples;
    std::vector<SkippedLine> skipped;  // the first kMaxListedSkippedLines bad lines (skip_bad_lines only)
    int64_t skipped_count = 0;         // every bad line skipped
    int alignedCount() const;          // examples with an alignment field
};

// Parses TSV text; `name` stands for the path in messages. Throws InputError on the first bad line.
Corpus parseCorpus(std::string_view text, const std::string& name, const CorpusOptions& options = {});
// Reads and parses a file ("-": standard input, named "<stdin>" in messages and in Corpus::name). Throws
// InputError as readTextFile if it cannot be read, else as parseCorpus.
Corpus readCorpus(const std::string& path, const CorpusOptions& options = {});

// Parses a Pharaoh alignment field ("0-0 1-2 2?1": `i-j` sure, `i?j` possible, separated by whitespace); throws
// InputError naming the bad token (no position prefix). Every reader of gold links (corpora, the CLI, the window)
// uses this one parser.
GoldAlignment parseAlignment(std::string_view field);
// Throws InputError when a link names a source word at or past `source_words` or a target word at or past
// `target_words` ("alignment link 2-1: source word 2 does not exist (the source has 2 words, ...)").
void checkAlignmentRange(const GoldAlignment& gold, int source_words, int target_words);

// Reads a whole regular file into memory, or standard input for "-" (io/input_file.h: 256 MiB at most, and no line
// past kMaxLineBytes); throws InputError "PATH: cannot open: reason",
// "PATH: is a FIFO (named pipe), not a regular file", "PATH: read error: reason", ...
std::string readTextFile(const std::string& path);

}  // namespace attnviz
