#include "cli_common.h"

#include "base/errors.h"
#include "decode/decoding.h"
#include "decode/parallel.h"
#include "eval/compare_heads.h"
#include "io/model_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <new>

namespace attnviz::cli {

int fail(std::string_view command, std::string_view what, int code) {
    // One line: embedded newlines (e.g. from a nested library message) become "; ".
    std::string line(what);
    for (size_t p = 0; (p = line.find('\n', p)) != std::string::npos;) line.replace(p, 1, "; ");
    // Messages quote model strings, corpus fields and file names: escaped here, where they reach the terminal.
    std::fprintf(stderr, "attnviz-cli %.*s: %s\n", static_cast<int>(command.size()), command.data(),
                 printable(line).c_str());
    std::fflush(stderr);
    return code;
}

void warn(std::string_view command, std::string_view what) {
    std::fprintf(stderr, "attnviz-cli %.*s: warning: %s\n", static_cast<int>(command.size()), command.data(),
                 printable(what).c_str());
}

int runCommand(std::string_view command, const std::function<int()>& body) {
    try {
        return body();
    } catch (const UsageError& e) {
        return fail(command, std::string(e.what()) + " (see attnviz-cli " + std::string(command) + " --help)", 2);
    } catch (const std::bad_alloc&) {
        return fail(command, "out of memory", 1);
    } catch (const std::exception& e) {
        return fail(command, e.what(), 1);
    }
}

const std::vector<std::string>& scoreChoices() {
    static const std::vector<std::string> k = {"additive", "dot", "scaled_dot", "general"};
    return k;
}

namespace {

// loadModel's messages start with the path; make sure of it whatever the failure.
Model loadNamed(const std::string& path) {
    // The loader names a missing file, a directory, a FIFO or a symlink loop by its cause (io/input_file.h).
    try {
        return loadModel(path);
    } catch (const std::exception& e) {
        const std::string msg = e.what();
        if (msg.rfind(path, 0) == 0) throw;
        throw ModelError(path + ": " + msg);
    }
}

// "PATH: no sibling trained with score "dot" and the same other settings (siblings: FILE (what differs), ...)".
std::string noMatchingSibling(const std::string& path, const Model& model, const std::vector<Sibling>& siblings,
                              const Sibling& self, ScoreKind score) {
    std::string found;
    for (const Sibling& s : siblings) {
        if (s.path == path) continue;
        found += (found.empty() ? "" : ", ") + s.path + " (" + describeDifferences(self, s) + ")";
    }
    std::string msg = path + ": no sibling model trained with score \"" + std::string(toString(score)) +
                      "\" and this model's other settings (decoder, span, input feeding, guidance, sizes, tokenizers)";
    if (!found.empty())
        msg += "; siblings found, with what differs from this model: " + found;
    else if (model.task.empty())
        msg += " (the model has no \"task\" metadata, so it has no siblings)";
    else
        msg += " (no other model in its folder has task \"" + model.task + "\" and the same vocabularies)";
    return msg;
}

}  // namespace

LoadedModel loadModelForCli(const std::string& path, const std::optional<ScoreKind>& score) {
    auto model = std::make_shared<Model>(loadNamed(path));
    if (!score || model->config.score == *score) return {std::move(model), path};

    const std::vector<Sibling> siblings = findSiblings(path, *model);
    const Sibling self{path, model->config, isGuided(model->training, path)};
    const std::optional<Sibling> pick = matchingSibling(siblings, self, *score);
    if (!pick) throw ModelError(noMatchingSibling(path, *model, siblings, self, *score));
    auto sibling = std::make_shared<Model>(loadNamed(pick->path));
    return {std::move(sibling), pick->path};
}

Corpus readInputLines(const std::string& path) {
    CorpusOptions o;
    o.require_target = false;
    return readCorpus(path, o);
}

int threadCount(int requested) {
    if (requested > 0) return requested;
    const unsigned n = std::thread::hardware_concurrency();
    return n == 0 ? 1 : static_cast<int>(n);
}

void parallelFor(size_t begin, size_t end, int threads, const std::function<void(size_t)>& work) {
    if (end <= begin) return;
    const size_t n = end - begin;
    const size_t t = std::min<size_t>(static_cast<size_t>(std::max(threads, 1)), n);
    std::vector<std::exception_ptr> errors(t);
    std::vector<size_t> error_index(t, SIZE_MAX);
    auto chunk = [&](size_t k) {
        const size_t lo = begin + n * k / t, hi = begin + n * (k + 1) / t;
        for (size_t i = lo; i < hi; ++i) {
            try {
                work(i);
            } catch (...) {
                if (!errors[k]) {
                    errors[k] = std::current_exception();
                    error_index[k] = i;
                }
            }
        }
    };
    runInParallel(int(t), [&](int k) { chunk(size_t(k)); });  // the engine's threads
    // Chunks are in index order, so the first chunk with an error holds the lowest failing index.
    for (size_t k = 0; k < t; ++k)
        if (errors[k]) std::rethrow_exception(errors[k]);
}

std::string atLine(const std::string& file, int line, const std::exception& e) {
    // A line whose decode ran out of memory says so, as runCommand does ("std::bad_alloc" would not).
    const std::string msg = dynamic_cast<const std::bad_alloc*>(&e) ? "out of memory" : e.what();
    if (msg.rfind(file + ":", 0) == 0) return msg;
    return file + ":" + std::to_string(line) + ": " + msg;
}

namespace {

char32_t nextCodePoint(std::string_view s, size_t& i) {
    const auto c = static_cast<unsigned char>(s[i]);
    int more = c < 0x80 ? 0 : (c >> 5) == 0x6 ? 1 : (c >> 4) == 0xE ? 2 : (c >> 3) == 0x1E ? 3 : -1;
    if (more < 0 || i + static_cast<size_t>(more) >= s.size()) {
        ++i;
        return c;
    }
    char32_t cp = more == 0 ? c : more == 1 ? (c & 0x1F) : more == 2 ? (c & 0x0F) : (c & 0x07);
    for (int k = 1; k <= more; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + static_cast<size_t>(k)]) & 0x3F);
    i += static_cast<size_t>(more) + 1;
    return cp;
}

int codePointWidth(char32_t cp) {
    if (cp == 0) return 0;
    if ((cp >= 0x0300 && cp <= 0x036F) || (cp >= 0x200B && cp <= 0x200F) || cp == 0xFE0F)
        return 0;  // combining, zero-width
    if ((cp >= 0x1100 && cp <= 0x115F) || (cp >= 0x2E80 && cp <= 0x303E) || (cp >= 0x3041 && cp <= 0x33FF) ||
        (cp >= 0x3400 && cp <= 0x4DBF) || (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0xA000 && cp <= 0xA4CF) ||
        (cp >= 0xAC00 && cp <= 0xD7A3) || (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFE30 && cp <= 0xFE4F) ||
        (cp >= 0xFF00 && cp <= 0xFF60) || (cp >= 0xFFE0 && cp <= 0xFFE6) || (cp >= 0x1F300 && cp <= 0x1F64F) ||
        (cp >= 0x1F900 && cp <= 0x1F9FF) || (cp >= 0x20000 && cp <= 0x3FFFD))
        return 2;
    return 1;
}

}  // namespace

int displayWidth(std::string_view text) {
    int w = 0;
    for (size_t i = 0; i < text.size();) w += codePointWidth(nextCodePoint(text, i));
    return w;
}

std::string padRight(std::string_view text, int width) {
    const int w = displayWidth(text);
    return std::string(text) + std::string(static_cast<size_t>(std::max(0, width - w)), ' ');
}

std::string padLeft(std::string_view text, int width) {
    const int w = displayWidth(text);
    return std::string(static_cast<size_t>(std::max(0, width - w)), ' ') + std::string(text);
}

void checkSourceLength(const TokenizedText& source, int max_source_len, const std::string& where) {
    const size_t n = source.tokens.size() >= 2 ? source.tokens.size() - 2 : 0;  // without <sos> and <eos>
    if (n > size_t(max_source_len))
        throw InputError(where + ": the source has " + std::to_string(n) + " tokens; at most " +
                         std::to_string(max_source_len) + " are decoded (--max-source-len N to change it)");
}

void checkReferenceLength(const TokenizedText& reference, int max_source_len, const std::string& where) {
    const size_t n = reference.tokens.size();  // <eos> included, as --max-len counts
    const size_t limit = 2 * size_t(max_source_len) + 10;
    if (n > limit)
        throw InputError(where + ": the reference has " + std::to_string(n) + " tokens with <eos>; at most " +
                         std::to_string(limit) + " (2 * --max-source-len + 10) are decoded");
}

void checkDecodeSize(const Model& model, const TokenizedText& source, int beam, int max_len, const std::string& where) {
    const uint64_t S = source.tokens.size(), K = uint64_t(std::max(beam, 1));
    const uint64_t T = max_len > 0 ? uint64_t(max_len) : 2 * S + 10;
    const double bytes =
        K > 1 ? double(beamTreeBytes(int(S), int(K), int(std::min<uint64_t>(T, INT32_MAX)), model.target_vocab.size()))
              : double(T) * double(S) * 8.0;
    if (bytes <= double(kMaxDecodeBytes)) return;
    const std::string size = gibText(bytes);
    const std::string what = K > 1 ? "--beam " + std::to_string(beam) + " with at most " : "at most ";
    throw InputError(where + ": " + what + std::to_string(T) + " target tokens on a source of " +
                     std::to_string(S >= 2 ? S - 2 : 0) + " tokens may need up to " + size +
                     " (the limit is 4 GiB): use a smaller --beam or --max-len");
}

void warnMostlyUnknown(std::string_view command, const UnknownShare& share, const std::string& data,
                       const std::string& model_path) {
    auto percent = [](double x) { return std::to_string(int(x * 100 + 0.5)) + "%"; };
    warn(command, data + ": " + percent(share.source) + " of the source tokens and " + percent(share.target) +
                      " of the target tokens are unknown to " + model_path +
                      " (they all become <unk>): is this data for the model's task?");
}

void flushStdout() {
    errno = 0;
    if (std::fflush(stdout) == 0 && !std::ferror(stdout)) return;
    throw std::runtime_error(std::string("cannot write to standard output: ") +
                             (errno ? std::strerror(errno) : "write error"));
}

AttentionView headChoiceOption(const std::string& flag, const std::string& value) {
    try {
        return parseHeadChoice(value);
    } catch (const InputError& e) {
        throw UsageError(flag + " " + e.what());
    }
}

void checkHeadChoice(const std::string& flag, const AttentionView& view, const Model& m, const std::string& side,
                     const std::string& path) {
    const std::string what = headChoiceProblem(m.config, view);
    if (!what.empty())
        throw InputError(flag + " " + std::to_string(view.layer + 1) + "," +
                         (view.head < 0 ? std::string("mean") : std::to_string(view.head + 1)) +
                         " cannot be used with " + side + " " + path + ": " + what);
}

}  // namespace attnviz::cli
