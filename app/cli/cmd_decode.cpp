// attnviz-cli decode --model MODEL [options] SENTENCE: greedy, beam or forced decoding of one sentence or of every
// line of a file, printed as the decode object of docs/cli.md (--json) or as a readable table.
#include "command_run.h"
#include "commands.h"
#include "decode_request.h"
#include "input_bounds.h"
#include "model_flags.h"

#include "base/errors.h"
#include "base/utf8.h"
#include "decode/beam_hypothesis.h"
#include "decode/decoding.h"
#include "decode/parallel.h"
#include "io/atomic_file.h"
#include "io/beam_json.h"
#include "io/decode_json.h"
#include "io/json_text.h"
#include "io/model_file.h"
#include "text/display_width.h"
#include "text/tokenizer.h"

#include <cmath>
#include <cstdio>

namespace attnviz::cli {
namespace {

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

// "interventions {...}" and a newline, or nothing without interventions (numbers only: nothing from a file).
std::string interventionsLine(const Interventions& iv) {
    return iv.empty() ? std::string() : "interventions " + interventionsToJson(iv).dump() + "\n";
}

// The readable form: source positions, the output, then one row per target token. Every token is escaped
// (printable): the source comes from the user's file, the target from the model's vocabulary, and either may hold
// a terminal escape or a NUL. The interventions are named under `decoding` unless `name_interventions` is false
// (--input names them once for all its lines).
std::string decodeTable(const DecodeResult& r, const Model& model, Mode mode, const DecodeSettings& s,
                        int hypothesis = 1, bool name_interventions = true) {
    const int beam = s.beam;
    std::vector<std::string> src, tgt;
    for (const std::string& t : r.source_tokens) src.push_back(printable(t));
    const int src_unk = model.source_vocab.specials().unk, tgt_unk = model.target_vocab.specials().unk;
    const std::string& unk_text = model.target_vocab.token(tgt_unk);
    for (size_t t = 0; t < r.target_tokens.size(); ++t)
        tgt.push_back(printable(r.target_tokens[t]) +
                      (r.target_ids[t] == tgt_unk && r.target_tokens[t] != unk_text ? "(unk)" : ""));
    std::string out = "source   ";
    for (size_t j = 0; j < src.size(); ++j)
        out += (j ? " " : "") + std::to_string(j) + ":" + src[j] + (r.source_ids[j] == src_unk ? "(unk)" : "");
    const std::string text = r.source_words.empty() ? detokenizeTarget(model, r.target_tokens) : r.text;
    out += "\noutput   " + printable(text) + "\n";
    out += "decoding " +
           std::string(mode == Mode::Forced ? "forced on the reference"
                       : mode == Mode::Beam ? "beam search, width " + std::to_string(beam) +
                                                  (hypothesis > 1 ? ", hypothesis " + std::to_string(hypothesis) : "")
                                            : "greedy") +
           ", " + std::to_string(r.target_tokens.size()) + " tokens, total log p " + fixed(r.total_log_prob, 4) + "\n";
    if (name_interventions) out += interventionsLine(s.interventions);
    if (r.source_tokens.size() == (model.source_vocab.specials().sos >= 0 ? 2u : 1u))
        out += "(empty source: only " + std::string(model.source_vocab.specials().sos >= 0 ? "<sos> and " : "") +
               printable(model.source_vocab.token(model.source_vocab.specials().eos)) + ")\n";

    int tok_w = 5, src_w = 10;
    for (const std::string& t : tgt) tok_w = std::max(tok_w, displayWidth(t));
    for (const std::string& t : src) src_w = std::max(src_w, displayWidth(t) + 9);
    tok_w = std::min(tok_w, 24);
    src_w = std::min(src_w, 32);
    out += padLeft("t", 4) + "  " + padRight("token", tok_w) + "  " + padLeft("log p", 9) + "  " +
           padRight("attends to", src_w) + "  |attention|\n";
    for (size_t t = 0; t < tgt.size(); ++t) {
        const std::vector<float>& row = t < r.attention.size() ? r.attention[t] : std::vector<float>{};
        size_t best = 0;
        for (size_t j = 1; j < row.size(); ++j)
            if (row[j] > row[best]) best = j;
        const std::string top = row.empty() ? "-" : src[best] + " (" + fixed(row[best], 3) + ")";
        out += padLeft(std::to_string(t + 1), 4) + "  " + padRight(tgt[t], tok_w) + "  " +
               padLeft(fixed(r.log_probs[t], 4), 9) + "  " + padRight(top, src_w) + "  |" + heatBar(row) + "|\n";
    }
    return out;
}

int decodeFile(const std::string& path, const Model& model, DecodeSettings s, int threads) {
    s.parallel_steps = threads <= 1;
    const Corpus corpus = readInputLines(path);
    const std::string& name = corpus.name;  // "<stdin>" for --input -
    if (corpus.examples.empty()) warn("decode", name + ": no lines to decode (the file is empty or blank)");
    if (!s.json) writeToStdout(interventionsLine(s.interventions));  // the same for every line: named once
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
                    const DecodeResult r =
                        mergeWords(decodeOne(model, ex.source, ex.has_target ? &ex.target : nullptr, s), s.merge);
                    if (s.json) {
                        std::string& record = out[i - begin];
                        writeDecodeObject([&](std::string_view piece) { record += piece; }, r, model,
                                          s.interventions, ex.line);
                    } else {
                        const Mode mode = ex.has_target ? Mode::Forced : s.beam > 1 ? Mode::Beam : Mode::Greedy;
                        out[i - begin] = (i ? "\n" : "") + std::string("line ") + std::to_string(ex.line) + "\n" +
                                         decodeTable(r, model, mode, s, 1, false);
                    }
                } catch (const std::exception& e) {
                    throw InputError(atLine(name, ex.line, e));
                }
            });
        } catch (...) {
            // Lines decoded before the failing one are still printed, so the output stays a prefix of the full one.
            for (const std::string& o : out) {
                if (o.empty()) break;
                writeToStdout(o);
            }
            throw;
        }
        for (const std::string& o : out) writeToStdout(o);
        flushStdout();  // a full disk stops the run here, not after every line is decoded
    }
    return 0;
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
        DecodeRequest q;
        addDecodeOptions(p, q);
        if (!p.parse(args)) return 0;
        checkDecodeUsage(p, q);
        const LoadedModel loaded = loadModelForCli(q.model_path, scoreOf(q));
        const Model& model = *loaded.model;
        const DecodeSettings& s = q.settings;
        checkInterventionKinds(model, s.interventions);  // before the first line: the error names no line
        if (!s.tree.empty()) refuseOverwritingInput(s.tree, {{"--model", q.model_path}, {"--model", loaded.path}});
        if (p.seen("--input")) return decodeFile(q.input, model, s, threadCount(q.threads));

        Mode mode = Mode::Greedy;
        const DecodeResult r =
            mergeWords(decodeSentence(model, q.sentence(), q.forced(p) ? &q.target : nullptr, s, mode, "decode"),
                       s.merge);
        warnUnreachedAttends("decode", s.interventions, r.target_ids.size(), "");
        if (s.json)
            writeDecodeObject(writeToStdout, r, model, s.interventions);
        else
            writeToStdout(decodeTable(r, model, mode, s, s.hypothesis));
        return 0;
    });
}

}  // namespace attnviz::cli
