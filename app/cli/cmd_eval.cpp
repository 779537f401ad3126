// attnviz-cli eval --model MODEL --data FILE [--json]: greedy-decodes every source line of a TSV corpus and reports
// exact match, token accuracy, corpus BLEU-4, chrF, mean attention entropy and, where the data has alignments, AER
// (docs/cli.md; the maths in core/eval/metrics.h and, for the alignment modes, core/eval/alignment.h).
#include "command_run.h"
#include "commands.h"
#include "decode_request.h"
#include "input_bounds.h"
#include "model_flags.h"

#include "base/errors.h"
#include "base/utf8.h"
#include "decode/decoding.h"
#include "decode/parallel.h"
#include "eval/head_importance.h"
#include "eval/metrics.h"
#include "explain/measures.h"
#include "io/decode_json.h"
#include "io/json_text.h"
#include "io/model_file.h"
#include "text/tokenizer.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>

namespace attnviz::cli {
namespace {

// How the alignment of the attention is read: `align` gives `aer`; `modes` (--align-mode all) are counted beside it.
struct AlignSettings {
    AlignOptions align;
    std::vector<AlignOptions> modes;
};

// --explain LIST: the explanation methods measured on each line's forced reference (docs/explain.md), with the
// seed of the random order (--seed; line i's order is seeded by seed + i) and integrated gradients' steps.
struct ExplainRequest {
    std::string list;  // as given
    std::vector<ExplainMethod> methods;
    uint64_t seed = 0;
    int ig_steps = kDefaultIgSteps;
};

void addExplainOptions(ArgParser& p, ExplainRequest& e) {
    p.option("--explain", &e.list, "LIST",
             "also measure explanation methods (comma-separated, or all) on each reference: AER, AOPC against a "
             "random order, Spearman against occlusion (docs/explain.md)");
    p.option("--seed", &e.seed, "N", "the random order's seed for --explain (default 0)");
    p.option("--ig-steps", &e.ig_steps, "M", "with --explain ig: the integrated gradients' steps (default 32)", 1,
             kMaxIgSteps);
}

// The options that belong to --explain, given without it (UsageError).
void checkExplainUsage(const ArgParser& p) {
    for (const char* flag : {"--seed", "--ig-steps"})
        if (p.seen(flag) && !p.seen("--explain")) throw UsageError(std::string(flag) + " belongs to --explain LIST");
}

// --explain's methods for this model (UsageError for an unknown one, or --ig-steps without ig among them).
void resolveExplain(const ArgParser& p, ExplainRequest& e, const ModelConfig& config) {
    if (!p.seen("--explain")) return;
    try {
        e.methods = parseMethodList(e.list, config);
    } catch (const InputError& error) {
        throw UsageError(std::string("--explain: ") + error.what());
    }
    if (p.seen("--ig-steps") &&
        std::find(e.methods.begin(), e.methods.end(), ExplainMethod::IntegratedGradients) == e.methods.end())
        throw UsageError("--ig-steps is integrated gradients': --explain " + e.list + " has no ig");
}

// One line's counts, its AER counts under each of settings.modes (empty without gold links), and with --explain
// each method's measures.
struct LineCounts {
    EvalCounts counts;
    std::vector<AerCounts> modes;
    LineMeasures explain;
};

// The output a line is scored on: greedy (beam 1) or the best hypothesis of a beam search.
DecodeResult decodeOutput(const Model& model, const TokenizedText& src, const DecodeOptions& options, int beam) {
    return beam > 1 ? beamSearch(model, src, beam, options).best : greedyDecode(model, src, options);
}

LineCounts evalLine(const Model& model, const CorpusExample& ex, size_t index, const DecodeOptions& options, int beam,
                    int max_source_len, const AlignSettings& settings, const ExplainRequest& explain) {
    const TokenizedText src = tokenizeSource(model, ex.source);
    checkSourceLength(src, max_source_len, "source");
    const TokenizedText ref = tokenizeTarget(model, ex.target);
    checkReferenceLength(ref, max_source_len, "reference");
    const DecodeResult output = decodeOutput(model, src, options, beam);
    if (!ex.has_alignment && explain.methods.empty()) return {evalExample(model, output, ref.tokens), {}, {}};
    const DecodeResult forced = forcedDecode(model, src, ref, options);
    const GoldAlignment* gold = ex.has_alignment ? &ex.alignment : nullptr;
    LineCounts line{evalExample(model, output, ref.tokens, gold ? &forced : nullptr, gold, settings.align), {}, {}};
    for (const AlignOptions& mode : settings.modes)
        if (gold) line.modes.push_back(aerCounts(extractAlignment(forced, mode), *gold));
    if (!explain.methods.empty()) {
        ExplainOptions intervened;  // the forced decode's interventions: the measures are the intervened model's
        intervened.interventions = options.interventions;
        intervened.ig_steps = explain.ig_steps;
        line.explain =
            measureLine(model, forced, gold, explain.methods, settings.align, explain.seed + index, intervened);
    }
    return line;
}

// Every line's counts, decoded in blocks on every core; between blocks, progress on stderr when it is a terminal.
LineCounts evalCorpus(const Model& model, const Corpus& corpus, const std::string& data_path, int max_len, int beam,
                      int threads, int max_source_len, const AlignSettings& settings, const ExplainRequest& explain,
                      const Interventions& iv) {
    DecodeOptions options;
    options.max_len = max_len;
    options.interventions = iv;  // the greedy (beam) outputs and the forced decodes the AER reads
    options.parallel_steps = threadCount(threads) <= 1;  // else every core decodes lines of its own
    const size_t n = corpus.examples.size();
    TerminalProgress progress("eval", "lines");
    constexpr size_t kBlock = 256;
    std::vector<LineCounts> per_line(n);
    for (size_t begin = 0; begin < n; begin += kBlock) {
        parallelFor(begin, std::min(n, begin + kBlock), threadCount(threads), [&](size_t i) {
            const CorpusExample& ex = corpus.examples[i];
            try {
                per_line[i] = evalLine(model, ex, i, options, beam, max_source_len, settings, explain);
            } catch (const std::exception& e) {
                throw InputError(atLine(data_path, ex.line, e));
            }
        });
        if (n > kBlock) progress.show(std::min(n, begin + kBlock), n);
    }
    LineCounts total{{}, std::vector<AerCounts>(settings.modes.size()), {}};
    total.explain.methods.resize(explain.methods.size());
    for (const LineCounts& c : per_line) {
        total.counts += c.counts;
        for (size_t m = 0; m < c.modes.size(); ++m) total.modes[m] += c.modes[m];
        for (size_t m = 0; m < c.explain.methods.size(); ++m) total.explain.methods[m] += c.explain.methods[m];
        total.explain.random += c.explain.random;
    }
    return total;
}

// --head-importance: every head's scores by the search eval's BLEU comes from (--beam), the lines side by side on
// the engine's threads; progress on stderr when it is a terminal.
std::vector<HeadScore> headScores(const Model& model, const Corpus& corpus, int max_len, int beam, int threads,
                                  int max_source_len) {
    HeadImportanceOptions o;
    o.max_len = max_len;
    o.beam = beam;
    o.threads = threads;
    o.max_source_tokens = max_source_len;
    TerminalProgress progress("eval", "head importance jobs");
    if (progress.active())
        o.progress = [&progress](size_t done, size_t all) {
            if (done % 64 == 0 || done == all) progress.show(done, all);
        };
    return headImportance(model, corpus.examples, o);
}

nlohmann::ordered_json headsJson(const std::vector<HeadScore>& heads) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (const HeadScore& h : heads)
        out.push_back({{"kind", std::string(headKindName(h.head.kind))},
                       {"layer", h.head.layer},
                       {"head", h.head.head},
                       {"bleu_off", jsonNumber<nlohmann::ordered_json>(h.bleu_off)},
                       {"mean_log_prob_off", jsonNumber<nlohmann::ordered_json>(h.mean_log_prob_off)},
                       {"importance", jsonNumber<nlohmann::ordered_json>(h.importance)}});
    return out;
}

// What eval does to the model's heads: interventions on every decode, or each head removed in turn.
struct HeadOptions {
    Interventions interventions;
    bool importance = false;  // --head-importance
};

void addHeadOptions(ArgParser& p, HeadOptions& o) {
    addInterventionOptions(p, o.interventions);
    p.flag("--head-importance", &o.importance,
           "Transformer: also score every head removed in turn (BLEU, mean log p of the references) and its "
           "gradient importance (docs/explain.md)");
}

void checkHeadOptions(const ArgParser& p, const HeadOptions& o) {
    if (o.importance && !o.interventions.empty())
        throw UsageError(
            "--head-importance removes each head of the plain model in turn: it cannot be used with --knockout, "
            "--attend or --head-off");
}

// The heads sorted by BLEU lost (most first), beside the model's own BLEU, and the interventions (numbers only:
// nothing from a file).
void printHeadsText(const std::vector<HeadScore>* scores, const Interventions& iv, double bleu) {
    if (!iv.empty()) std::printf("interventions   %s\n", interventionsToJson(iv).dump().c_str());
    if (!scores) return;
    const std::vector<HeadScore> sorted = headsByBleuLost(*scores);
    std::printf("heads           each head off in turn (0-based), by BLEU lost:\n");
    std::printf("  %-8s %5s %4s  %8s  %8s  %12s  %10s\n", "kind", "layer", "head", "bleu_off", "lost", "mean_logp_off",
                "importance");
    for (const HeadScore& h : sorted)
        std::printf("  %-8s %5d %4d  %8.2f  %8.2f  %12.4f  %10.4f\n", std::string(headKindName(h.head.kind)).c_str(),
                    h.head.layer, h.head.head, h.bleu_off, bleu - h.bleu_off, h.mean_log_prob_off, h.importance);
}

const char* specialsName(const AlignOptions& o) { return o.include_specials ? "include" : "exclude"; }

// --align-mode all: one object per mode, with the keys `aer` has beside it.
nlohmann::ordered_json modesJson(const AlignSettings& settings, const std::vector<AerCounts>& modes) {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    for (size_t m = 0; m < modes.size(); ++m) {
        nlohmann::ordered_json j;
        j["align_mode"] = alignModeName(settings.modes[m]);
        j["align_specials"] = specialsName(settings.modes[m]);
        j["aer"] = modes[m].aer();
        j["alignment_precision"] = modes[m].precision();
        j["alignment_recall"] = modes[m].recall();
        out.push_back(std::move(j));
    }
    return out;
}

// --explain: {"<method>": {"aer", "alignment_precision", "alignment_recall", "aopc", "occlusion_spearman"}, …,
// "random": {"aopc"}} (the alignment keys only when lines have gold links).
nlohmann::ordered_json explainJson(const LineCounts& total, const ExplainRequest& explain) {
    nlohmann::ordered_json out;
    const bool aligned = total.counts.aligned_lines > 0;
    for (size_t m = 0; m < explain.methods.size(); ++m) {
        const ExplainMeasures& e = total.explain.methods[m];
        nlohmann::ordered_json j;
        if (aligned) {
            j["aer"] = e.aer.aer();
            j["alignment_precision"] = e.aer.precision();
            j["alignment_recall"] = e.aer.recall();
        }
        j["aopc"] = jsonNumber<nlohmann::ordered_json>(e.aopc.mean());
        j["occlusion_spearman"] = jsonNumber<nlohmann::ordered_json>(e.occlusion_spearman.mean());
        out[methodInfo(explain.methods[m]).name] = std::move(j);
    }
    out["random"] = {{"aopc", jsonNumber<nlohmann::ordered_json>(total.explain.random.aopc.mean())}};
    return out;
}

// `v` with 4 decimals right-aligned in `width`, or "-" where the JSON has null (a mean over no rows: every line too
// short for a Spearman correlation).
std::string measureText(double v, int width) {
    char buf[64];
    if (std::isfinite(v))
        std::snprintf(buf, sizeof buf, "%*.4f", width, v);
    else
        std::snprintf(buf, sizeof buf, "%*s", width, "-");
    return buf;
}

void printExplainText(const LineCounts& total, const ExplainRequest& explain) {
    const bool aligned = total.counts.aligned_lines > 0;
    std::printf("explanations    %s  %8s  %18s\n", aligned ? "     aer" : "", "aopc", "occlusion_spearman");
    for (size_t m = 0; m < explain.methods.size(); ++m) {
        const ExplainMeasures& e = total.explain.methods[m];
        std::printf("  %-12s  ", methodInfo(explain.methods[m]).name);
        if (aligned) std::printf("%s", measureText(e.aer.aer(), 8).c_str());
        std::printf("  %s  %s\n", measureText(e.aopc.mean(), 8).c_str(),
                    measureText(e.occlusion_spearman.mean(), 18).c_str());
    }
    std::printf("  %-12s  %s  %s  (a random order of the words, seeded: the floor)\n", "random",
                aligned ? "        " : "", measureText(total.explain.random.aopc.mean(), 8).c_str());
}

void printEvalJson(const EvalReport& r, const LineCounts& line_total, const AlignSettings& settings, int beam,
                   const std::string& model_path, const std::string& data_path, double seconds,
                   const ExplainRequest& explain, const Interventions& iv, const std::vector<HeadScore>* heads) {
    const EvalCounts& total = line_total.counts;
    nlohmann::ordered_json j;
    j["exact_match"] = r.exact_match;
    j["token_accuracy"] = r.token_accuracy;
    j["bleu"] = r.bleu;
    j["chrf"] = r.chrf;
    j["mean_entropy"] = r.mean_entropy;
    if (r.aer) {
        j["aer"] = *r.aer;
        j["alignment_precision"] = *r.alignment_precision;
        j["alignment_recall"] = *r.alignment_recall;
        j["align_mode"] = alignModeName(settings.align);
        j["align_specials"] = specialsName(settings.align);
        j["predicted_links"] = total.alignment.predicted;
        j["sure_links"] = total.alignment.gold;
        j["possible_links"] = total.alignment.possible;
        if (!settings.modes.empty()) j["align_modes"] = modesJson(settings, line_total.modes);
    }
    j["beam"] = beam;
    if (!iv.empty()) j["interventions"] = interventionsToJson(iv);
    j["lines"] = total.lines;
    j["aligned_lines"] = total.aligned_lines;
    j["exact_lines"] = total.exact;
    j["reference_tokens"] = total.tokens.positions;
    j["correct_tokens"] = total.tokens.correct;
    j["output_tokens"] = total.output_tokens;
    j["attention_rows"] = total.attention_rows;
    j["model"] = model_path;
    j["data"] = data_path;
    j["seconds"] = seconds;
    if (!explain.methods.empty()) j["explain"] = explainJson(line_total, explain);
    if (heads) j["heads"] = headsJson(*heads);
    std::printf("%s\n", jsonText(j).c_str());
}

// The alignment lines of the readable report: the chosen mode's AER, precision and recall, then any further modes.
void printAlignmentText(const EvalReport& r, const LineCounts& line_total, const AlignSettings& settings) {
    const AerCounts& a = line_total.counts.alignment;
    std::printf(
        "aer             %.4f   (%s, specials %sd: %lld predicted links, %lld sure gold links of %lld possible)\n",
        *r.aer, alignModeName(settings.align).c_str(), specialsName(settings.align),
        static_cast<long long>(a.predicted), static_cast<long long>(a.gold), static_cast<long long>(a.possible));
    std::printf("alignment_precision %.4f   (%lld predicted links possible)\n", *r.alignment_precision,
                static_cast<long long>(a.overlap_possible));
    std::printf("alignment_recall    %.4f   (%lld sure links predicted)\n", *r.alignment_recall,
                static_cast<long long>(a.overlap));
    for (size_t m = 0; m < settings.modes.size(); ++m) {
        const AerCounts& c = line_total.modes[m];
        std::printf("  %-16s specials %sd: aer %.4f  precision %.4f  recall %.4f\n",
                    alignModeName(settings.modes[m]).c_str(), specialsName(settings.modes[m]), c.aer(), c.precision(),
                    c.recall());
    }
}

void printEvalText(const EvalReport& r, const LineCounts& line_total, const AlignSettings& settings, int beam,
                   const std::string& model_path, const std::string& data_path, double seconds,
                   const ExplainRequest& explain) {
    const EvalCounts& total = line_total.counts;
    std::printf("model           %s\n", printable(model_path).c_str());  // a sibling's file name with --score
    std::printf(
        "data            %s: %lld lines (%lld with alignments), %lld reference tokens, %lld output tokens (<eos> "
        "included)\n",
        printable(data_path).c_str(), static_cast<long long>(total.lines), static_cast<long long>(total.aligned_lines),
        static_cast<long long>(total.tokens.positions), static_cast<long long>(total.output_tokens));
    if (beam > 1) std::printf("decoding        beam search of width %d (the best hypothesis)\n", beam);
    std::printf("exact_match     %.4f   (%lld of %lld lines)\n", r.exact_match, static_cast<long long>(total.exact),
                static_cast<long long>(total.lines));
    std::printf("token_accuracy  %.4f   (%lld of %lld reference positions)\n", r.token_accuracy,
                static_cast<long long>(total.tokens.correct), static_cast<long long>(total.tokens.positions));
    std::printf("bleu            %.2f    (corpus BLEU-4, %%)\n", r.bleu);
    std::printf("chrf            %.2f    (corpus chrF, character 1- to 6-grams, beta 2, %%)\n", r.chrf);
    std::printf("mean_entropy    %.4f   nats over %lld attention rows\n", r.mean_entropy,
                static_cast<long long>(total.attention_rows));
    if (r.aer) printAlignmentText(r, line_total, settings);
    if (!explain.methods.empty()) printExplainText(line_total, explain);
    std::printf("time            %.2f s\n", seconds);
}

// --align-mode and --align-specials as the eval's alignment settings; a bad mode is a UsageError (exit code 2).
AlignSettings alignSettings(const std::string& mode, const std::string& specials) {
    AlignSettings s;
    s.align.include_specials = specials == "include";
    if (mode == "all") {
        for (const bool include : {false, true})
            for (const AlignOptions& o : allAlignModes(kDefaultAlignThreshold, include)) s.modes.push_back(o);
        return s;
    }
    try {
        parseAlignMode(mode, s.align);
    } catch (const InputError& e) {
        throw UsageError(std::string("--align-mode: ") + e.what());
    }
    return s;
}

}  // namespace

int runEval(const std::vector<std::string>& args) {
    return runCommand("eval", [&] {
        ArgParser p(
            "eval", "--model MODEL --data FILE [--json]",
            "Greedy-decode (or beam-search, --beam K) every source line of FILE (UTF-8 TSV:\n"
            "source<TAB>target[<TAB>alignment]) and report exact_match and token_accuracy (shares, 0..1), corpus\n"
            "BLEU-4 and chrF (%), mean attention entropy (nats) and, where lines have Pharaoh alignments (i-j sure,\n"
            "i?j possible), the AER, precision and recall of the attention's alignment (forced onto the reference;\n"
            "--align-mode says how links are read off it).");
        std::string model_path, data_path, score, align_mode = "argmax", align_specials = "exclude";
        bool json = false;
        int max_len = 0, beam = 1, threads = 0, max_source_len = kMaxSourceTokens;
        p.option("--model", &model_path, "MODEL", "the model file (.safetensors)").required();
        p.option("--data", &data_path, "FILE", "the evaluation corpus (- for standard input)").required();
        p.flag("--json", &json, "print one JSON object");
        p.option("--max-len", &max_len, "N", "at most N output tokens per line, <eos> included (default 2*S+10)", 1,
                 1000000);
        p.option("--beam", &beam, "K",
                 "score the best hypothesis of a beam search of width K instead of the greedy output (default 1 = "
                 "greedy)",
                 1, kMaxBeamWidth);
        p.choice("--score", &score, scoreChoices(), "evaluate the sibling model trained with this score");
        p.option("--threads", &threads, "N", "worker threads (default: every core)", 1, 256);
        p.option("--max-source-len", &max_source_len, "N",
                 "refuse sources of more than N tokens (default 1000); references may have 2*N+10", 1,
                 kMaxSourceLenLimit);
        p.option("--align-mode", &align_mode, "MODE",
                 "how a target word's links are read off the attention: argmax (default), threshold[:T] (every word "
                 "with weight >= T, default 0.3), shift (the next step's argmax), or all (every mode's AER)");
        p.choice("--align-specials", &align_specials, {"exclude", "include"},
                 "exclude (default): <sos>/<eos> taken out of each row; include: a word attending most to one gets "
                 "no link");
        ExplainRequest explain;
        addExplainOptions(p, explain);
        HeadOptions heads_opt;
        addHeadOptions(p, heads_opt);
        if (!p.parse(args)) return 0;
        checkHeadOptions(p, heads_opt);
        checkExplainUsage(p);
        const AlignSettings align = alignSettings(align_mode, align_specials);

        std::optional<ScoreKind> score_kind;
        if (!score.empty()) score_kind = parseScoreKind(score);
        const LoadedModel loaded = loadModelForCli(model_path, score_kind);
        const Model& model = *loaded.model;
        if (heads_opt.importance) checkHeadImportance(model);    // before the evaluation, not after it
        checkInterventionKinds(model, heads_opt.interventions);  // before the first line: the error names no line
        resolveExplain(p, explain, model.config);

        CorpusOptions co;
        co.require_target = true;
        co.tokenizer = model.config.tokenizer;  // checks alignment indices against the model's own tokenization
        const Corpus corpus = readCorpus(data_path, co);  // "-": standard input, "<stdin>" in messages
        if (corpus.examples.empty()) throw InputError(corpus.name + ": no examples (the file is empty or blank)");

        const auto t0 = std::chrono::steady_clock::now();
        const LineCounts total = evalCorpus(model, corpus, corpus.name, max_len, beam, threads, max_source_len, align,
                                            explain, heads_opt.interventions);
        const EvalReport r = evalReport(total.counts);
        std::optional<std::vector<HeadScore>> heads;
        if (heads_opt.importance) heads = headScores(model, corpus, max_len, beam, threads, max_source_len);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (json)
            printEvalJson(r, total, align, beam, loaded.path, data_path, seconds, explain, heads_opt.interventions,
                          heads ? &*heads : nullptr);
        else
            printEvalText(r, total, align, beam, loaded.path, corpus.name, seconds, explain);
        if (!json) printHeadsText(heads ? &*heads : nullptr, heads_opt.interventions, r.bleu);
        return 0;
    });
}

}  // namespace attnviz::cli
