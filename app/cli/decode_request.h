// What `decode` and `explain` share: the options that say which decode to make (greedy, beam, a hypothesis of the
// search, forced on a reference, a sibling), their usage rules, and the decode of one SENTENCE or input line.
#pragma once
#include "args.h"

#include "decode/decoding.h"
#include "decode/subword_words.h"
#include "io/json_text.h"
#include "model/config.h"

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnviz::cli {

struct DecodeSettings {
    int beam = 1;
    int max_len = 0;            // 0 = docs/cli.md's default 2 * S + 10
    double length_penalty = 0;  // --length-penalty: the beam's finished hypotheses rank by total / L^α
    bool json = false;
    int max_source_len = kMaxSourceTokens;
    bool parallel_steps = true;   // off when sentences are decoded side by side (DecodeOptions::parallel_steps)
    std::string tree;             // --tree FILE: the beam search's tree as JSON (io/beam_json.h)
    int hypothesis = 1;           // --hypothesis N: the N-th best finished hypothesis of the search (1: the best)
    Interventions interventions;  // --knockout, --attend, --head-off (docs/explain.md)
    MergeSides merge = MergeSides::None;  // --merge: a SentencePiece model's pieces shown as words
};

enum class Mode { Greedy, Beam, Forced };

// The command line of a decode.
struct DecodeRequest {
    std::string model_path, target, input, score;
    DecodeSettings settings;
    int threads = 0;
    std::vector<std::string> words;  // SENTENCE

    bool forced(const ArgParser& p) const { return p.seen("--target"); }
    std::string sentence() const;  // the words joined with spaces
};

// Which command takes decode's options: explain has no --tree (its decode is explained, not searched for a tree),
// and its --threads are the methods' (ExplainOptions::threads).
enum class DecodeCommand { Decode, Explain };
// Registers decode's options on p, writing into q.
void addDecodeOptions(ArgParser& p, DecodeRequest& q, DecodeCommand command = DecodeCommand::Decode);
// --knockout J[,J…], --attend T:J and --head-off KIND:L,H (both repeatable), parsed into `iv` as they are read; a
// value that is not of that form is a UsageError naming it. Whether the model can take them is the engine's check
// (checkInterventions, an InputError when the decode starts). decode, render, eval and explain take them.
void addInterventionOptions(ArgParser& p, Interventions& iv);
// --merge none|source|target|both into `merge` (decode, render, explain, eval): a UsageError naming a bad value.
void addMergeOption(ArgParser& p, MergeSides& merge);
// The rules between those options (UsageError).
void checkDecodeUsage(const ArgParser& p, const DecodeRequest& q);
// --length-penalty A (decode, explain, eval): DecodeOptions::length_penalty; only with --beam (else a usage error).
void addLengthPenaltyOption(ArgParser& p, double& alpha);
void checkLengthPenaltyUsage(const ArgParser& p);
// The warning for --attend rows at or past the end of a decode of `rows` rows (a greedy decode that ended first):
// they changed nothing. `where` prefixes it (an --input line's "FILE:LINE: "; empty for SENTENCE).
void warnUnreachedAttends(std::string_view command, const Interventions& iv, size_t rows, const std::string& where);
std::optional<ScoreKind> scoreOf(const DecodeRequest& q);

// The decode object, with its interventions when any was given and the input line number for a JSON Lines record
// (`line` > 0: lines may be skipped when blank), then a newline, written piece by piece to `sink` (a large decode
// is never held as text or as a tree); `indent` as JsonWriter's (-1: one line); `more` adds a command's own members
// (explain's explanations) before "line". decode's output, explain's, and render's .json of an intervened decode.
void writeDecodeObject(const JsonWriter::Sink& sink, const DecodeResult& r, const Model& model, const Interventions& iv,
                       int line = 0, int indent = -1, const std::function<void(JsonWriter&)>& more = nullptr);

// One source (and optional reference: forced decoding) of an input file.
DecodeResult decodeOne(const Model& model, const std::string& source, const std::string* reference,
                       const DecodeSettings& s);
// The SENTENCE of the command line: forced on `target` when given, else beam or greedy; `mode` says which. An empty
// sentence is warned about under `command`'s name (decode, explain).
DecodeResult decodeSentence(const Model& model, const std::string& sentence, const std::string* target,
                            const DecodeSettings& s, Mode& mode, std::string_view command);

}  // namespace attnviz::cli
