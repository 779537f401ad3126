// attnviz-cli compare --model A --with B (SENTENCE | --data FILE) [--json]: how differently two models with the same
// vocabularies attend on the same sentences (docs/cli.md; the maths in core/eval/compare.h). A decodes each source
// greedily, or is forced onto the line's reference; B is forced onto A's target, so both have a row per target token.
#include "args.h"
#include "command_run.h"
#include "commands.h"
#include "input_bounds.h"
#include "model_flags.h"

#include "base/errors.h"
#include "base/utf8.h"
#include "decode/decoding.h"
#include "decode/limits.h"
#include "decode/parallel.h"
#include "eval/compare.h"
#include "eval/compare_heads.h"
#include "eval/compare_json.h"
#include "io/json_text.h"
#include "io/model_file.h"
#include "text/tokenizer.h"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace attnviz::cli {
namespace {

struct CompareSettings {
    int max_len = 0;
    int max_source_len = kMaxSourceTokens;
    bool parallel_steps = true;
    AttentionView head_a, head_b;  // which cross-attention each side compares (default: the spec's `attention`)
};

// One compared sentence: both decodes and their counts.
struct ComparedLine {
    int line = 0;  // in --data; 0 for SENTENCE
    bool forced = false;
    DecodeResult a, b;
    AttentionComparisonCounts counts;
};

// The two models must tokenize a sentence alike and number its tokens alike, or their rows would not line up.
void checkComparable(const Model& a, const std::string& a_path, const Model& b, const std::string& b_path) {
    const std::string what = comparabilityProblem(a, b);
    if (!what.empty())
        throw ModelError(a_path + " and " + b_path + " cannot be compared: " + what +
                         "; compare needs two models with the same vocabularies and tokenizers (siblings)");
}

ComparedLine compareLine(const Model& a, const Model& b, const CorpusExample& ex, const CompareSettings& s) {
    ComparedLine out;
    out.line = ex.line;
    DecodeOptions o;
    o.max_len = s.max_len;
    o.parallel_steps = s.parallel_steps;
    const TokenizedText src = tokenizeSource(a, ex.source);  // the same for b (checkComparable)
    checkSourceLength(src, s.max_source_len, "source");
    if (ex.line == 0) warnIfEmptySentence(src, "compare");  // SENTENCE (a --data line has a number)
    if (ex.has_target) {
        const TokenizedText ref = tokenizeTarget(a, ex.target);
        checkReferenceLength(ref, s.max_source_len, "reference");
        out.a = forcedDecode(a, src, ref, o);
        out.forced = true;
    } else {
        checkDecodeSize(a, src, 1, s.max_len, "source");
        out.a = greedyDecode(a, src, o);
    }
    const TokenizedText target{out.a.target_tokens, out.a.target_ids};
    out.b = forcedDecode(b, src, target, o);
    out.counts = compareAttention(withComparedAttention(out.a, s.head_a), withComparedAttention(out.b, s.head_b),
                                  ex.has_alignment ? &ex.alignment : nullptr);
    return out;
}

std::vector<ComparedLine> compareCorpus(const Model& a, const Model& b, const Corpus& corpus, const std::string& where,
                                        int threads, CompareSettings s) {
    s.parallel_steps = threadCount(threads) <= 1;
    std::vector<ComparedLine> out(corpus.examples.size());
    parallelFor(0, out.size(), threadCount(threads), [&](size_t i) {
        const CorpusExample& ex = corpus.examples[i];
        try {
            out[i] = compareLine(a, b, ex, s);
        } catch (const std::exception& e) {
            throw InputError(ex.line > 0 ? atLine(where, ex.line, e) : where + ": " + e.what());
        }
    });
    return out;
}

void printCompareJson(const std::vector<ComparedLine>& lines, const std::string& a_path, const std::string& b_path,
                      const std::string& data_path, const CompareSettings& settings) {
    nlohmann::ordered_json j;
    j["model"] = a_path;
    j["with"] = b_path;
    j["data"] = data_path.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(data_path);
    j["log_base"] = "e";
    AttentionComparisonCounts total;
    nlohmann::ordered_json sentences = nlohmann::ordered_json::array();
    for (const ComparedLine& l : lines) {
        nlohmann::ordered_json s;
        if (l.line > 0) s["line"] = l.line;
        s["source_tokens"] = l.a.source_tokens;
        s["target_tokens"] = l.a.target_tokens;
        s["forced"] = l.forced;
        s.update(comparisonSummaryJson(l.counts));
        sentences.push_back(std::move(s));
        total += l.counts;
    }
    j["sentences"] = std::move(sentences);
    nlohmann::ordered_json avg;
    avg["lines"] = total.lines;
    avg["aligned_lines"] = total.aligned_lines;
    avg.update(comparisonSummaryJson(total));
    j["average"] = std::move(avg);
    if (!settings.head_a.isDefault() || !settings.head_b.isDefault()) {  // without --head-a/-b the keys as before
        j["head_a"] = headChoiceJson(settings.head_a);
        j["head_b"] = headChoiceJson(settings.head_b);
    }
    std::printf("%s\n", jsonText(j).c_str());
}

std::string summaryColumns(const AttentionComparisonCounts& c) {
    const AttentionComparison s = comparisonSummary(c);
    char buf[160];
    std::snprintf(buf, sizeof buf, "%5lld  %.4f  %.4f  %6.1f %%  %.4f  %.4f", static_cast<long long>(s.rows), s.mean_tv,
                  s.mean_js, 100.0 * s.argmax_agreement, s.mean_entropy_a, s.mean_entropy_b);
    std::string out = buf;
    if (s.aer_a) {
        std::snprintf(buf, sizeof buf, "  %.4f  %.4f", *s.aer_a, *s.aer_b);
        out += buf;
    }
    return out;
}

// " (cross-attention of layer 2, head 3)" for a chosen head, "" for the spec's attention.
std::string headNote(const AttentionView& view) {
    return view.isDefault() ? std::string() : " (cross-attention of " + headChoiceText(view) + ")";
}

void printCompareText(const std::vector<ComparedLine>& lines, const Model& a, const std::string& a_path,
                      const std::string& b_path, const CompareSettings& settings) {
    std::printf("A %s%s\nB %s%s (forced onto A's output, or onto the reference where a line has one)\n",
                printable(a_path).c_str(), headNote(settings.head_a).c_str(), printable(b_path).c_str(),
                headNote(settings.head_b).c_str());
    std::printf("TV = total variation (0..1), JS = Jensen-Shannon divergence (nats, 0..ln 2), H = entropy (nats)\n");
    bool aligned = false;
    for (const ComparedLine& l : lines) aligned = aligned || l.counts.aligned_lines > 0;
    std::printf("%-5s  %5s  %-6s  %-6s  %8s  %-6s  %-6s%s  output\n", "line", "rows", "TV", "JS", "argmax", "H(A)",
                "H(B)", aligned ? "  AER(A)  AER(B)" : "");
    AttentionComparisonCounts total;
    for (const ComparedLine& l : lines) {
        std::printf("%-5s  %s%s  %s\n", l.line > 0 ? std::to_string(l.line).c_str() : "-",
                    summaryColumns(l.counts).c_str(), aligned && l.counts.aligned_lines == 0 ? "  -       -     " : "",
                    printable(detokenize(l.a.target_tokens, a.config.tokenizer.target)).c_str());
        total += l.counts;
    }
    std::printf("all    %s   (means over %lld rows of %lld lines)\n", summaryColumns(total).c_str(),
                static_cast<long long>(total.rows), static_cast<long long>(total.lines));
}

}  // namespace

int runCompare(const std::vector<std::string>& args) {
    return runCommand("compare", [&] {
        ArgParser p(
            "compare", "--model A --with B (SENTENCE | --data FILE) [--json]",
            "Compare the attention of two models with the same vocabularies (e.g. siblings). A decodes each source\n"
            "greedily, or is forced onto the reference where the line has one; B is forced onto the same target.\n"
            "Per sentence and on average over all rows: the total-variation distance (0..1) and the Jensen-Shannon\n"
            "divergence (natural log, nats, 0..ln 2) between the two attention rows, the share of rows whose argmax\n"
            "agrees, each model's row entropy (nats) and, where lines have gold alignments, each model's AER.\n"
            "Specials are columns like any other: <sos> and <eos> count in every row.");
        std::string a_path, b_path, data_path, target, head_a, head_b;
        bool json = false;
        int threads = 0;
        CompareSettings s;
        std::vector<std::string> words;
        p.option("--model", &a_path, "A", "the model that decodes (.safetensors)").required();
        p.option("--with", &b_path, "B", "the model forced onto A's target").required();
        p.option("--data", &data_path, "FILE", "compare on every line: source[<TAB>reference[<TAB>alignment]]");
        p.option("--target", &target, "TEXT", "with SENTENCE: force both models onto this reference");
        p.flag("--json", &json, "print one JSON object");
        p.option("--head-a", &head_a, "L,H",
                 "a Transformer A: compare the cross-attention of decoder layer L, head H (from 1; H \"mean\": the\n"
                 "mean over the layer's heads) instead of the spec's attention (the last layer's mean over heads)");
        p.option("--head-b", &head_b, "L,H", "the same for B");
        p.option("--max-len", &s.max_len, "N", "at most N tokens in A's greedy outputs, <eos> included", 1, 1000000);
        p.option("--threads", &threads, "N", "worker threads for --data (default: every core)", 1, 256);
        p.option("--max-source-len", &s.max_source_len, "N", "refuse sources of more than N tokens (default 1000)", 1,
                 kMaxSourceLenLimit);
        p.positionals(&words, "SENTENCE", "the source sentence (several arguments are joined with spaces)");
        if (!p.parse(args)) return 0;
        if (p.seen("--data") && !words.empty()) throw UsageError("give either SENTENCE or --data FILE, not both");
        if (!p.seen("--data") && words.empty()) throw UsageError("missing SENTENCE (or --data FILE)");
        if (p.seen("--data") && p.seen("--target"))
            throw UsageError("--target cannot be used with --data (put the reference after a tab on each line)");

        if (p.seen("--head-a")) s.head_a = headChoiceOption("--head-a", head_a);
        if (p.seen("--head-b")) s.head_b = headChoiceOption("--head-b", head_b);

        const LoadedModel a = loadModelForCli(a_path);
        const LoadedModel b = loadModelForCli(b_path);
        checkComparable(*a.model, a_path, *b.model, b_path);
        checkHeadChoice("--head-a", s.head_a, *a.model, "A", a_path);
        checkHeadChoice("--head-b", s.head_b, *b.model, "B", b_path);

        Corpus corpus;
        std::string where = "SENTENCE";
        if (p.seen("--data")) {
            CorpusOptions co;
            co.require_target = false;
            co.tokenizer = a.model->config.tokenizer;  // checks alignment indices against the models' tokenization
            corpus = readCorpus(data_path, co);
            if (corpus.examples.empty()) throw InputError(data_path + ": no lines to compare (the file is empty)");
            where = data_path;
        } else {
            CorpusExample ex;
            for (const std::string& w : words) ex.source += (ex.source.empty() ? "" : " ") + w;
            ex.has_target = p.seen("--target");
            ex.target = target;
            corpus.examples.push_back(std::move(ex));
        }
        const std::vector<ComparedLine> lines = compareCorpus(*a.model, *b.model, corpus, where, threads, s);
        if (json)
            printCompareJson(lines, a_path, b_path, data_path, s);
        else
            printCompareText(lines, *a.model, a_path, b_path, s);
        return 0;
    });
}

}  // namespace attnviz::cli
