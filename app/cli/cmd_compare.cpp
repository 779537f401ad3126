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

#include <algorithm>
#include <cstdio>
#include <memory>

namespace attnviz::cli {
namespace {

struct CompareSettings {
    int max_len = 0;
    int max_source_len = kMaxSourceTokens;
    bool parallel_steps = true;
    AttentionView head_a, head_b;  // which cross-attention each side compares (default: the decode's `attention`)
};

// What is kept of a compared sentence once its decodes are gone: A's tokens and the counts.
struct ComparedLine {
    int line = 0;  // in --data; 0 for SENTENCE
    bool forced = false;
    std::vector<std::string> source_tokens, target_tokens;
    AttentionComparisonCounts counts;
};

// The two models must tokenize a sentence alike and number its tokens alike, or their rows would not line up.
void checkComparable(const Model& a, const std::string& a_path, const Model& b, const std::string& b_path) {
    const std::string what = comparabilityProblem(a, b);
    if (!what.empty())
        throw ModelError(a_path + " and " + b_path + " cannot be compared: " + what +
                         "; compare needs two models with the same vocabularies and tokenizers (siblings)");
}

// A line's source and reference (empty without one), tokenized by A (the same for B: checkComparable) and checked
// against the bounds, so that every line of a file is checked before the first is compared and printed.
struct LineTokens {
    TokenizedText source, reference;
};
LineTokens lineTokens(const Model& a, const CorpusExample& ex, const CompareSettings& s) {
    LineTokens t{tokenizeSource(a, ex.source), {}};
    checkSourceLength(t.source, s.max_source_len, "source");
    if (ex.has_target) {
        t.reference = tokenizeTarget(a, ex.target);
        checkReferenceLength(t.reference, s.max_source_len, "reference");
    } else {
        checkDecodeSize(a, t.source, 1, s.max_len, "source");
    }
    return t;
}

ComparedLine compareLine(const Model& a, const Model& b, const CorpusExample& ex, const CompareSettings& s) {
    const LineTokens t = lineTokens(a, ex, s);
    if (ex.line == 0) warnIfEmptySentence(t.source, "compare");  // SENTENCE (a --data line has a number)
    DecodeOptions o;
    o.max_len = s.max_len;
    o.parallel_steps = s.parallel_steps;
    const DecodeResult da = ex.has_target ? forcedDecode(a, t.source, t.reference, o) : greedyDecode(a, t.source, o);
    const DecodeResult db = forcedDecode(b, t.source, TokenizedText{da.target_tokens, da.target_ids}, o);
    return {ex.line, ex.has_target, da.source_tokens, da.target_tokens,
            compareAttention(withComparedAttention(da, s.head_a), withComparedAttention(db, s.head_b),
                             ex.has_alignment ? &ex.alignment : nullptr)};
}

// Where the compared lines go, in order: the text table or the JSON object, written as the lines come.
class CompareOutput {
public:
    virtual ~CompareOutput() = default;
    virtual void line(const ComparedLine& l) = 0;
    virtual void end(const AttentionComparisonCounts& total) = 0;
};

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

// " (cross-attention of layer 2, head 3)" for a chosen head, "" for the decode's `attention`.
std::string headNote(const AttentionView& view) {
    return view.isDefault() ? std::string() : " (cross-attention of " + headChoiceText(view) + ")";
}

// The header (with AER columns when any line has gold links), a row per line, then the means.
class TextOutput : public CompareOutput {
public:
    TextOutput(const Model& a, const std::string& a_path, const std::string& b_path, const CompareSettings& settings,
               bool aligned)
        : a_(a), aligned_(aligned) {
        std::printf("A %s%s\nB %s%s (forced onto A's output, or onto the reference where a line has one)\n",
                    printable(a_path).c_str(), headNote(settings.head_a).c_str(), printable(b_path).c_str(),
                    headNote(settings.head_b).c_str());
        std::printf(
            "TV = total variation (0..1), JS = Jensen-Shannon divergence (nats, 0..ln 2), H = entropy (nats)\n");
        std::printf("%-5s  %5s  %-6s  %-6s  %8s  %-6s  %-6s%s  output\n", "line", "rows", "TV", "JS", "argmax", "H(A)",
                    "H(B)", aligned ? "  AER(A)  AER(B)" : "");
    }
    void line(const ComparedLine& l) override {
        std::printf("%-5s  %s%s  %s\n", l.line > 0 ? std::to_string(l.line).c_str() : "-",
                    summaryColumns(l.counts).c_str(), aligned_ && l.counts.aligned_lines == 0 ? "  -       -     " : "",
                    printable(detokenizeTarget(a_, l.target_tokens)).c_str());
    }
    void end(const AttentionComparisonCounts& total) override {
        std::printf("all    %s   (means over %lld rows of %lld lines)\n", summaryColumns(total).c_str(),
                    static_cast<long long>(total.rows), static_cast<long long>(total.lines));
    }

private:
    const Model& a_;
    bool aligned_;
};

// One JSON object, written piece by piece: a file of 100,000 lines is never held as a tree.
class JsonOutput : public CompareOutput {
public:
    JsonOutput(const std::string& a_path, const std::string& b_path, const std::string& data_path,
               const CompareSettings& settings)
        : w_(writeToStdout), settings_(settings) {
        w_.beginObject();
        w_.key("model").string(a_path);
        w_.key("with").string(b_path);
        w_.key("data").value(data_path.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(data_path));
        w_.key("log_base").string("e");
        w_.key("sentences").beginArray();
    }
    void line(const ComparedLine& l) override {
        w_.beginObject();
        if (l.line > 0) w_.key("line").integer(l.line);
        w_.key("source_tokens").strings(l.source_tokens);
        w_.key("target_tokens").strings(l.target_tokens);
        w_.key("forced").value(l.forced);
        summary(l.counts);
        w_.endObject();
    }
    void end(const AttentionComparisonCounts& total) override {
        w_.endArray();
        w_.key("average").beginObject();
        w_.key("lines").integer(total.lines);
        w_.key("aligned_lines").integer(total.aligned_lines);
        summary(total);
        w_.endObject();
        if (!settings_.head_a.isDefault() || !settings_.head_b.isDefault()) {  // without --head-a/-b: as before
            w_.key("head_a").value(headChoiceJson(settings_.head_a));
            w_.key("head_b").value(headChoiceJson(settings_.head_b));
        }
        w_.endObject().flush();
        writeToStdout("\n");
    }

private:
    void summary(const AttentionComparisonCounts& c) {
        const nlohmann::ordered_json s = comparisonSummaryJson(c);  // items() refers to it: not a temporary
        for (const auto& [key, value] : s.items()) w_.key(key).value(value);
    }
    JsonWriter w_;
    const CompareSettings& settings_;
};

// An error of a line as the run reports it: "FILE:LINE: what", or "SENTENCE: what".
InputError lineError(const CorpusExample& ex, const std::string& where, const std::exception& e) {
    return InputError(ex.line > 0 ? atLine(where, ex.line, e) : where + ": " + e.what());
}

// Every line tokenized and checked (lineTokens) before the first is compared, so that a bad line stops the run
// before anything is printed: the output is then whole or absent.
void checkLines(const Model& a, const Corpus& corpus, const std::string& where, const CompareSettings& s) {
    for (const CorpusExample& ex : corpus.examples) {
        try {
            lineTokens(a, ex, s);
        } catch (const std::exception& e) {
            throw lineError(ex, where, e);
        }
    }
}

// Every line compared and handed to `output` in order, in blocks decoded on every thread, so that memory holds one
// block's decodes (not every line's: 2.2 GB for 100,000 lines) and the output flows; progress on stderr when it is a
// terminal.
void compareCorpus(const Model& a, const Model& b, const Corpus& corpus, const std::string& where, int threads,
                   CompareSettings s, CompareOutput& output) {
    s.parallel_steps = threadCount(threads) <= 1;
    constexpr size_t kBlock = 512;
    const size_t n = corpus.examples.size();
    TerminalProgress progress("compare", "lines");
    AttentionComparisonCounts total;
    std::vector<ComparedLine> block;
    for (size_t begin = 0; begin < n; begin += kBlock) {
        const size_t end = std::min(n, begin + kBlock);
        block.assign(end - begin, {});
        parallelFor(begin, end, threadCount(threads), [&](size_t i) {
            try {
                block[i - begin] = compareLine(a, b, corpus.examples[i], s);
            } catch (const std::exception& e) {
                throw lineError(corpus.examples[i], where, e);
            }
        });
        for (const ComparedLine& l : block) {
            output.line(l);
            total += l.counts;
        }
        flushStdout();  // a full disk or a gone reader stops the run here
        if (n > kBlock) progress.show(end, n);
    }
    output.end(total);
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
        checkLines(*a.model, corpus, where, s);
        bool aligned = false;  // the text's AER columns
        for (const CorpusExample& ex : corpus.examples) aligned = aligned || ex.has_alignment;
        std::unique_ptr<CompareOutput> output;
        if (json)
            output = std::make_unique<JsonOutput>(a_path, b_path, data_path, s);
        else
            output = std::make_unique<TextOutput>(*a.model, a_path, b_path, s, aligned);
        compareCorpus(*a.model, *b.model, corpus, where, threads, s, *output);
        return 0;
    });
}

}  // namespace attnviz::cli
