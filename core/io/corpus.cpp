#include "io/corpus.h"

#include "base/errors.h"
#include "base/utf8.h"
#include "io/input_file.h"
#include "text/tokenizer.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace attnviz {
namespace {

bool isAsciiSpace(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v'; }

bool isBlank(std::string_view s) { return std::all_of(s.begin(), s.end(), isAsciiSpace); }

// Whether text has something besides whitespace; used when no tokenizer is given (Unicode spaces such as
// U+3000 count as content then; the tokenizer-aware check below is exact).
bool hasContent(std::string_view s) { return !isBlank(s); }

std::string where(const std::string& name, int line) { return name + ":" + std::to_string(line) + ": "; }

std::string quoted(std::string_view s) {
    std::string out = "\"";
    const size_t n = std::min<size_t>(s.size(), 40);
    out.append(s.substr(0, n));
    if (n < s.size()) out += "...";
    return out + "\"";
}

}  // namespace

int Corpus::alignedCount() const {
    return static_cast<int>(
        std::count_if(examples.begin(), examples.end(), [](const CorpusExample& e) { return e.has_alignment; }));
}

std::vector<AlignmentLink> parseAlignment(std::string_view field) {
    std::vector<AlignmentLink> links;
    size_t i = 0;
    while (i < field.size()) {
        while (i < field.size() && isAsciiSpace(field[i])) ++i;
        if (i >= field.size()) break;
        size_t end = i;
        while (end < field.size() && !isAsciiSpace(field[end])) ++end;
        const std::string_view tok = field.substr(i, end - i);
        i = end;
        // i-j: 1 to 9 digits, '-', 1 to 9 digits.
        const size_t dash = tok.find('-');
        auto digits = [](std::string_view d) {
            return !d.empty() && d.size() <= 9 &&
                   std::all_of(d.begin(), d.end(), [](char c) { return c >= '0' && c <= '9'; });
        };
        if (dash == std::string_view::npos || !digits(tok.substr(0, dash)) || !digits(tok.substr(dash + 1)))
            throw InputError("bad alignment link " + quoted(tok) +
                             " (expected i-j, two 0-based word indices, e.g. \"0-1\")");
        links.emplace_back(std::stoi(std::string(tok.substr(0, dash))), std::stoi(std::string(tok.substr(dash + 1))));
    }
    std::sort(links.begin(), links.end());
    links.erase(std::unique(links.begin(), links.end()), links.end());
    return links;
}

namespace {

// Up to three tab-separated fields (source, target, alignment) into an example; InputError naming the line.
CorpusExample exampleFromLine(std::string_view line, int line_no, const std::string& name,
                              const CorpusOptions& options) {
    std::vector<std::string_view> fields;
    size_t start = 0;
    while (true) {
        const size_t tab = line.find('\t', start);
        fields.push_back(line.substr(start, tab == std::string_view::npos ? std::string_view::npos : tab - start));
        if (tab == std::string_view::npos) break;
        start = tab + 1;
    }
    if (fields.size() > 3)
        throw InputError(where(name, line_no) + "found " + std::to_string(fields.size()) +
                         " tab-separated fields; expected source<TAB>target[<TAB>alignment]");
    CorpusExample ex;
    ex.line = line_no;
    ex.source = std::string(fields[0]);
    if (!hasContent(ex.source))
        throw InputError(where(name, line_no) + "empty source sentence (the text before the first tab)");
    if (fields.size() >= 2) {
        ex.has_target = true;
        ex.target = std::string(fields[1]);
        if (!hasContent(ex.target))
            throw InputError(where(name, line_no) + "empty target sentence (the text after the first tab)");
    } else if (options.require_target) {
        throw InputError(where(name, line_no) + "no tab: expected source<TAB>target[<TAB>alignment]");
    }
    if (fields.size() == 3) {
        ex.has_alignment = true;
        try {
            ex.alignment = parseAlignment(fields[2]);
        } catch (const InputError& e) {
            throw InputError(where(name, line_no) + e.what());
        }
    }
    return ex;
}

// The example's tokens with the model's tokenizers, and its alignment links checked against them.
void tokenizeExample(CorpusExample& ex, const TokenizerConfig& t, const std::string& at) {
    try {
        ex.source_tokens = tokenize(ex.source, t.source, t.lowercase);
        if (ex.has_target) ex.target_tokens = tokenize(ex.target, t.target, t.lowercase);
    } catch (const InputError& e) {
        throw InputError(at + e.what());
    }
    if (ex.source_tokens.empty()) throw InputError(at + "the source sentence has no tokens");
    if (ex.has_target && ex.target_tokens.empty()) throw InputError(at + "the target sentence has no tokens");
    const int ns = static_cast<int>(ex.source_tokens.size());
    const int nt = static_cast<int>(ex.target_tokens.size());
    for (const auto& [i, j] : ex.alignment) {
        const std::string link = "alignment link " + std::to_string(i) + "-" + std::to_string(j);
        if (i >= ns)
            throw InputError(at + link + ": source word " + std::to_string(i) + " does not exist (the source has " +
                             std::to_string(ns) + " words, 0-based, specials not counted)");
        if (j >= nt)
            throw InputError(at + link + ": target word " + std::to_string(j) + " does not exist (the target has " +
                             std::to_string(nt) + " words, 0-based, <eos> not counted)");
    }
}

// One line (without its LF) as an example; nullopt for a blank line. InputError "NAME:LINE: what" for a bad one.
std::optional<CorpusExample> exampleOfLine(std::string_view line, int line_no, const std::string& name,
                                           const CorpusOptions& options) {
    if (line.size() > kMaxLineBytes)
        throw InputError(where(name, line_no) + "the line is " + std::to_string(line.size()) +
                         " bytes long; lines of at most " + std::to_string(kMaxLineBytes) +
                         " bytes are read (is this a text corpus?)");
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (const size_t bad = firstInvalidUtf8(line); bad != std::string_view::npos) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(line[bad]));
        throw InputError(where(name, line_no) + "invalid UTF-8 at byte " + std::to_string(bad + 1) + " of the line (" +
                         hex + ")");
    }
    if (isBlank(line)) return std::nullopt;
    CorpusExample ex = exampleFromLine(line, line_no, name, options);
    if (options.tokenizer) tokenizeExample(ex, *options.tokenizer, where(name, line_no));
    return ex;
}

}  // namespace

Corpus parseCorpus(std::string_view text, const std::string& name, const CorpusOptions& options) {
    Corpus corpus;
    corpus.name = name;
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);  // byte-order mark

    size_t pos = 0;
    int line_no = 0;
    while (pos < text.size()) {
        size_t eol = text.find('\n', pos);
        if (eol == std::string_view::npos) eol = text.size();
        std::string_view line = text.substr(pos, eol - pos);
        pos = eol + 1;
        ++line_no;
        try {
            if (std::optional<CorpusExample> ex = exampleOfLine(line, line_no, name, options))
                corpus.examples.push_back(std::move(*ex));
        } catch (const InputError& e) {
            if (!options.skip_bad_lines) throw;
            if (corpus.skipped.size() < kMaxListedSkippedLines) corpus.skipped.push_back({line_no, e.what()});
            ++corpus.skipped_count;
        }
    }
    return corpus;
}

std::string readTextFile(const std::string& path) {
    if (path == kStandardInputPath) return readStandardInput(kMaxStandardInputBytes, kMaxLineBytes);
    return readRegularFile(path);
}

Corpus readCorpus(const std::string& path, const CorpusOptions& options) {
    const std::string text = readTextFile(path);
    return parseCorpus(text, inputName(path), options);
}

}  // namespace attnviz
