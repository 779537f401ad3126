#include "eval/corpus_scores.h"

#include "base/errors.h"
#include "decode/parallel.h"
#include "io/decode_json.h"
#include "text/tokenizer.h"

#include <algorithm>
#include <thread>

namespace attnviz {
namespace {

// The bounds `attnviz-cli eval` applies (its --max-source-len): a source of at most `max` tokens, a reference of at
// most 2 max + 10 with <eos>, so that a forced decode's (T, S) rows stay small.
void checkLengths(const TokenizedText& source, const TokenizedText& reference, int max) {
    const size_t words = source.tokens.size() >= 2 ? source.tokens.size() - 2 : 0;  // without <sos> and <eos>
    if (words > size_t(max))
        throw InputError("the source has " + std::to_string(words) + " tokens; at most " + std::to_string(max) +
                         " are decoded");
    const size_t limit = 2 * size_t(max) + 10;
    if (reference.tokens.size() > limit)
        throw InputError("the reference has " + std::to_string(reference.tokens.size()) +
                         " tokens with <eos>; at most " + std::to_string(limit) + " are decoded");
}

void fillScores(LineScores& s, const Model& model, const DecodeResult& greedy) {
    s.output_tokens = greedy.target_tokens;
    s.output = detokenizeTarget(model, greedy.target_tokens);
    s.log_prob = greedy.total_log_prob;
    const size_t T = greedy.target_tokens.size();
    s.log_prob_per_token = T ? greedy.total_log_prob / double(T) : 0.0;
    s.mean_entropy = s.counts.attention_rows ? s.counts.entropy_sum / double(s.counts.attention_rows) : 0.0;
    s.confidence = sentenceConfidence(greedy.attention);
    s.bleu = s.counts.bleu.bleu();
    s.bleu_plus_one = s.counts.bleu.bleuPlusOne();
    s.token_accuracy =
        s.counts.tokens.positions ? double(s.counts.tokens.correct) / double(s.counts.tokens.positions) : 0.0;
    if (s.counts.aligned_lines > 0) s.aer = s.counts.alignment.aer();
    s.scored = true;
}

// Where the gold's words are in a forced decode: a SentencePiece model's pieces merged into words on both sides
// (eval/alignment.h's wordAxes, what `eval --merge both` reads), a word model's tokens as they are.
AlignOptions goldAlignOptions(const Model& model) {
    AlignOptions align;
    align.words = wordAxes(model, readsWords(model, MergeSides::None) ? MergeSides::None : MergeSides::Both);
    return align;
}

// Whether the merged words are the text's whitespace words, which the gold links number: an <unk> piece or a
// >>lang<< code is a word of its own, and such a line gets no AER rather than links read one word off.
bool wordsMatchText(const Model& model, const CorpusExample& ex, const DecodeResult& forced, const AlignOptions& a) {
    const TokenizerConfig& t = model.config.tokenizer;
    try {
        checkWordCounts(forced, a.words, tokenize(ex.source, t.source, t.lowercase).size(),
                        tokenize(ex.target, t.target, t.lowercase).size());
        return true;
    } catch (const InputError&) {
        return false;
    }
}

}  // namespace

LineScores scoreLine(const Model& model, const CorpusExample& example, const DecodeOptions& options,
                     int max_source_tokens) {
    LineScores s;
    s.line = example.line;
    try {
        const TokenizedText source = tokenizeSource(model, example.source);
        const TokenizedText reference = tokenizeTarget(model, example.target);
        checkLengths(source, reference, max_source_tokens);
        const DecodeResult greedy = greedyDecode(model, source, options);
        if (example.has_alignment) {
            const DecodeResult forced = forcedDecode(model, source, reference, options);
            const AlignOptions align = goldAlignOptions(model);
            const bool readable =
                align.words.merge == MergeSides::None || wordsMatchText(model, example, forced, align);
            s.counts =
                evalExample(model, greedy, reference.tokens, &forced, readable ? &example.alignment : nullptr, align);
        } else {
            s.counts = evalExample(model, greedy, reference.tokens);
        }
        fillScores(s, model, greedy);
    } catch (const std::bad_alloc&) {
        throw;
    } catch (const std::exception& e) {
        s = LineScores{};
        s.line = example.line;
        s.error = e.what();
    }
    return s;
}

std::vector<LineScores> scoreCorpus(const Model& model, const std::vector<CorpusExample>& examples,
                                    const CorpusScoreOptions& options, std::atomic<size_t>* done,
                                    const std::atomic<bool>* cancel) {
    std::vector<LineScores> scores(examples.size());
    for (size_t i = 0; i < examples.size(); ++i) scores[i].line = examples[i].line;
    const int threads = threadsFor(examples.size(), options.threads);
    DecodeOptions decode;
    decode.max_len = options.max_len;
    decode.parallel_steps = threads <= 1;  // else every core decodes lines of its own
    forEachInParallel(
        examples.size(), threads,
        [&](size_t i) { scores[i] = scoreLine(model, examples[i], decode, options.max_source_tokens); }, done, cancel);
    return scores;
}

EvalReport evaluateCorpus(const Model& model, const std::vector<CorpusExample>& examples,
                          const CorpusScoreOptions& options, int64_t* unscored) {
    EvalCounts total;
    int64_t missed = 0;
    for (const LineScores& s : scoreCorpus(model, examples, options)) {
        if (s.scored)
            total += s.counts;
        else
            ++missed;
    }
    if (unscored) *unscored = missed;
    return evalReport(total);
}

namespace {

std::string csvRow(const CorpusExample& ex, const LineScores& s) {
    std::vector<std::string> f = {std::to_string(ex.line), csvField(ex.source), csvField(ex.target)};
    if (s.scored) {
        const SentenceConfidence& c = s.confidence;
        for (std::string v : {csvField(s.output), formatFloat(s.log_prob), formatFloat(s.log_prob_per_token),
                              formatFloat(s.mean_entropy), formatFloat(c.confidence), formatFloat(c.coverage_deviation),
                              formatFloat(c.absentminded_out), formatFloat(c.absentminded_in), formatFloat(s.bleu),
                              formatFloat(s.bleu_plus_one), formatFloat(s.token_accuracy),
                              std::string(s.counts.exact ? "1" : "0"), s.aer ? formatFloat(*s.aer) : std::string()})
            f.push_back(std::move(v));
    } else {
        f.resize(f.size() + 13);
    }
    f.push_back(csvField(s.error));
    std::string row;
    for (size_t k = 0; k < f.size(); ++k) row += (k ? "," : "") + f[k];
    return row + "\n";
}

}  // namespace

std::string corpusScoresToCsv(const std::vector<CorpusExample>& examples, const std::vector<LineScores>& scores) {
    std::string csv =
        "line,source,reference,output,log_prob,log_prob_per_token,mean_entropy,confidence,coverage_deviation,"
        "absentminded_out,absentminded_in,bleu,bleu_plus_one,token_accuracy,exact,aer,error\n";
    const size_t n = std::min(examples.size(), scores.size());
    for (size_t i = 0; i < n; ++i) csv += csvRow(examples[i], scores[i]);
    return csv;
}

}  // namespace attnviz
