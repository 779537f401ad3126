// attnviz-cli: dispatches to the subcommands of docs/cli.md.
#include "attnviz_version.h"
#include "base/instruction_set.h"
#include "base/utf8.h"
#include "cli/command_run.h"
#include "cli/commands.h"
#include "io/atomic_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include <signal.h>

namespace {

struct Subcommand {
    const char* name;
    const char* summary;
    int (*run)(const std::vector<std::string>&);
};

const Subcommand kSubcommands[] = {
    {"info", "print a model's config, vocabulary sizes, parameter count, siblings and tensors", attnviz::cli::runInfo},
    {"decode", "decode a sentence (greedy, beam or forced) and print tokens, attention and log-probs",
     attnviz::cli::runDecode},
    {"render", "write the attention heatmap as PNG, SVG, PDF, CSV or JSON", attnviz::cli::runRender},
    {"train", "train a model on a TSV corpus", attnviz::cli::runTrain},
    {"eval", "report exact match, token accuracy, BLEU, attention entropy and AER on a TSV corpus",
     attnviz::cli::runEval},
    {"convert", "rewrite a model with its weights as f32, f16 or bf16", attnviz::cli::runConvert},
    {"compare", "compare the attention of two models (TV, Jensen-Shannon, argmax agreement, entropy, AER)",
     attnviz::cli::runCompare},
    {"explain", "which source words each target token used: attention, gradients, integrated gradients, occlusion",
     attnviz::cli::runExplain},
};

// Every command's output ends here: stdout is flushed and checked, so that a full disk or a failing device
// (ENOSPC, EIO: `> /dev/full`) is an error with exit 1 instead of a lost output and exit 0. A reader that went away
// (EPIPE, `| head` with SIGPIPE ignored) ends the program quietly with exit 1, as coreutils do without the signal.
int finishOutput(const char* command, int code) {
    errno = 0;
    const bool flushed = std::fflush(stdout) == 0;
    const int error = errno;
    if (flushed && !std::ferror(stdout)) return code;
    if (code != 0 || attnviz::cli::stdoutReaderGone(error)) return 1;  // said why already, or nobody reads on
    std::fprintf(stderr, "attnviz-cli %s: cannot write to standard output%s%s\n", command, error ? ": " : "",
                 error ? std::strerror(error) : " (write error)");
    return 1;
}

// The last resort around a command (each command also maps its own exceptions, command_run.h runCommand): whatever
// escapes is a message and exit 1, never an abort.
int runGuarded(const char* command, int (*run)(const std::vector<std::string>&), const std::vector<std::string>& args) {
    try {
        return run(args);
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "attnviz-cli %s: out of memory\n", command);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "attnviz-cli %s: %s\n", command, attnviz::printable(e.what()).c_str());
    } catch (...) {
        std::fprintf(stderr, "attnviz-cli %s: unexpected error\n", command);
    }
    return 1;
}

// SIGTERM, SIGINT and SIGHUP end the program as they would without a handler, but first remove the temporary file
// of a write in progress (io/atomic_file.h), so that a killed save leaves the folder as it was. (train replaces the
// SIGINT handler while it trains: Ctrl-C then stops training and saves.)
extern "C" void onTerminatingSignal(int sig) {
    attnviz::removeTemporaryFilesInProgress();
    // The default action back (also when train reinstalled this handler with std::signal, without SA_RESETHAND),
    // then the signal again: it is delivered when the handler returns and ends the process as it would have.
    ::signal(sig, SIG_DFL);
    ::raise(sig);
}

void cleanUpOnTerminatingSignals() {
    struct sigaction action {};
    action.sa_handler = onTerminatingSignal;
    action.sa_flags = SA_RESETHAND;
    sigemptyset(&action.sa_mask);
    for (int sig : {SIGTERM, SIGINT, SIGHUP}) {
        struct sigaction old {};
        // A signal ignored by whoever started us (nohup, a shell's background job) stays ignored.
        if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        ::sigaction(sig, &action, nullptr);
    }
}

void printUsage(FILE* out) {
    std::fprintf(out,
                 "usage: attnviz-cli COMMAND [options]   (attnviz-cli COMMAND --help for its options)\n\ncommands:\n");
    for (const Subcommand& s : kSubcommands) std::fprintf(out, "  %-8s %s\n", s.name, s.summary);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        printUsage(stderr);
        return 2;
    }
    cleanUpOnTerminatingSignals();
    const std::string name = argv[1];
    if (name == "--help" || name == "-h" || name == "help") {
        printUsage(stdout);
        return finishOutput("help", 0);
    }
    if (name == "--version") {
        // the engine's copy the dynamic loader picked for this CPU (a package carries several)
        std::printf("attnviz-cli %s\nengine: %s\n", ATTNVIZ_VERSION, attnviz::engineInstructionSet());
        return finishOutput("--version", 0);
    }
    for (const Subcommand& s : kSubcommands) {
        if (name == s.name)
            return finishOutput(s.name, runGuarded(s.name, s.run, std::vector<std::string>(argv + 2, argv + argc)));
    }
    std::string known;
    for (const Subcommand& s : kSubcommands) known += std::string(known.empty() ? "" : ", ") + s.name;
    std::fprintf(stderr, "attnviz-cli: unknown command '%s' (expected one of: %s)\n", attnviz::printable(name).c_str(),
                 known.c_str());
    return 2;
}
