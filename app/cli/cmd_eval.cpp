// attnviz-cli eval --model MODEL --data FILE [--json]: greedy-decodes every source line of a TSV corpus and reports
// exact match, token accuracy, corpus BLEU-4, mean attention entropy and, where the data has alignments, AER
// (docs/cli.md; the maths in core/eval/metrics.h).
#include "cli_common.h"
#include "commands.h"

#include "base/errors.h"
#include "decode/decoding.h"
#include "eval/metrics.h"
#include "io/model_file.h"
#include "text/tokenizer.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>

#include <unistd.h>

namespace attnviz::cli {
namespace {

EvalCounts evalLine(const Model& model, const CorpusExample& ex, const DecodeOptions& options, int max_source_len) {
    const TokenizedText src = tokenizeSource(model, ex.source);
    checkSourceLength(src, max_source_len, "source");
    const TokenizedText ref = tokenizeTarget(model, ex.target);
    checkReferenceLength(ref, max_source_len, "reference");
    const DecodeResult greedy = greedyDecode(model, src, options);
    if (!ex.has_alignment) return evalExample(greedy, ref.tokens);
    const DecodeResult forced = forcedDecode(model, src, ref, options);
    return evalExample(greedy, ref.tokens, &forced, &ex.alignment);
}

// Every line's counts, decoded in blocks on every core; between blocks, progress on stderr when it is a terminal.
EvalCounts evalCorpus(const Model& model, const Corpus& corpus, const std::string& data_path, int max_len, int threads,
                      int max_source_len) {
    DecodeOptions options;
    options.max_len = max_len;
    options.parallel_steps = threadCount(threads) <= 1;  // else every core decodes lines of its own
    const size_t n = corpus.examples.size();
    const bool progress = isatty(STDERR_FILENO) != 0 && n > 256;
    constexpr size_t kBlock = 256;
    std::vector<EvalCounts> per_line(n);
    for (size_t begin = 0; begin < n; begin += kBlock) {
        parallelFor(begin, std::min(n, begin + kBlock), threadCount(threads), [&](size_t i) {
            const CorpusExample& ex = corpus.examples[i];
            try {
                per_line[i] = evalLine(model, ex, options, max_source_len);
            } catch (const std::exception& e) {
                throw InputError(atLine(data_path, ex.line, e));
            }
        });
        if (progress) std::fprintf(stderr, "\rattnviz-cli eval: %zu / %zu lines", std::min(n, begin + kBlock), n);
    }
    if (progress) std::fprintf(stderr, "\r\033[K");
    EvalCounts total;
    for (const EvalCounts& c : per_line) total += c;
    return total;
}

void printEvalJson(const EvalReport& r, const EvalCounts& total, const std::string& model_path,
                   const std::string& data_path, double seconds) {
    nlohmann::ordered_json j;
    j["exact_match"] = r.exact_match;
    j["token_accuracy"] = r.token_accuracy;
    j["bleu"] = r.bleu;
    j["mean_entropy"] = r.mean_entropy;
    if (r.aer) j["aer"] = *r.aer;
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
    std::printf("%s\n", j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
}

void printEvalText(const EvalReport& r, const EvalCounts& total, const std::string& model_path,
                   const std::string& data_path, double seconds) {
    std::printf("model           %s\n", model_path.c_str());
    std::printf(
        "data            %s: %lld lines (%lld with alignments), %lld reference tokens, %lld output tokens (<eos> "
        "included)\n",
        data_path.c_str(), static_cast<long long>(total.lines), static_cast<long long>(total.aligned_lines),
        static_cast<long long>(total.tokens.positions), static_cast<long long>(total.output_tokens));
    std::printf("exact_match     %.4f   (%lld of %lld lines)\n", r.exact_match, static_cast<long long>(total.exact),
                static_cast<long long>(total.lines));
    std::printf("token_accuracy  %.4f   (%lld of %lld reference positions)\n", r.token_accuracy,
                static_cast<long long>(total.tokens.correct), static_cast<long long>(total.tokens.positions));
    std::printf("bleu            %.2f    (corpus BLEU-4, %%)\n", r.bleu);
    std::printf("mean_entropy    %.4f   nats over %lld attention rows\n", r.mean_entropy,
                static_cast<long long>(total.attention_rows));
    if (r.aer)
        std::printf("aer             %.4f   (%lld predicted links, %lld gold, %lld in both)\n", *r.aer,
                    static_cast<long long>(total.alignment.predicted), static_cast<long long>(total.alignment.gold),
                    static_cast<long long>(total.alignment.overlap));
    std::printf("time            %.2f s\n", seconds);
}

}  // namespace

int runEval(const std::vector<std::string>& args) {
    return runCommand("eval", [&] {
        ArgParser p(
            "eval", "--model MODEL --data FILE [--json]",
            "Greedy-decode every source line of FILE (UTF-8 TSV: source<TAB>target[<TAB>alignment]) and report\n"
            "exact_match and token_accuracy (shares, 0..1), corpus BLEU-4 (%), mean attention entropy (nats) and,\n"
            "where lines have Pharaoh alignments, the AER of the attention (forced onto the reference).");
        std::string model_path, data_path, score;
        bool json = false;
        int max_len = 0, threads = 0, max_source_len = kMaxSourceTokens;
        p.option("--model", &model_path, "MODEL", "the model file (.safetensors)").required();
        p.option("--data", &data_path, "FILE", "the evaluation corpus (- for standard input)").required();
        p.flag("--json", &json, "print one JSON object");
        p.option("--max-len", &max_len, "N", "at most N output tokens per line, <eos> included (default 2*S+10)", 1,
                 1000000);
        p.choice("--score", &score, scoreChoices(), "evaluate the sibling model trained with this score");
        p.option("--threads", &threads, "N", "worker threads (default: every core)", 1, 256);
        p.option("--max-source-len", &max_source_len, "N",
                 "refuse sources of more than N tokens (default 1000); references may have 2*N+10", 1,
                 kMaxSourceLenLimit);
        if (!p.parse(args)) return 0;

        std::optional<ScoreKind> score_kind;
        if (!score.empty()) score_kind = parseScoreKind(score);
        const LoadedModel loaded = loadModelForCli(model_path, score_kind);
        const Model& model = *loaded.model;

        CorpusOptions co;
        co.require_target = true;
        co.tokenizer = model.config.tokenizer;  // checks alignment indices against the model's own tokenization
        const Corpus corpus = readCorpus(data_path, co);  // "-": standard input, "<stdin>" in messages
        if (corpus.examples.empty()) throw InputError(corpus.name + ": no examples (the file is empty or blank)");

        const auto t0 = std::chrono::steady_clock::now();
        const EvalCounts total = evalCorpus(model, corpus, corpus.name, max_len, threads, max_source_len);
        const EvalReport r = evalReport(total);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (json)
            printEvalJson(r, total, loaded.path, data_path, seconds);
        else
            printEvalText(r, total, loaded.path, corpus.name, seconds);
        return 0;
    });
}

}  // namespace attnviz::cli
