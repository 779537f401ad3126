// Running a program (attnviz-cli, python3) from a test and keeping what it printed.
#pragma once
#include <QByteArray>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace attnviz::testing {

struct ProcessRun {
    int code = -1;  // the exit code; -2 when the program crashed, -1 when it timed out
    QByteArray out, err;
    QString errText() const { return QString::fromUtf8(err); }
};

// Runs `program` with `args` and waits up to `timeout_ms`; a program still running then is killed ("timed out").
inline ProcessRun runProcess(const QString& program, const QStringList& args, int timeout_ms = 60000) {
    QProcess p;
    p.start(program, args);
    ProcessRun r;
    if (!p.waitForFinished(timeout_ms)) {
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

// Runs `program` with `args`, `input` written to its standard input (then closed), and waits as runProcess does.
// The program may exit before it has read everything (an error on a line): the rest is dropped.
inline ProcessRun runProcessWithInput(const QString& program, const QStringList& args, const QByteArray& input,
                                      int timeout_ms = 60000) {
    QProcess p;
    p.start(program, args);
    ProcessRun r;
    if (!p.waitForStarted(timeout_ms)) {
        r.err = "did not start";
        return r;
    }
    p.write(input);
    p.closeWriteChannel();
    if (!p.waitForFinished(timeout_ms)) {
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

}  // namespace attnviz::testing
