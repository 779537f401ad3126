// attnviz-cli decode --model MODEL [options] SENTENCE: greedy, beam or forced decoding of one sentence or of every
// line of a file, printed as the decode object of docs/cli.md (--json) or as a readable table.
#include "cli_common.h"
#include "commands.h"

#include "base/errors.h"
#include "decode/beam_hypothesis.h"
#include "decode/decoding.h"
#include "io/atomic_file.h"
#include "io/beam_json.h"
#include "io/decode_json.h"
#include "io/model_file.h"
#include "text/tokenizer.h"

#include <cmath>
#include <cstdio>

namespace attnviz::cli {
namespace {

struct DecodeSettings {
    int beam = 1;
    int max_len = 0;  // 0 = the spec's default 2 * S + 10
    bool json = false;
    int max_source_len = kMaxSourceTokens;
    bool parallel_steps = true;  // off when sentences are decoded side by side (DecodeOptions::parallel_steps)
    std::string tree;            // --tree FILE: the beam search's tree as JSON (io/beam_json.h)
    int hypothesis = 1;          // --hypothesis N: the N-th best finished hypothesis of the search (1: the best)
};

enum class Mode { Greedy, Beam, Forced };

// Decodes one source (and optional reference: forced decoding). InputErrors name `what` (the flag or line).
DecodeResult decodeOne(const Model& model, const std::string& source, const std::string* reference,
                       const DecodeSettings& s) {
    const TokenizedText src = tokenizeSource(model, source);
    checkSourceLength(src, s.max_source_len, "source");
    DecodeOptions o;
    o.max_len = s.max_len;
    o.parallel_steps = s.parallel_steps;
    if (reference) {
        const TokenizedText ref = tokenizeTarget(model, *reference);
        checkReferenceLength(ref, s.max_source_len, "reference");
        return forcedDecode(model, src, ref, o);
    }
    checkDecodeSize(model, src, s.beam, s.max_len, "source");
    if (s.beam > 1) return beamSearch(model, src, s.beam, o).best;
    return greedyDecode(model, src, o);
}

// One ASCII character per source position, darker for more weight: ' ' (0) to '@' (1).
std::string heatBar(const std::vector<float>& row) {
    static constexpr char kLevels[] = " .:-=+*#%@";
    std::string bar;
    for (float a : row) {
        const float x = std::isfinite(a) ? std::clamp(a, 0.0f, 1.0f) : 0.0f;
        bar += kLevels[static_cast<int>(std::lround(x * 9.0f))];
    }
    return bar;
}

std::string fixed(double v, int decimals) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

// The readable form: source positions, the output, then one row per target token.
std::string decodeTable(const DecodeResult& r, const Model& model, Mode mode, int beam, int hypothesis = 1) {
    std::string out = "source   ";
    for (size_t j = 0; j < r.source_tokens.size(); ++j)
        out += (j ? " " : "") + std::to_string(j) + ":" + r.source_tokens[j] + (r.source_ids[j] == kUnk ? "(unk)" : "");
    out += "\noutput   " + detokenize(r.target_tokens, model.config.tokenizer.target) + "\n";
    out += "decoding " +
           std::string(mode == Mode::Forced ? "forced on the reference"
                       : mode == Mode::Beam ? "beam search, width " + std::to_string(beam) +
                                                  (hypothesis > 1 ? ", hypothesis " + std::to_string(hypothesis) : "")
                                            : "greedy") +
           ", " + std::to_string(r.target_tokens.size()) + " tokens, total log p " + fixed(r.total_log_prob, 4) + "\n";
    if (r.source_tokens.size() == 2) out += "(empty source: only <sos> and <eos>)\n";

    int tok_w = 5, src_w = 10;
    for (const std::string& t : r.target_tokens) tok_w = std::max(tok_w, displayWidth(t));
    for (const std::string& t : r.source_tokens) src_w = std::max(src_w, displayWidth(t) + 9);
    tok_w = std::min(tok_w, 24);
    src_w = std::min(src_w, 32);
    out += padLeft("t", 4) + "  " + padRight("token", tok_w) + "  " + padLeft("log p", 9) + "  " +
           padRight("attends to", src_w) + "  |attention|\n";
    for (size_t t = 0; t < r.target_tokens.size(); ++t) {
        const std::vector<float>& row = t < r.attention.size() ? r.attention[t] : std::vector<float>{};
        size_t best = 0;
        for (size_t j = 1; j < row.size(); ++j)
            if (row[j] > row[best]) best = j;
        std::string top = row.empty() ? "-" : r.source_tokens[best] + " (" + fixed(row[best], 3) + ")";
        const std::string tok =
            r.target_tokens[t] + (r.target_ids[t] == kUnk && r.target_tokens[t] != "<unk>" ? "(unk)" : "");
        out += padLeft(std::to_string(t + 1), 4) + "  " + padRight(tok, tok_w) + "  " +
               padLeft(fixed(r.log_probs[t], 4), 9) + "  " + padRight(top, src_w) + "  |" + heatBar(row) + "|\n";
    }
    return out;
}

// A JSON Lines record: the decode object with the input line number added (lines may be skipped when blank).
std::string jsonLine(const DecodeResult& r, const ModelConfig& config, int line) {
    std::string text = decodeToJsonText(r, config);
    text.pop_back();  // the closing brace of the object
    return text + ",\"line\":" + std::to_string(line) + "}";
}

int decodeFile(const std::string& path, const Model& model, DecodeSettings s, int threads) {
    s.parallel_steps = threads <= 1;
    const Corpus corpus = readInputLines(path);
    const std::string& name = corpus.name;  // "<stdin>" for --input -
    if (corpus.examples.empty()) warn("decode", name + ": no lines to decode (the file is empty or blank)");
    // Blocks keep memory bounded and output flowing on large files; every block is decoded on all threads and
    // printed in input order.
    constexpr size_t kBlock = 512;
    std::vector<std::string> out;
    for (size_t begin = 0; begin < corpus.examples.size(); begin += kBlock) {
        const size_t end = std::min(corpus.examples.size(), begin + kBlock);
        out.assign(end - begin, {});
        try {
            parallelFor(begin, end, threads, [&](size_t i) {
                const CorpusExample& ex = corpus.examples[i];
                try {
                    const DecodeResult r = decodeOne(model, ex.source, ex.has_target ? &ex.target : nullptr, s);
                    if (s.json) {
                        out[i - begin] = jsonLine(r, model.config, ex.line) + "\n";
                    } else {
                        const Mode mode = ex.has_target ? Mode::Forced : s.beam > 1 ? Mode::Beam : Mode::Greedy;
                        out[i - begin] = (i ? "\n" : "") + std::string("line ") + std::to_string(ex.line) + "\n" +
                                         decodeTable(r, model, mode, s.beam);
                    }
                } catch (const std::exception& e) {
                    throw InputError(atLine(name, ex.line, e));
                }
            });
        } catch (...) {
            // Lines decoded before the failing one are still printed, so the output stays a prefix of the full one.
            for (const std::string& o : out) {
                if (o.empty()) break;
                std::fputs(o.c_str(), stdout);
            }
            throw;
        }
        for (const std::string& o : out) std::fputs(o.c_str(), stdout);
        flushStdout();  // a full disk stops the run here, not after every line is decoded
    }
    return 0;
}

// The SENTENCE of the command line: forced on `target` when given, else beam or greedy; `mode` says which.
// The n-th best finished hypothesis (from 1) of a search as a decode object: the search's `best` for n = 1, else
// the forced decode of its tokens (hypothesisDecode: a Transformer's layers and heads too).
DecodeResult nthHypothesis(const Model& model, const BeamResult& b, int n) {
    if (n == 1) return b.best;
    if (int(b.finished.size()) < n)
        throw InputError("--hypothesis " + std::to_string(n) + ": the beam search finished only " +
                         std::to_string(b.finished.size()) + " hypotheses (a wider --beam may find more)");
    return hypothesisDecode(model, b, b.finished[size_t(n) - 1]);
}

DecodeResult decodeSentence(const Model& model, const std::string& sentence, const std::string* target,
                            const DecodeSettings& s, Mode& mode) {
    TokenizedText src;
    try {
        src = tokenizeSource(model, sentence);
    } catch (const InputError& e) {
        throw InputError(std::string("SENTENCE: ") + e.what());
    }
    checkSourceLength(src, s.max_source_len, "SENTENCE");
    if (src.tokens.size() == 2) warn("decode", "the sentence has no tokens; decoding <sos> <eos> alone");
    if (target) {
        TokenizedText ref;
        try {
            ref = tokenizeTarget(model, *target);
        } catch (const InputError& e) {
            throw InputError(std::string("--target: ") + e.what());
        }
        checkReferenceLength(ref, s.max_source_len, "--target");
        mode = Mode::Forced;
        return forcedDecode(model, src, ref);
    }
    DecodeOptions o;
    o.max_len = s.max_len;
    checkDecodeSize(model, src, s.beam, s.max_len, "SENTENCE");
    if (!s.tree.empty() || s.hypothesis > 1) {  // width 1 is the greedy decode, with its tree
        const BeamResult b = beamSearch(model, src, s.beam, o);
        if (!s.tree.empty())
            writeFileAtomically(s.tree, beamTreeToJsonText(b, model.target_vocab, src, s.beam, 2) + "\n");
        mode = s.beam > 1 ? Mode::Beam : Mode::Greedy;
        return nthHypothesis(model, b, s.hypothesis);
    }
    if (s.beam > 1) {
        mode = Mode::Beam;
        return beamSearch(model, src, s.beam, o).best;
    }
    mode = Mode::Greedy;
    return greedyDecode(model, src, o);
}

}  // namespace

int runDecode(const std::vector<std::string>& args) {
    return runCommand("decode", [&] {
        ArgParser p(
            "decode", "--model MODEL [options] SENTENCE",
            "Decode a sentence (greedy, beam search or forced on a reference) and print the source and target\n"
            "tokens, the attention matrix and the log-probabilities. An empty sentence is decoded as <sos> <eos>\n"
            "with a warning. With --input, blank lines (nothing but spaces and tabs) are skipped, lines with a "
            "reference are forced (--beam\n"
            "applies to the others) and each JSON line carries its input \"line\" number.");
        std::string model_path, target, input, score;
        DecodeSettings s;
        int threads = 0;
        std::vector<std::string> words;
        p.option("--model", &model_path, "MODEL", "the model file (.safetensors)").required();
        p.flag("--json", &s.json, "print the decode object as JSON (one line; JSON Lines with --input)");
        p.option("--beam", &s.beam, "K", "beam search of width K (default 1 = greedy)", 1, 1000);
        p.option("--max-len", &s.max_len, "N",
                 "at most N target tokens, <eos> included (default 2*S+10); ignored with --target", 1, 1000000);
        p.option("--tree", &s.tree, "FILE",
                 "also write the beam search's tree (nodes, n-best, attention rows) to FILE as JSON (atomically)");
        p.option("--hypothesis", &s.hypothesis, "N",
                 "print the N-th best finished hypothesis of the --beam search (default 1: the best), with all its "
                 "attention keys",
                 1, 1000);
        p.option("--target", &target, "TEXT", "forced decoding: score this reference translation (<eos> is appended)");
        p.option("--input", &input, "FILE",
                 "decode every line of FILE (- for standard input): `source` or `source<TAB>reference` (forced)");
        p.choice("--score", &score, scoreChoices(), "use the sibling model trained with this score");
        p.option("--threads", &threads, "N", "worker threads for --input (default: every core)", 1, 256);
        p.option("--max-source-len", &s.max_source_len, "N",
                 "refuse sources of more than N tokens (default 1000); references may have 2*N+10", 1,
                 kMaxSourceLenLimit);
        p.positionals(&words, "SENTENCE", "the source sentence (several arguments are joined with spaces)");
        if (!p.parse(args)) return 0;

        const bool forced = p.seen("--target");
        if (forced && p.seen("--beam"))
            throw UsageError("--beam and --target cannot be used together (forced decoding does not search)");
        if (p.seen("--input") && !words.empty()) throw UsageError("give either SENTENCE or --input FILE, not both");
        if (p.seen("--input") && forced)
            throw UsageError("--target cannot be used with --input (put the reference after a tab on each line)");
        if (!p.seen("--input") && words.empty()) throw UsageError("missing SENTENCE (or --input FILE)");
        if (p.seen("--tree") && (forced || p.seen("--input")))
            throw UsageError("--tree writes the search of one SENTENCE: it cannot be used with --target or --input");

        if (p.seen("--hypothesis") && (!p.seen("--beam") || forced || p.seen("--input")))
            throw UsageError(
                "--hypothesis picks a hypothesis of the --beam search of one SENTENCE (not with "
                "--target or --input)");

        std::optional<ScoreKind> score_kind;
        if (!score.empty()) score_kind = parseScoreKind(score);
        const LoadedModel loaded = loadModelForCli(model_path, score_kind);
        const Model& model = *loaded.model;

        if (p.seen("--input")) return decodeFile(input, model, s, threadCount(threads));

        std::string sentence;
        for (const std::string& w : words) sentence += (sentence.empty() ? "" : " ") + w;
        Mode mode = Mode::Greedy;
        const DecodeResult r = decodeSentence(model, sentence, forced ? &target : nullptr, s, mode);
        if (s.json)
            std::printf("%s\n", decodeToJsonText(r, model.config).c_str());
        else
            std::fputs(decodeTable(r, model, mode, s.beam, s.hypothesis).c_str(), stdout);
        return 0;
    });
}

}  // namespace attnviz::cli
