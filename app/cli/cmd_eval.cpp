// attnviz-cli eval --model MODEL --data FILE [--json]: greedy-decodes every source line of a TSV corpus and reports
// exact match, token accuracy, corpus BLEU-4, chrF, mean attention entropy and, where the data has alignments, AER
// (docs/cli.md; the maths in core/eval/metrics.h and, for the alignment modes, core/eval/alignment.h).
#include "command_run.h"
#include "commands.h"
#include "decode_request.h"
#include "eval_report.h"
#include "input_bounds.h"
#include "model_flags.h"

#include "base/errors.h"
#include "base/utf8.h"
#include "decode/decoding.h"
#include "decode/parallel.h"
#include "eval/compare_heads.h"
#include "io/model_file.h"
#include "text/tokenizer.h"

#include <algorithm>
#include <chrono>
#include <optional>

namespace attnviz::cli {
namespace {

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
    const bool aligned = ex.has_alignment && readsWords(model, settings.align.words.merge);
    if (!aligned && explain.methods.empty()) return {evalExample(model, output, ref.tokens), {}, {}};
    const DecodeResult forced = forcedDecode(model, src, ref, options);
    const GoldAlignment* gold = aligned ? &ex.alignment : nullptr;
    if (gold) checkWordCounts(forced, settings.align.words, ex.source_tokens.size(), ex.target_tokens.size());
    const DecodeResult read = withComparedAttention(forced, settings.head);  // --head: that head's rows
    LineCounts line{evalExample(model, output, ref.tokens, gold ? &read : nullptr, gold, settings.align), {}, {}};
    for (const AlignOptions& mode : settings.modes)
        if (gold) line.modes.push_back(aerCounts(extractAlignment(read, mode), *gold));
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
                      double length_penalty, int threads, int max_source_len, const AlignSettings& settings,
                      const ExplainRequest& explain, const Interventions& iv) {
    DecodeOptions options;
    options.max_len = max_len;
    options.length_penalty = length_penalty;
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
std::vector<HeadScore> headScores(const Model& model, const Corpus& corpus, int max_len, int beam,
                                  double length_penalty, int threads, int max_source_len) {
    HeadImportanceOptions o;
    o.max_len = max_len;
    o.beam = beam;
    o.length_penalty = length_penalty;
    o.threads = threads;
    o.max_source_tokens = max_source_len;
    TerminalProgress progress("eval", "head importance jobs");
    if (progress.active())
        o.progress = [&progress](size_t done, size_t all) {
            if (done % 64 == 0 || done == all) progress.show(done, all);
        };
    return headImportance(model, corpus.examples, o);
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

// How the alignment is read: --align-mode, --align-specials, --merge, --head.
struct AlignArgs {
    std::string mode = "argmax", specials = "exclude", head;
    MergeSides merge = MergeSides::None;
};

void addAlignOptions(ArgParser& p, AlignArgs& a) {
    p.option("--align-mode", &a.mode, "MODE",
             "how a target word's links are read off the attention: argmax (default), threshold[:T] (every word "
             "with weight >= T, default 0.3), shift (the next step's argmax), or all (every mode's AER)");
    p.choice("--align-specials", &a.specials, {"exclude", "include"},
             "exclude (default): <sos>/<eos> taken out of each row; include: a word attending most to one gets "
             "no link");
    addMergeOption(p, a.merge);
    p.option("--head", &a.head, "L,H",
             "Transformer: read the links off decoder layer L's cross-attention head H (from 1; L,mean: the mean of "
             "the layer's heads) instead of the decode's attention");
}

// The eval's alignment settings for `model`; a bad mode or --head is a UsageError (exit code 2), a layer or head the
// model lacks an InputError.
AlignSettings alignSettings(const AlignArgs& a, const Model& model, const std::string& path) {
    AlignSettings s;
    s.align.include_specials = a.specials == "include";
    s.align.words = wordAxes(model, a.merge);
    if (!a.head.empty()) {
        s.head = headChoiceOption("--head", a.head);
        checkHeadChoice("--head", s.head, model, "--model", path);
    }
    if (a.mode == "all") {
        for (const bool include : {false, true})
            for (AlignOptions o : allAlignModes(kDefaultAlignThreshold, include)) {
                o.words = s.align.words;
                s.modes.push_back(o);
            }
        return s;
    }
    try {
        parseAlignMode(a.mode, s.align);
    } catch (const InputError& e) {
        throw UsageError(std::string("--align-mode: ") + e.what());
    }
    return s;
}

// Gold links name words: a SentencePiece model's pieces give no AER unless merged into words on both sides.
void warnIfPieces(const Model& model, const AlignSettings& s, const Corpus& corpus, const std::string& path) {
    if (corpus.alignedCount() == 0 || readsWords(model, s.align.words.merge)) return;
    warn("eval", corpus.name + " has gold word links, but " + path +
                     " reads SentencePiece pieces: AER needs word positions (--merge both), so none is counted");
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
        std::string model_path, data_path, score;
        bool json = false;
        int max_len = 0, beam = 1, threads = 0, max_source_len = kMaxSourceTokens;
        double length_penalty = 0;
        p.option("--model", &model_path, "MODEL", "the model file (.safetensors)").required();
        p.option("--data", &data_path, "FILE", "the evaluation corpus (- for standard input)").required();
        p.flag("--json", &json, "print one JSON object");
        p.option("--max-len", &max_len, "N", "at most N output tokens per line, <eos> included (default 2*S+10)", 1,
                 1000000);
        p.option("--beam", &beam, "K",
                 "score the best hypothesis of a beam search of width K instead of the greedy output (default 1 = "
                 "greedy)",
                 1, kMaxBeamWidth);
        addLengthPenaltyOption(p, length_penalty);
        p.choice("--score", &score, scoreChoices(), "evaluate the sibling model trained with this score");
        p.option("--threads", &threads, "N", "worker threads (default: every core)", 1, 256);
        p.option("--max-source-len", &max_source_len, "N",
                 "refuse sources of more than N tokens (default 1000); references may have 2*N+10", 1,
                 kMaxSourceLenLimit);
        AlignArgs align_args;
        addAlignOptions(p, align_args);
        ExplainRequest explain;
        addExplainOptions(p, explain);
        HeadOptions heads_opt;
        addHeadOptions(p, heads_opt);
        if (!p.parse(args)) return 0;
        checkHeadOptions(p, heads_opt);
        checkExplainUsage(p);
        checkLengthPenaltyUsage(p);

        std::optional<ScoreKind> score_kind;
        if (!score.empty()) score_kind = parseScoreKind(score);
        const LoadedModel loaded = loadModelForCli(model_path, score_kind);
        const Model& model = *loaded.model;
        if (heads_opt.importance) checkHeadImportance(model);    // before the evaluation, not after it
        checkInterventionKinds(model, heads_opt.interventions);  // before the first line: the error names no line
        resolveExplain(p, explain, model.config);
        const AlignSettings align = alignSettings(align_args, model, loaded.path);

        CorpusOptions co;
        co.require_target = true;
        co.tokenizer = model.config.tokenizer;  // checks alignment indices against the model's own tokenization
        const Corpus corpus = readCorpus(data_path, co);  // "-": standard input, "<stdin>" in messages
        if (corpus.examples.empty()) throw InputError(corpus.name + ": no examples (the file is empty or blank)");
        warnIfPieces(model, align, corpus, loaded.path);

        const auto t0 = std::chrono::steady_clock::now();
        const LineCounts total = evalCorpus(model, corpus, corpus.name, max_len, beam, length_penalty, threads,
                                            max_source_len, align, explain, heads_opt.interventions);
        const EvalReport r = evalReport(total.counts);
        std::optional<std::vector<HeadScore>> heads;
        if (heads_opt.importance)
            heads = headScores(model, corpus, max_len, beam, length_penalty, threads, max_source_len);
        const EvalRun run{loaded.path,
                          data_path,
                          corpus.name,
                          beam,
                          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(),
                          length_penalty};
        if (json)
            printEvalJson(r, total, align, run, explain, heads_opt.interventions, heads ? &*heads : nullptr);
        else
            printEvalText(r, total, align, run, explain);
        if (!json) printHeadsText(heads ? &*heads : nullptr, heads_opt.interventions, r.bleu);
        return 0;
    });
}

}  // namespace attnviz::cli
