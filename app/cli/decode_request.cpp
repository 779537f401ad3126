#include "decode_request.h"

#include "command_run.h"
#include "input_bounds.h"
#include "model_flags.h"

#include "base/errors.h"
#include "decode/beam_hypothesis.h"
#include "io/atomic_file.h"
#include "io/beam_json.h"
#include "io/decode_json.h"
#include "model/intervention_flags.h"
#include "text/tokenizer.h"

#include <string_view>

namespace attnviz::cli {
namespace {

// The n-th best finished hypothesis (from 1) of a search as a decode object: the search's `best` for n = 1, else
// the forced decode of its tokens (hypothesisDecode: a Transformer's layers and heads too).
DecodeResult nthHypothesis(const Model& model, const BeamResult& b, int n, const DecodeOptions& options) {
    if (n == 1) return b.best;
    if (int(b.finished.size()) < n)
        throw InputError("--hypothesis " + std::to_string(n) + ": the beam search finished only " +
                         std::to_string(b.finished.size()) + " hypotheses (a wider --beam may find more)");
    return hypothesisDecode(model, b, b.finished[size_t(n) - 1], options);
}

// The core's parser of the flags, its InputError a usage error (exit code 2).
template <typename Parse>
auto asUsage(Parse parse, Interventions& iv) {
    return [parse, &iv](const std::string& v) {
        try {
            parse(v, iv);
        } catch (const InputError& e) {
            throw UsageError(e.what());
        }
    };
}

}  // namespace

void addInterventionOptions(ArgParser& p, Interventions& iv) {
    p.repeatable("--knockout", "J[,J...]", "knock out these source positions (0-based, <sos> = 0): scores -inf",
                 asUsage(addKnockoutFlag, iv));
    p.repeatable("--attend", "T:J", "RNN models: row T attends only to source position J (repeatable)",
                 asUsage(addAttendFlag, iv));
    p.repeatable("--head-off", "KIND:L,H",
                 "Transformer: head H of layer L of cross, encoder or decoder attention outputs zeros (repeatable)",
                 asUsage(addHeadOffFlag, iv));
}

void addMergeOption(ArgParser& p, MergeSides& merge) {
    p.repeatable("--merge", "none|source|target|both",
                 "SentencePiece models (Marian folders): the source and/or target pieces merged into words "
                 "(columns summed, rows averaged; eval's AER of gold word links needs both); default none",
                 [&merge](const std::string& value) {
                     try {
                         merge = parseMergeSides(value);
                     } catch (const InputError& e) {
                         throw UsageError(e.what());
                     }
                 });
}

void addLengthPenaltyOption(ArgParser& p, double& alpha) {
    p.option("--length-penalty", &alpha, "A",
             "the --beam search's finished hypotheses rank by total log p / L^A, L their length with the decoder\n"
             "start, as transformers' generate (whose default is 1); default 0 = by total log p",
             -10.0, 10.0);
}

void checkLengthPenaltyUsage(const ArgParser& p) {
    if (p.seen("--length-penalty") && !p.seen("--beam"))
        throw UsageError("--length-penalty ranks the hypotheses of a --beam search: give --beam K too");
}

std::string DecodeRequest::sentence() const {
    std::string out;
    for (const std::string& w : words) out += (out.empty() ? "" : " ") + w;
    return out;
}

void addDecodeOptions(ArgParser& p, DecodeRequest& q, DecodeCommand command) {
    p.option("--model", &q.model_path, "MODEL", "the model file (.safetensors)").required();
    p.flag("--json", &q.settings.json, "print the decode object as JSON (one line; JSON Lines with --input)");
    p.option("--beam", &q.settings.beam, "K", "beam search of width K (default 1 = greedy)", 1, 1000);
    addLengthPenaltyOption(p, q.settings.length_penalty);
    p.option("--max-len", &q.settings.max_len, "N",
             "at most N target tokens, <eos> included (default 2*S+10); ignored with --target", 1, 1000000);
    if (command == DecodeCommand::Decode)
        p.option("--tree", &q.settings.tree, "FILE",
                 "also write the beam search's tree (nodes, n-best, attention rows) to FILE as JSON (atomically)");
    p.option("--hypothesis", &q.settings.hypothesis, "N",
             "print the N-th best finished hypothesis of the --beam search (default 1: the best), with all its "
             "attention keys",
             1, 1000);
    p.option("--target", &q.target, "TEXT", "forced decoding: score this reference translation (<eos> is appended)");
    p.option("--input", &q.input, "FILE",
             "decode every line of FILE (- for standard input): `source` or `source<TAB>reference` (forced)");
    p.choice("--score", &q.score, scoreChoices(), "use the sibling model trained with this score");
    p.option("--threads", &q.threads, "N",
             command == DecodeCommand::Decode ? "worker threads for --input (default: every core)"
                                              : "worker threads of each method's passes (default: every core)",
             1, 256);
    p.option("--max-source-len", &q.settings.max_source_len, "N",
             "refuse sources of more than N tokens (default 1000); references may have 2*N+10", 1, kMaxSourceLenLimit);
    addInterventionOptions(p, q.settings.interventions);
    addMergeOption(p, q.settings.merge);
    p.positionals(&q.words, "SENTENCE", "the source sentence (several arguments are joined with spaces)");
}

void checkDecodeUsage(const ArgParser& p, const DecodeRequest& q) {
    const bool forced = p.seen("--target");
    if (forced && p.seen("--beam"))
        throw UsageError("--beam and --target cannot be used together (forced decoding does not search)");
    if (p.seen("--input") && !q.words.empty()) throw UsageError("give either SENTENCE or --input FILE, not both");
    if (p.seen("--input") && forced)
        throw UsageError("--target cannot be used with --input (put the reference after a tab on each line)");
    if (!p.seen("--input") && q.words.empty()) throw UsageError("missing SENTENCE (or --input FILE)");
    if (p.seen("--tree") && (forced || p.seen("--input")))
        throw UsageError("--tree writes the search of one SENTENCE: it cannot be used with --target or --input");

    checkLengthPenaltyUsage(p);
    if (p.seen("--hypothesis") && (!p.seen("--beam") || forced || p.seen("--input")))
        throw UsageError(
            "--hypothesis picks a hypothesis of the --beam search of one SENTENCE (not with "
            "--target or --input)");
}

void warnUnreachedAttends(std::string_view command, const Interventions& iv, size_t rows, const std::string& where) {
    std::string unreached;
    size_t count = 0;
    for (const AttendAt& a : iv.attend)
        if (a.row >= 0 && size_t(a.row) >= rows && ++count <= 5)  // the first five named, the rest counted
            unreached += (unreached.empty() ? "" : ", ") + std::to_string(a.row) + ":" + std::to_string(a.position);
    if (count > 5) unreached += " and " + std::to_string(count - 5) + " more";
    if (count > 0)
        warn(command, where + "--attend " + unreached + " changed nothing: the decode ended after " +
                          std::to_string(rows) + " rows (0.." + std::to_string(rows - 1) + ")");
}

void writeDecodeObject(const JsonWriter::Sink& sink, const DecodeResult& r, const Model& model, const Interventions& iv,
                       int line, int indent, const std::function<void(JsonWriter&)>& more) {
    JsonWriter w(sink, indent);
    w.beginObject();
    writeDecodeMembers(w, r, model.config, iv);
    writeModelOrigin(w, model);
    if (more) more(w);
    if (line > 0) w.key("line").integer(line);
    w.endObject().flush();
    sink("\n");
}

std::optional<ScoreKind> scoreOf(const DecodeRequest& q) {
    if (q.score.empty()) return std::nullopt;
    return parseScoreKind(q.score);
}

DecodeResult decodeOne(const Model& model, const std::string& source, const std::string* reference,
                       const DecodeSettings& s) {
    const TokenizedText src = tokenizeSource(model, source);
    checkSourceLength(src, s.max_source_len, "source");
    DecodeOptions o;
    o.max_len = s.max_len;
    o.length_penalty = s.length_penalty;
    o.parallel_steps = s.parallel_steps;
    o.interventions = s.interventions;
    if (reference) {
        const TokenizedText ref = tokenizeTarget(model, *reference);
        checkReferenceLength(ref, s.max_source_len, "reference");
        return forcedDecode(model, src, ref, o);
    }
    checkDecodeSize(model, src, s.beam, s.max_len, "source");
    if (s.beam > 1) return beamSearch(model, src, s.beam, o).best;
    return greedyDecode(model, src, o);
}

DecodeResult decodeSentence(const Model& model, const std::string& sentence, const std::string* target,
                            const DecodeSettings& s, Mode& mode, std::string_view command) {
    TokenizedText src;
    try {
        src = tokenizeSource(model, sentence);
    } catch (const InputError& e) {
        throw InputError(std::string("SENTENCE: ") + e.what());
    }
    checkSourceLength(src, s.max_source_len, "SENTENCE");
    warnIfEmptySentence(src, command);
    if (target) {
        TokenizedText ref;
        try {
            ref = tokenizeTarget(model, *target);
        } catch (const InputError& e) {
            throw InputError(std::string("--target: ") + e.what());
        }
        checkReferenceLength(ref, s.max_source_len, "--target");
        mode = Mode::Forced;
        DecodeOptions o;
        o.interventions = s.interventions;
        return forcedDecode(model, src, ref, o);
    }
    DecodeOptions o;
    o.max_len = s.max_len;
    o.length_penalty = s.length_penalty;
    o.interventions = s.interventions;
    checkDecodeSize(model, src, s.beam, s.max_len, "SENTENCE");
    if (!s.tree.empty() || s.hypothesis > 1) {  // width 1 is the greedy decode, with its tree
        const BeamResult b = beamSearch(model, src, s.beam, o);
        if (!s.tree.empty())
            writeFileAtomically(s.tree, beamTreeToJsonText(b, model.target_vocab, src, s.beam, 2) + "\n");
        mode = s.beam > 1 ? Mode::Beam : Mode::Greedy;
        return nthHypothesis(model, b, s.hypothesis, o);
    }
    if (s.beam > 1) {
        mode = Mode::Beam;
        return beamSearch(model, src, s.beam, o).best;
    }
    mode = Mode::Greedy;
    return greedyDecode(model, src, o);
}

}  // namespace attnviz::cli
