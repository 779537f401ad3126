#include "command_run.h"

#include "args.h"
#include "base/errors.h"
#include "base/utf8.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <new>
#include <stdexcept>

#include <poll.h>
#include <unistd.h>

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
    } catch (const OutputClosed&) {
        return 1;  // nobody reads on: nothing to say
    } catch (const UsageError& e) {
        return fail(command, std::string(e.what()) + " (see attnviz-cli " + std::string(command) + " --help)", 2);
    } catch (const std::bad_alloc&) {
        return fail(command, "out of memory", 1);
    } catch (const std::exception& e) {
        return fail(command, e.what(), 1);
    }
}

std::string atLine(const std::string& file, int line, const std::exception& e) {
    const std::string msg = errorMessage(e);  // a line that ran out of memory says so, as runCommand does
    if (msg.rfind(file + ":", 0) == 0) return msg;
    return file + ":" + std::to_string(line) + ": " + msg;
}

TerminalProgress::TerminalProgress(std::string_view command, std::string_view unit)
    : command_(command), unit_(unit), active_(isatty(STDERR_FILENO) != 0) {}

TerminalProgress::~TerminalProgress() {
    if (shown_) std::fprintf(stderr, "\r\033[K");
}

void TerminalProgress::show(size_t done, size_t all) {
    if (!active_) return;
    std::fprintf(stderr, "\rattnviz-cli %s: %zu / %zu %s", command_.c_str(), done, all, unit_.c_str());
    std::fflush(stderr);
    shown_ = true;
}

bool stdoutReaderGone(int error) {
    if (error == EPIPE) return true;
    pollfd p{STDOUT_FILENO, POLLOUT, 0};  // a pipe without a reader polls POLLERR; a file or a device never does
    return ::poll(&p, 1, 0) == 1 && (p.revents & POLLERR) != 0;
}

void flushStdout() {
    errno = 0;
    if (std::fflush(stdout) == 0 && !std::ferror(stdout)) return;
    if (stdoutReaderGone(errno)) throw OutputClosed("standard output: the reader has gone");
    throw std::runtime_error(std::string("cannot write to standard output: ") +
                             (errno ? std::strerror(errno) : "write error"));
}

void writeToStdout(std::string_view text) { std::fwrite(text.data(), 1, text.size(), stdout); }

}  // namespace attnviz::cli
