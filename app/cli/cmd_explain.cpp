// attnviz-cli explain --model MODEL [--method LIST] [--ig-steps M] [--contrast T:TOKEN] [decode options] SENTENCE:
// the decode of `decode` and, for each method of docs/explain.md, how much each source position mattered to each
// target row (JSON: the decode object plus the explain keys; else a table per method).
#include "command_run.h"
#include "commands.h"
#include "decode_request.h"
#include "explain_run.h"
#include "input_bounds.h"
#include "model_flags.h"

#include "base/errors.h"
#include "base/utf8.h"
#include "explain/explain_json.h"
#include "explain/explanation.h"
#include "explain/word_explanation.h"
#include "io/decode_json.h"
#include "io/json_text.h"
#include "text/display_width.h"

#include <algorithm>
#include <cstdio>

namespace attnviz::cli {
namespace {

struct ExplainSettings {
    std::string methods = "attention,grad_input,ig,occlusion";
    std::string contrast;  // T:TOKEN
    ExplainOptions options;
    double max_work = kDefaultMaxExplainWork;  // --max-work
};

// "T:TOKEN" → row T and the token's id; the token is split at the first ':' so that it may hold one.
Contrast parseContrast(const std::string& value, const Model& model) {
    const size_t colon = value.find(':');
    if (colon == std::string::npos || colon == 0)
        throw UsageError("--contrast takes ROW:TOKEN (a 0-based row and a target token), not \"" + value + "\"");
    const int row = parseIntegerValue("--contrast's row", value.substr(0, colon), 0, std::numeric_limits<int>::max());
    const std::string token = value.substr(colon + 1);
    if (token.empty()) throw UsageError("--contrast " + value + ": no TOKEN after the row (ROW:TOKEN)");
    const int id = model.target_vocab.id(token);
    if (id == kUnk && token != "<unk>")
        throw InputError("--contrast: \"" + token + "\" is not in the model's target vocabulary");
    return Contrast{row, id};
}

// The contrast against the decode it explains (InputError naming the flag): one of its rows, and a token other than
// the row's own, for which log p(y_T) − log p(y_T) would be 0 at every position.
void checkContrastRow(const std::string& flag_value, const Contrast& c, const DecodeResult& r, const Model& model) {
    const int rows = int(r.target_ids.size());
    if (c.row >= rows)
        throw InputError("--contrast " + flag_value + ": row " + std::to_string(c.row) + " is outside the decode's " +
                         std::to_string(rows) + " rows (0.." + std::to_string(rows - 1) + ")");
    if (r.target_ids[size_t(c.row)] == c.token)
        throw InputError("--contrast " + flag_value + ": row " + std::to_string(c.row) + " is " +
                         model.target_vocab.token(c.token) +
                         " already; a contrast needs another token (log p(y) - log p(y) is 0 at every position)");
}

// The warning for a --contrast that none of `methods` reads (they read the weights, not the objective), or "".
std::string unreadContrast(const std::vector<ExplainMethod>& methods) {
    std::string readers;
    for (const MethodInfo& m : explainMethods()) {
        if (!m.reads_objective) continue;
        if (std::find(methods.begin(), methods.end(), m.method) != methods.end()) return {};
        readers += std::string(readers.empty() ? "" : ", ") + m.name;
    }
    return "--contrast is ignored: none of the chosen methods reads it (" + readers + " do)";
}

std::string fixed(double v) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.4f", v);
    return buf;
}

// One method as a table: a column per source position, a row per target token.
std::string explanationTable(const DecodeResult& r, const Explanation& e) {
    const MethodInfo& info = methodInfo(e.method);
    std::string out = std::string("\n") + info.name + (info.is_signed ? " (signed)" : "") + "\n";
    int tok_w = 5;
    for (const std::string& t : r.target_tokens) tok_w = std::max(tok_w, std::min(displayWidth(printable(t)), 16));
    std::vector<int> widths;
    out += padLeft("t", 4) + "  " + padRight("token", tok_w);
    for (const std::string& s : r.source_tokens) {
        const std::string shown = printable(s);
        widths.push_back(std::max(9, std::min(displayWidth(shown), 16)));
        out += "  " + padLeft(shown, widths.back());
    }
    if (!e.ig_delta.empty()) out += "  " + padLeft("f(e)-f(0)", 10);
    out += "\n";
    for (Eigen::Index t = 0; t < e.values.rows(); ++t) {
        out += padLeft(std::to_string(t), 4) + "  " + padRight(printable(r.target_tokens[size_t(t)]), tok_w);
        for (Eigen::Index j = 0; j < e.values.cols(); ++j)
            out += "  " + padLeft(fixed(e.values(t, j)), widths[size_t(j)]);
        if (!e.ig_delta.empty()) out += "  " + padLeft(fixed(e.ig_delta[size_t(t)]), 10);
        out += "\n";
    }
    return out;
}

std::string explainText(const Model& model, const DecodeResult& r, const std::vector<Explanation>& explanations,
                        const ExplainOptions& options) {
    std::string out = "output   ";
    for (const std::string& t : r.target_tokens) out += printable(t) + " ";
    out += "\n";
    if (options.contrast && std::any_of(explanations.begin(), explanations.end(),
                                        [](const Explanation& e) { return e.contrast.has_value(); }))
        out += "contrast row " + std::to_string(options.contrast->row) + ": why " +
               printable(r.target_tokens[size_t(options.contrast->row)]) + " and not " +
               printable(model.target_vocab.token(options.contrast->token)) + "\n";
    for (const Explanation& e : explanations) out += explanationTable(r, e);
    return out;
}

// Every method's matrix, each checked against the bounds before it starts (`where`: "SENTENCE", or "" for an
// --input line, which the caller names).
std::vector<Explanation> explainAll(const Model& model, const DecodeResult& r,
                                    const std::vector<ExplainMethod>& methods, const ExplainSettings& e,
                                    const std::string& where) {
    const ExplainOptions& options = e.options;
    if (options.contrast) checkContrastRow(e.contrast, *options.contrast, r, model);
    for (ExplainMethod m : methods) checkExplainSize(model, r, m, options, e.max_work, where);  // all before any
    std::vector<Explanation> out;
    for (ExplainMethod m : methods) out.push_back(explainForCli(model, r, m, options, e.max_work, where, "explain"));
    return out;
}

// --merge: the decode shown in words and each method's matrix merged on the same spans (explain/word_explanation).
void showMerged(DecodeResult& r, std::vector<Explanation>& explanations, MergeSides sides) {
    for (Explanation& e : explanations) e = mergeExplanation(r, e, sides);
    r = mergeWords(r, sides);
}

// The decode object with the explanations, streamed to standard output as one JSON Lines record (`line` > 0 adds
// the input line's number).
void writeExplainObject(const Model& model, const DecodeResult& r, const std::vector<Explanation>& explanations,
                        const ExplainOptions& options, const Interventions& iv, int line = 0) {
    writeDecodeObject(writeToStdout, r, model, iv, line, -1,
                      [&](JsonWriter& w) { writeExplanationMembers(w, explanations, options, model); });
}

int explainFile(const Model& model, const DecodeRequest& q, const std::vector<ExplainMethod>& methods,
                const ExplainSettings& settings) {
    const ExplainOptions& options = settings.options;
    const Corpus corpus = readInputLines(q.input);
    if (corpus.examples.empty()) warn("explain", corpus.name + ": no lines to explain (the file is empty or blank)");
    for (const CorpusExample& ex : corpus.examples) {
        DecodeResult r;
        std::vector<Explanation> e;
        std::string text;
        try {
            r = decodeOne(model, ex.source, ex.has_target ? &ex.target : nullptr, q.settings);
            e = explainAll(model, r, methods, settings, "");
            showMerged(r, e, q.settings.merge);
            if (!q.settings.json)
                text = "line " + std::to_string(ex.line) + "\n" + explainText(model, r, e, options) + "\n";
        } catch (const std::exception& error) {
            throw InputError(atLine(corpus.name, ex.line, error));
        }
        if (q.settings.json)
            writeExplainObject(model, r, e, options, q.settings.interventions, ex.line);
        else
            std::fputs(text.c_str(), stdout);
        flushStdout();
    }
    return 0;
}

}  // namespace

int runExplain(const std::vector<std::string>& args) {
    return runCommand("explain", [&] {
        ArgParser p("explain", "--model MODEL [--method LIST] [options] SENTENCE",
                    "Decode a sentence as `decode` does (every decode option applies) and explain each target token:\n"
                    "how much each source position mattered to it by each method of docs/explain.md (attention,\n"
                    "norm, grad_input, grad_norm, ig, occlusion, rollout for a Transformer).");
        DecodeRequest q;
        ExplainSettings e;
        addDecodeOptions(p, q, DecodeCommand::Explain);
        p.option("--method", &e.methods, "LIST",
                 "comma-separated methods, or all (default attention,grad_input,ig,occlusion)");
        p.option("--ig-steps", &e.options.ig_steps, "M", "integrated gradients' steps (default 32)", 1, kMaxIgSteps);
        p.option("--contrast", &e.contrast, "T:TOKEN",
                 "at row T (0-based) explain log p(y_T) - log p(TOKEN): why this token and not TOKEN");
        addMaxWorkOption(p, &e.max_work);
        if (!p.parse(args)) return 0;
        checkDecodeUsage(p, q);
        e.options.threads = q.threads;

        const LoadedModel loaded = loadModelForCli(q.model_path, scoreOf(q));
        const Model& model = *loaded.model;
        std::vector<ExplainMethod> methods;
        try {
            methods = parseMethodList(e.methods, model.config);
        } catch (const InputError& error) {
            throw UsageError(std::string("--method: ") + error.what());
        }
        checkInterventionKinds(model, q.settings.interventions);  // before the first line: the error names no line
        e.options.interventions = q.settings.interventions;       // every method explains the intervened model
        if (p.seen("--contrast") && mergesTarget(q.settings.merge))
            throw UsageError("--contrast names a row of pieces: it cannot be used with --merge target or both");
        if (p.seen("--contrast")) {
            e.options.contrast = parseContrast(e.contrast, model);
            if (const std::string unread = unreadContrast(methods); !unread.empty()) warn("explain", unread);
        }
        if (p.seen("--input")) return explainFile(model, q, methods, e);

        Mode mode = Mode::Greedy;
        const DecodeResult r =
            decodeSentence(model, q.sentence(), q.forced(p) ? &q.target : nullptr, q.settings, mode, "explain");
        warnUnreachedAttends("explain", q.settings.interventions, r.target_ids.size(), "");
        std::vector<Explanation> explanations = explainAll(model, r, methods, e, "SENTENCE");
        DecodeResult shown = r;
        showMerged(shown, explanations, q.settings.merge);
        if (q.settings.json)
            writeExplainObject(model, shown, explanations, e.options, q.settings.interventions);
        else
            std::fputs(explainText(model, shown, explanations, e.options).c_str(), stdout);
        return 0;
    });
}

}  // namespace attnviz::cli
