// What the attnviz-cli subcommands share: error reporting and exit codes, model loading with --score sibling
// switching, reading --input / --data files, and running per-line work on every core in input order.
#pragma once
#include "args.h"
#include "base/byte_size.h"  // gibText, for the memory limits' messages
#include "base/utf8.h"       // printable: every string from a file on its way to the terminal
#include "decode/attention_views.h"
#include "decode/limits.h"
#include "io/corpus.h"
#include "io/model_file.h"
#include "model/config.h"
#include "model/model.h"
#include "text/tokenizer.h"
#include "train/training_start.h"  // UnknownShare

#include <algorithm>
#include <cstddef>
#include <exception>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace attnviz::cli {

// Prints "attnviz-cli COMMAND: what" (one line, escaped by printable) to stderr and returns `code`.
int fail(std::string_view command, std::string_view what, int code = 1);
// Prints "attnviz-cli COMMAND: warning: what" (escaped by printable) to stderr.
void warn(std::string_view command, std::string_view what);

// Runs a subcommand body and maps exceptions to exit codes: UsageError -> 2 (with a pointer to --help),
// ModelError / InputError / any other std::exception -> 1. Messages are printed by fail().
int runCommand(std::string_view command, const std::function<int()>& body);

// The --score values, in the spec's order.
const std::vector<std::string>& scoreChoices();

struct LoadedModel {
    std::shared_ptr<const Model> model;
    std::string path;  // the file actually loaded (the sibling's path when --score switched)
};
// Loads `path`. With `score` set and different from the model's own score, loads the sibling trained with that
// score and every other setting of the model (matchingSibling, io/siblings.h); if there is none, throws ModelError
// "PATH: no sibling model trained with score "dot" and this model's other settings ...; siblings found, with what
// differs from this model: FILE (luong · general · input feeding), ...".
// Errors always start with the path.
LoadedModel loadModelForCli(const std::string& path, const std::optional<ScoreKind>& score = std::nullopt);

// The lines of a --input file: `source` or `source<TAB>reference` (blank lines skipped; the line numbers kept).
// Errors are InputError "FILE:LINE: what".
Corpus readInputLines(const std::string& path);

// The --dtype values f32, f16, bf16 as the weight type models are written in (cmd_convert.cpp).
safetensors::DType weightTypeFromFlag(const std::string& name);

// Worker threads to use: `requested` if > 0, else every core (std::thread::hardware_concurrency, at least 1).
int threadCount(int requested);

// Calls work(i) for i in [begin, end) on up to `threads` of the engine's threads (contiguous chunks, so each thread
// keeps its caches warm). Every index is attempted; afterwards the exception of the lowest failing index is rethrown.
// Decodes run this way should set DecodeOptions::parallel_steps = false when threads > 1.
void parallelFor(size_t begin, size_t end, int threads, const std::function<void(size_t)>& work);

// Prefixes an exception message with "FILE:LINE: " unless it already names the file; std::bad_alloc is "out of
// memory".
std::string atLine(const std::string& file, int line, const std::exception& e);

// Display width of UTF-8 text in a terminal: East Asian wide and fullwidth code points count 2, combining marks 0.
int displayWidth(std::string_view text);
// Pads (or leaves) text to `width` columns, on the right (left-aligned) or on the left.
std::string padRight(std::string_view text, int width);
std::string padLeft(std::string_view text, int width);

// Bounded inputs (docs/robustness.md). A source longer than kMaxSourceTokens (decode/limits.h) is refused by decode,
// render and eval unless --max-source-len says otherwise; a reference (forced decoding) may have 2 * that + 10
// tokens, the most a greedy decode of the longest source may write.
inline constexpr int kMaxSourceLenLimit = 100000;  // the largest --max-source-len accepted
// Throw InputError "WHERE: the source has N tokens; at most M are decoded (--max-source-len)".
void checkSourceLength(const TokenizedText& source, int max_source_len, const std::string& where);
void checkReferenceLength(const TokenizedText& reference, int max_source_len, const std::string& where);

// Warns "DATA: 97% of the source tokens ... are unknown to MODEL" (core's unknownTokenShare says when).
void warnMostlyUnknown(std::string_view command, const UnknownShare& share, const std::string& data,
                       const std::string& model_path);

// A decode keeps every step's attention and scores: up to T * S * 8 bytes for T = max_len (default 2 * S + 10),
// S = source length with specials; beam search keeps its whole tree (core/decode/beam.cpp), beamTreeBytes for width
// K (a row and its scores per expansion, K * K nodes per step). Throws InputError "WHERE: ... may need up to X GiB
// ..." above kMaxDecodeBytes.
inline constexpr uint64_t kMaxDecodeBytes = uint64_t(4) << 30;
void checkDecodeSize(const Model& model, const TokenizedText& source, int beam, int max_len, const std::string& where);

// Flushes stdout; throws std::runtime_error("standard output: REASON") if a write failed (a long output checks it
// per block so that a full disk stops it early; cli_main checks it once more at the end of every command).
void flushStdout();

// --head-a / --head-b (`compare`, `render --with`): "L,H" or "L,mean" as a cross-attention view (eval/compare_heads.h);
// a malformed value is a UsageError naming `flag`.
AttentionView headChoiceOption(const std::string& flag, const std::string& value);
// InputError unless `m` has that layer and head: "--head-a 4,1 cannot be used with A PATH: it has 3 decoder layers; ...".
void checkHeadChoice(const std::string& flag, const AttentionView& view, const Model& m, const std::string& side,
                     const std::string& path);

}  // namespace attnviz::cli
