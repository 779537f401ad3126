#include "io/corpus.h"

#include "base/errors.h"
#include "base/utf8.h"
#include "io/input_file.h"
#include "text/tokenizer.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <iterator>

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

namespace {

void sortUnique(std::vector<AlignmentLink>& links) {
    std::sort(links.begin(), links.end());
    links.erase(std::unique(links.begin(), links.end()), links.end());
}

bool contains(const std::vector<AlignmentLink>& sorted, const AlignmentLink& link) {
    return std::binary_search(sorted.begin(), sorted.end(), link);
}

std::string linkText(const AlignmentLink& l, char kind) {
    return std::to_string(l.first) + kind + std::to_string(l.second);
}

bool isIndex(std::string_view d) {
    return !d.empty() && d.size() <= 9 && std::all_of(d.begin(), d.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

bool GoldAlignment::isSure(const AlignmentLink& link) const { return contains(sure, link); }

bool GoldAlignment::isPossible(const AlignmentLink& link) const { return isSure(link) || contains(possible, link); }

std::vector<AlignmentLink> GoldAlignment::all() const {
    std::vector<AlignmentLink> links;
    std::merge(sure.begin(), sure.end(), possible.begin(), possible.end(), std::back_inserter(links));
    return links;
}

GoldAlignment makeGoldAlignment(std::vector<AlignmentLink> sure, std::vector<AlignmentLink> possible) {
    GoldAlignment g;
    g.sure = std::move(sure);
    sortUnique(g.sure);
    sortUnique(possible);
    for (const AlignmentLink& l : possible)
        if (!contains(g.sure, l)) g.possible.push_back(l);
    return g;
}

std::string pharaohText(const GoldAlignment& gold) {
    std::string out;
    const auto add = [&out](const AlignmentLink& l, char kind) {
        if (!out.empty()) out += ' ';
        out += linkText(l, kind);
    };
    for (const AlignmentLink& l : gold.sure) add(l, '-');
    for (const AlignmentLink& l : gold.possible) add(l, '?');
    return out;
}

GoldAlignment parseAlignment(std::string_view field) {
    std::vector<AlignmentLink> sure, possible;
    size_t i = 0;
    while (i < field.size()) {
        while (i < field.size() && isAsciiSpace(field[i])) ++i;
        if (i >= field.size()) break;
        size_t end = i;
        while (end < field.size() && !isAsciiSpace(field[end])) ++end;
        const std::string_view tok = field.substr(i, end - i);
        i = end;
        // i-j or i?j: 1 to 9 digits, '-' or '?', 1 to 9 digits.
        const size_t sep = tok.find_first_of("-?");
        if (sep == std::string_view::npos || !isIndex(tok.substr(0, sep)) || !isIndex(tok.substr(sep + 1)))
            throw InputError("bad alignment link " + quoted(tok) +
                             " (expected i-j for a sure link or i?j for a possible one, two 0-based word indices, "
                             "e.g. \"0-1\" or \"2?3\")");
        const AlignmentLink link(std::stoi(std::string(tok.substr(0, sep))),
                                 std::stoi(std::string(tok.substr(sep + 1))));
        (tok[sep] == '-' ? sure : possible).push_back(link);
    }
    return makeGoldAlignment(std::move(sure), std::move(possible));
}

void checkAlignmentRange(const GoldAlignment& gold, int source_words, int target_words) {
    for (const auto* links : {&gold.sure, &gold.possible})
        for (const AlignmentLink& l : *links) {
            const std::string link = "alignment link " + linkText(l, links == &gold.sure ? '-' : '?');
            if (l.first >= source_words)
                throw InputError(link + ": source word " + std::to_string(l.first) +
                                 " does not exist (the source has " + std::to_string(source_words) +
                                 " words, 0-based, specials not counted)");
            if (l.second >= target_words)
                throw InputError(link + ": target word " + std::to_string(l.second) +
                                 " does not exist (the target has " + std::to_string(target_words) +
                                 " words, 0-based, <eos> not counted)");
        }
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
    try {
        checkAlignmentRange(ex.alignment, static_cast<int>(ex.source_tokens.size()),
                            static_cast<int>(ex.target_tokens.size()));
    } catch (const InputError& e) {
        throw InputError(at + e.what());
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
