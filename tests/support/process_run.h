// Running a program (attnviz-cli, python3) from a test and keeping what it printed.
#pragma once
#include <QByteArray>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <csignal>

#include <sys/resource.h>

namespace attnviz::testing {

struct ProcessRun {
    int code = -1;  // the exit code; -2 when the program crashed, -1 when it timed out
    QByteArray out, err;
    QString outText() const { return QString::fromUtf8(out); }
    QString errText() const { return QString::fromUtf8(err); }
};

// How the program runs: its environment, where its standard output goes, how long it may take and the limits it
// runs under.
struct RunOptions {
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    QString stdout_file;  // not empty: standard output is written to this file (e.g. /dev/full), `out` stays empty
    int timeout_ms = 60000;
    // setrlimit in the child, 0 = none. A program past its CPU seconds is killed by SIGXCPU (a crash: code -2), so a
    // test can bound the work of a run without timing it. The address-space limit is not set under AddressSanitizer,
    // which reserves terabytes of shadow memory.
    rlim_t address_space_bytes = 0;
    rlim_t cpu_seconds = 0;
    // The child's stack limit, 0 = as inherited: exec takes a command line of up to a quarter of it (a long one needs
    // more than the usual 2 MiB of a 8 MiB stack).
    rlim_t stack_bytes = 0;
    bool ignore_sigint = false;  // SIGINT ignored in the child, as in a background job of a shell script
};

// Applies the options' limits to `p`'s child, between fork and exec.
inline void setChildLimits(QProcess& p, const RunOptions& options) {
    const rlim_t as = options.address_space_bytes, cpu = options.cpu_seconds, stack = options.stack_bytes;
    const bool ignore_sigint = options.ignore_sigint;
    p.setChildProcessModifier([as, cpu, stack, ignore_sigint] {
#if !defined(__SANITIZE_ADDRESS__)
        if (as > 0) {
            const rlimit limit{as, as};
            ::setrlimit(RLIMIT_AS, &limit);
        }
#endif
        if (cpu > 0) {
            const rlimit limit{cpu, cpu};
            ::setrlimit(RLIMIT_CPU, &limit);
        }
        if (stack > 0) {
            const rlimit limit{stack, stack};
            ::setrlimit(RLIMIT_STACK, &limit);
        }
        if (ignore_sigint) ::signal(SIGINT, SIG_IGN);
    });
}

// The options with one variable added to (or replaced in) the environment, e.g. the writer's fault seam
// ATTNVIZ_TEST_WRITE_FAULT=ENOSPC:100 (core/io/atomic_file.h).
inline RunOptions withEnv(const QString& name, const QString& value, RunOptions options = {}) {
    options.environment.insert(name, value);
    return options;
}

// Runs `program` with `args` and waits up to the timeout; a program still running then is killed ("timed out").
// With `input`, it is written to the program's standard input, which is then closed; the program may exit before it
// has read everything (an error on a line): the rest is dropped.
inline ProcessRun runProcess(const QString& program, const QStringList& args, const RunOptions& options,
                             const QByteArray* input = nullptr) {
    QProcess p;
    p.setProcessEnvironment(options.environment);
    setChildLimits(p, options);
    if (!options.stdout_file.isEmpty()) p.setStandardOutputFile(options.stdout_file);
    p.start(program, args);
    ProcessRun r;
    if (input) {
        if (!p.waitForStarted(options.timeout_ms)) {
            r.err = "did not start";
            return r;
        }
        p.write(*input);
        p.closeWriteChannel();
    }
    if (!p.waitForFinished(options.timeout_ms)) {
        p.kill();
        p.waitForFinished();
        r.err = "timed out";
        return r;
    }
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

inline ProcessRun runProcess(const QString& program, const QStringList& args, int timeout_ms = 60000) {
    RunOptions options;
    options.timeout_ms = timeout_ms;
    return runProcess(program, args, options);
}

// Runs `program` with `input` on its standard input (see runProcess).
inline ProcessRun runProcessWithInput(const QString& program, const QStringList& args, const QByteArray& input,
                                      int timeout_ms = 60000) {
    RunOptions options;
    options.timeout_ms = timeout_ms;
    return runProcess(program, args, options, &input);
}

#ifdef ATTNVIZ_CLI_PATH
// This build's attnviz-cli (tests/CMakeLists.txt defines ATTNVIZ_CLI_PATH for every test).
inline ProcessRun runCli(const QStringList& args, const RunOptions& options = {}) {
    return runProcess(QStringLiteral(ATTNVIZ_CLI_PATH), args, options);
}
inline ProcessRun runCli(const QStringList& args, int timeout_ms) {
    RunOptions options;
    options.timeout_ms = timeout_ms;
    return runCli(args, options);
}
#endif

}  // namespace attnviz::testing
