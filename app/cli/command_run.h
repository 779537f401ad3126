// How an attnviz-cli subcommand reports and ends: one escaped line on stderr per error or warning, exit codes by
// kind of error (docs/cli.md "Exit codes"), a line number on a per-line error, and a checked standard output.
#pragma once
#include <cstddef>
#include <exception>
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace attnviz::cli {

// Prints "attnviz-cli COMMAND: what" (one line, escaped by printable) to stderr and returns `code`.
int fail(std::string_view command, std::string_view what, int code = 1);
// Prints "attnviz-cli COMMAND: warning: what" (escaped by printable) to stderr.
void warn(std::string_view command, std::string_view what);

// Runs a subcommand body and maps exceptions to exit codes: UsageError -> 2 (with a pointer to --help),
// ModelError / InputError / any other std::exception -> 1. Messages are printed by fail().
int runCommand(std::string_view command, const std::function<int()>& body);

// Prefixes an exception message with "FILE:LINE: " unless it already names the file; std::bad_alloc is "out of
// memory".
std::string atLine(const std::string& file, int line, const std::exception& e);

// Standard output's reader went away (EPIPE with SIGPIPE ignored, `| head`): the command ends quietly with exit 1, as
// coreutils do without the signal (runCommand prints nothing for it).
struct OutputClosed : std::runtime_error {
    using std::runtime_error::runtime_error;
};
// Whether a write to standard output failed because its reader has gone: EPIPE, or a pipe or socket polled as broken
// (the failing write may have been an earlier one, inside a printf, whose errno is lost).
bool stdoutReaderGone(int error);

// "attnviz-cli COMMAND: DONE / ALL UNIT" rewritten in place on stderr while stderr is a terminal (nothing is written
// otherwise, so that a log file or a test sees no progress), and cleared when it ends: long work's sign of life.
class TerminalProgress {
public:
    TerminalProgress(std::string_view command, std::string_view unit);
    ~TerminalProgress();  // clears the line if one was shown
    TerminalProgress(const TerminalProgress&) = delete;
    TerminalProgress& operator=(const TerminalProgress&) = delete;
    bool active() const { return active_; }
    void show(size_t done, size_t all);

private:
    std::string command_, unit_;
    bool active_ = false, shown_ = false;
};

// Flushes stdout; throws OutputClosed when the reader has gone, else std::runtime_error("standard output: REASON") if
// a write failed (a long output checks it per block so that a full disk stops it early; cli_main checks it once
// more at the end of every command).
void flushStdout();
// Writes `text` to standard output as it is (a JsonWriter's sink); a failed write is found by flushStdout.
void writeToStdout(std::string_view text);

}  // namespace attnviz::cli
