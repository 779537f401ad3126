#include "text/sentencepiece_training.h"

#include "base/errors.h"
#include "base/number_text.h"
#include "base/utf8.h"

#include <sentencepiece_trainer.h>
#include <unicode/uchar.h>

#include <algorithm>
#include <mutex>
#include <numeric>
#include <random>
#include <unordered_map>
#include <unordered_set>

namespace attnviz {

namespace {

// The library skips a line holding its unknown-character mark U+2047 "⁇".
constexpr std::string_view kUnknownMark = "\xE2\x81\x87";

// Whether a line gives the trainer anything: a letter, digit, punctuation or symbol (NFKC keeps each of them
// non-empty, so the normalized line is not empty: the library aborts the process when every line is).
bool hasContent(std::string_view line) {
    for (size_t i = 0; i < line.size();) {
        const Utf8Char ch = decodeUtf8(line, i);
        i += ch.length;
        const int32_t mask = U_GET_GC_MASK(static_cast<UChar32>(ch.cp));
        if (mask & (U_GC_L_MASK | U_GC_N_MASK | U_GC_P_MASK | U_GC_S_MASK)) return true;
    }
    return false;
}

// The lines the library will train on, each checked.
std::vector<const std::string*> usableLines(const std::vector<std::string>& lines) {
    std::vector<const std::string*> usable;
    for (size_t i = 0; i < lines.size(); ++i) {
        const std::string& line = lines[i];
        const std::string where = "line " + std::to_string(i + 1) + ": ";
        const size_t bad = firstInvalidUtf8(line);
        if (bad != std::string_view::npos)
            throw InputError(where + "invalid UTF-8 at byte " + std::to_string(bad + 1) + " (" +
                             decodeUtf8(line, bad).error + ")");
        if (line.find('\0') != std::string::npos) throw InputError(where + "contains a NUL byte");
        if (line.size() > kMaxSentencePieceLineBytes || line.find(kUnknownMark) != std::string::npos) continue;
        if (hasContent(line)) usable.push_back(&line);
    }
    if (usable.empty())
        throw InputError("the corpus has no line with a letter, digit, punctuation or symbol to learn pieces from");
    return usable;
}

// A uniform draw from [0, n) that is the same on every platform (std::uniform_int_distribution is not).
uint64_t drawBelow(std::mt19937_64& rng, uint64_t n) {
    const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t x;
    do x = rng();
    while (x >= limit);
    return x % n;
}

// `keep` of the lines, chosen by the seed (a partial Fisher-Yates shuffle), in corpus order.
std::vector<const std::string*> sample(std::vector<const std::string*> lines, size_t keep, uint64_t seed) {
    if (lines.size() <= keep) return lines;
    std::vector<size_t> order(lines.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::mt19937_64 rng(seed);
    for (size_t i = 0; i < keep; ++i) std::swap(order[i], order[i + drawBelow(rng, order.size() - i)]);
    order.resize(keep);
    std::sort(order.begin(), order.end());
    std::vector<const std::string*> kept;
    for (size_t i : order) kept.push_back(lines[i]);
    return kept;
}

// Every distinct word of the lines (split at spaces), in the order of first use, as views into the lines. A word
// without a letter, digit, punctuation or symbol is left out.
std::vector<std::string_view> distinctWords(const std::vector<const std::string*>& lines) {
    std::vector<std::string_view> words;
    std::unordered_set<std::string_view> seen;
    for (const std::string* line : lines) {
        for (size_t start = 0; start <= line->size();) {
            const size_t end = std::min(line->find(' ', start), line->size());
            const std::string_view word(line->data() + start, end - start);
            start = end + 1;
            if (hasContent(word) && seen.insert(word).second) words.push_back(word);
        }
    }
    return words;
}

// The trainer's input: every line, then every distinct word once, as a line of its own. SentencePiece 0.1.97,
// Debian 12's, takes its candidate pieces from where the whole sentences' suffix tree branches, before it splits them
// into words, and drops a candidate that runs into the next word: a word always followed by a space ("and", "My")
// branches only after the space, so it is never a candidate and never a piece. One line holding the word alone makes
// it branch at its end, so it is a candidate with its count from the sentences, as 0.1.98 (which trims the space)
// makes it; the counts the EM steps fit grow by one per distinct word.
class LinesThenWords : public sentencepiece::SentenceIterator {
public:
    LinesThenWords(const std::vector<const std::string*>& lines, const std::vector<std::string_view>& words)
        : lines_(lines), words_(words) {}
    bool done() const override { return next_ >= lines_.size() + words_.size(); }
    void Next() override {
        if (++next_ >= lines_.size() && !done()) word_.assign(words_[next_ - lines_.size()]);
    }
    const std::string& value() const override { return next_ < lines_.size() ? *lines_[next_] : word_; }
    sentencepiece::util::Status status() const override { return sentencepiece::util::Status(); }

private:
    const std::vector<const std::string*>& lines_;
    const std::vector<std::string_view>& words_;
    size_t next_ = 0;   // lines first, then words
    std::string word_;  // the word shown, once past the lines
};

// The number after `marker` in a library message, or -1.
long long numberAfter(const std::string& message, std::string_view marker) {
    const size_t at = message.find(marker);
    if (at == std::string::npos) return -1;
    size_t i = at + marker.size();
    long long value = 0;
    bool any = false;
    for (; i < message.size() && message[i] >= '0' && message[i] <= '9' && value < (1LL << 40); ++i, any = true)
        value = value * 10 + (message[i] - '0');
    return any ? value : -1;
}

// The library's refusal as a user reads it: the two size errors say the size the corpus allows.
[[noreturn]] void throwTrainingError(const std::string& message, int vocab_size) {
    const std::string asked = "a vocabulary of " + std::to_string(vocab_size) + " pieces";
    if (const long long most = numberAfter(message, "Please set it to a value <= "); most >= 0)
        throw InputError("the corpus is too small for " + asked + ": it has pieces for at most " +
                         std::to_string(most));
    if (const long long least = numberAfter(message, std::to_string(vocab_size) + " vs "); least >= 0)
        throw InputError(asked + " cannot hold the corpus's characters: it needs at least " + std::to_string(least) +
                         " (every character and the 3 special pieces), or a lower character coverage");
    throw InputError("SentencePiece training failed: " + printable(message));
}

}  // namespace

bool isSentencePieceNormalization(const std::string& rule) {
    return std::ranges::find(kSentencePieceNormalizations, rule) != std::end(kSentencePieceNormalizations);
}

std::string sentencePieceNormalizationList() {
    std::string list;
    for (const char* rule : kSentencePieceNormalizations) {
        if (!list.empty()) list += ", ";
        list += rule;
    }
    return list;
}

std::string trainSentencePiece(const std::vector<std::string>& lines, const SentencePieceTraining& options) {
    if (options.vocab_size < kMinSentencePieceVocab || options.vocab_size > kMaxSentencePieceVocab)
        throw InputError("vocabulary size " + std::to_string(options.vocab_size) + ": must be from " +
                         std::to_string(kMinSentencePieceVocab) + " to " + std::to_string(kMaxSentencePieceVocab));
    if (!(options.character_coverage >= kMinCharacterCoverage && options.character_coverage <= 1.0))
        throw InputError("character coverage " + numberText(options.character_coverage) + ": must be from " +
                         numberText(kMinCharacterCoverage) + " to 1");
    if (!isSentencePieceNormalization(options.normalization))
        throw InputError("normalization \"" + printable(options.normalization) + "\": must be one of " +
                         sentencePieceNormalizationList());
    if (options.max_sentences == 0) throw InputError("at most 0 sentences: nothing to train on");
    const auto kept = sample(usableLines(lines), options.max_sentences, options.seed);
    // Fixed, not the machine's core count: the E-step sums per-thread counts, so the thread count is part of the
    // result. minloglevel 2: the library's progress and warnings (with corpus text, unescaped) stay off stderr.
    const std::unordered_map<std::string, std::string> args{
        {"model_type", "unigram"},
        {"vocab_size", std::to_string(options.vocab_size)},
        {"character_coverage", numberText(options.character_coverage)},
        {"normalization_rule_name", options.normalization},
        {"max_sentence_length", std::to_string(kMaxSentencePieceLineBytes)},
        {"num_threads", "2"},
        {"minloglevel", "2"},
    };
    const std::vector<std::string_view> words = distinctWords(kept);
    LinesThenWords it(kept, words);
    std::string model;
    // The library's log level and pretokenizer are process-wide: one training at a time.
    static std::mutex one_at_a_time;
    const std::lock_guard lock(one_at_a_time);
    const auto status = sentencepiece::SentencePieceTrainer::Train(args, &it, &model);
    if (!status.ok()) throwTrainingError(status.error_message(), options.vocab_size);
    return model;
}

}  // namespace attnviz
