// attnviz-cli killed while it writes (docs/robustness.md, "Signals during a write"): `train --out` over an existing
// model, `convert` over one and a large PNG render over an existing image are killed with SIGTERM and SIGKILL at
// several moments, from the start to the end of the run and as soon as the temporary file appears. Each time the
// target holds the old bytes or the complete new ones (the bytes of an uninterrupted run), never a part. SIGTERM
// leaves no temporary file; SIGKILL may leave the hidden ".NAME.tmp-PID-XXXXXXXX" of the killed process, which the
// next write of the same file removes.
#include "io/model_file.h"
#include "test_files.h"
#include "test_registry.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

#include <signal.h>
#include <unistd.h>

using namespace attnviz;

using attnviz::testing::be32;
using attnviz::testing::readFile;
using attnviz::testing::writeFile;

namespace {

constexpr int kTimeoutMs = 120000;

// The arguments of a command with OUT standing for the file it writes.
QStringList withOut(QStringList args, const QString& out) {
    for (QString& a : args)
        if (a == "OUT") a = out;
    return args;
}

// Runs attnviz-cli to the end; returns its exit code.
int runToEnd(const QStringList& args, QByteArray* err = nullptr) {
    QProcess p;
    p.start(QStringLiteral(ATTNVIZ_CLI_PATH), args);
    if (!p.waitForFinished(kTimeoutMs)) return -1;
    if (err) *err = p.readAllStandardError();
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
}

// The temporary files of `name` in `dir` (".NAME.tmp-...").
QStringList tempFilesOf(const QDir& dir, const QString& name) {
    return dir.entryList({"." + name + ".tmp-*"}, QDir::Files | QDir::Hidden);
}

struct Killed {
    qint64 pid = 0;
    bool finished_first = false;  // the command ended before the moment came
    bool saw_temp = false;        // its temporary file existed when the signal was sent
};

// Starts the command and sends `sig` after `moment_ms`, or, with moment_ms < 0, as soon as a temporary file of
// `out` appears; then waits for the end of the process.
Killed killAt(const QStringList& args, const QString& out, int sig, int moment_ms) {
    const QFileInfo info(out);
    const QDir dir = info.dir();
    QProcess p;
    p.setStandardOutputFile(QProcess::nullDevice());
    p.setStandardErrorFile(QProcess::nullDevice());
    Killed k;
    p.start(QStringLiteral(ATTNVIZ_CLI_PATH), args);
    if (!p.waitForStarted(kTimeoutMs)) return k;
    k.pid = p.processId();
    QElapsedTimer clock;
    clock.start();
    for (;;) {
        if (p.waitForFinished(1)) {
            k.finished_first = true;
            return k;
        }
        const bool temp = !tempFilesOf(dir, info.fileName()).isEmpty();
        if ((moment_ms < 0 && temp) || (moment_ms >= 0 && clock.elapsed() >= moment_ms)) {
            k.saw_temp = temp;
            break;
        }
        if (clock.elapsed() > kTimeoutMs) break;
    }
    ::kill(pid_t(k.pid), sig);
    p.waitForFinished(kTimeoutMs);
    return k;
}

// A whole PNG: the signature, IHDR, chunks whose lengths add up, and IEND last; its size from IHDR.
QSize completePngSize(const QByteArray& png) {
    if (!png.startsWith("\x89PNG\r\n\x1a\n") || png.mid(12, 4) != "IHDR") return {};
    int at = 8;
    QByteArray type;
    while (at + 12 <= png.size()) {
        type = png.mid(at + 4, 4);
        at += 12 + int(be32(png, at));
    }
    if (at != png.size() || type != "IEND") return {};
    return QSize(int(be32(png, 16)), int(be32(png, 20)));
}

}  // namespace

class TestCliSignals : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void killedWriteKeepsOldOrNew_data();
    void killedWriteKeepsOldOrNew();
    void staleTempFilesAreRemoved();

private:
    struct Case {
        QStringList args;  // OUT: the file written
        QString name;      // the file name of OUT
        QByteArray old_bytes, new_bytes;
        qint64 duration_ms = 0;  // of an uninterrupted run
    };
    // An uninterrupted run of `args` into a fresh folder: its output bytes and duration.
    Case measured(const QStringList& args, const QString& name, const QByteArray& old_bytes);

    QTemporaryDir dir_;
    QMap<QString, Case> cases_;
};

TestCliSignals::Case TestCliSignals::measured(const QStringList& args, const QString& name,
                                              const QByteArray& old_bytes) {
    QTemporaryDir run;
    const QString out = run.filePath(name);
    QElapsedTimer clock;
    clock.start();
    QByteArray err;
    const int code = runToEnd(withOut(args, out), &err);
    Case c{args, name, old_bytes, readFile(out), clock.elapsed()};
    if (code != 0) qWarning("reference run failed (%d): %s", code, err.constData());
    return c;
}

void TestCliSignals::initTestCase() {
    QVERIFY(dir_.isValid());
    // 3,000 distinct words a side and emb_dim 256: a model of about 5 million weights (20 MB), slow enough to write
    // that a signal can land in the middle.
    QByteArray tsv;
    for (int i = 0; i < 3000; ++i)
        tsv += "the cat w" + QByteArray::number(i) + "\tle chat m" + QByteArray::number(i) + "\n";
    const QString data = dir_.filePath("data.tsv"), config = dir_.filePath("config.json");
    writeFile(data, tsv);
    writeFile(
        config,
        R"({"decoder": "bahdanau", "score": "additive", "emb_dim": 256, "enc_hid_dim": 128, "dec_hid_dim": 256})");
    const QString old_model = dir_.filePath("old.safetensors");
    const QStringList train = {"train", "--config", config, "--data", data, "--threads", "1", "--quiet", "--out"};
    QByteArray err;
    QVERIFY2(runToEnd(train + QStringList{old_model, "--steps", "1", "--seed", "1"}, &err) == 0, err.constData());
    const QByteArray old_bytes = readFile(old_model);
    QVERIFY(old_bytes.size() > 10'000'000);

    cases_["train"] =
        measured(train + QStringList{"OUT", "--steps", "2", "--seed", "2"}, "model.safetensors", old_bytes);
    cases_["convert"] = measured({"convert", "--dtype", "f16", old_model, "OUT"}, "model.safetensors", old_bytes);

    // A 4000 x 4000 PNG of a 60-word sentence over a small one of another sentence.
    QStringList sentence;
    for (int i = 0; i < 60; ++i) sentence << "w" + QString::number(i);
    const QString old_png = dir_.filePath("old.png");
    QVERIFY2(runToEnd({"render", "--model", old_model, "--out", old_png, "the cat"}, &err) == 0, err.constData());
    cases_["render"] = measured(QStringList{"render", "--model", old_model, "--out", "OUT", "--width", "4000",
                                            "--height", "4000", "--annotate"} +
                                    sentence,
                                "heatmap.png", readFile(old_png));
    for (const Case& c : cases_) {
        QVERIFY(c.new_bytes.size() > 1000);
        QVERIFY(c.new_bytes != c.old_bytes);
    }
}

void TestCliSignals::killedWriteKeepsOldOrNew_data() {
    QTest::addColumn<QString>("command");
    QTest::addColumn<int>("sig");
    for (const char* command : {"train", "convert", "render"})
        for (int sig : {SIGTERM, SIGKILL})
            QTest::addRow("%s %s", command, sig == SIGTERM ? "SIGTERM" : "SIGKILL") << QString(command) << sig;
}

void TestCliSignals::killedWriteKeepsOldOrNew() {
    QFETCH(QString, command);
    QFETCH(int, sig);
    const Case& c = cases_[command];
    // -1: when the temporary file appears; then fractions of an uninterrupted run, past its end included.
    const QList<int> moments = {
        0, -1, int(c.duration_ms / 4), int(c.duration_ms * 6 / 10), int(c.duration_ms), int(c.duration_ms * 13 / 10)};
    int kept_old = 0, got_new = 0, hit_write = 0, left_temp = 0;
    for (int moment : moments) {
        QTemporaryDir run;
        const QString out = run.filePath(c.name);
        writeFile(out, c.old_bytes);
        const Killed k = killAt(withOut(c.args, out), out, sig, moment);
        QVERIFY(k.pid > 0);
        hit_write += k.saw_temp;
        const QByteArray now = readFile(out);
        QVERIFY2(now == c.old_bytes || now == c.new_bytes,
                 qPrintable(QString("moment %1 ms: %2 bytes, neither the old %3 nor the new %4")
                                .arg(moment)
                                .arg(now.size())
                                .arg(c.old_bytes.size())
                                .arg(c.new_bytes.size())));
        (now == c.old_bytes ? kept_old : got_new) += 1;
        if (now == c.new_bytes && c.name.endsWith(".safetensors"))
            QVERIFY(loadModel(out.toStdString()).parameterCount() > 0);
        if (now == c.new_bytes && c.name.endsWith(".png")) QCOMPARE(completePngSize(now), QSize(4000, 4000));

        // What is left in the folder: the target, and after SIGKILL at most the killed process's temporary file.
        QStringList others = QDir(run.path()).entryList(QDir::Files | QDir::Hidden);
        others.removeOne(c.name);
        if (sig == SIGTERM) {
            QVERIFY2(others.isEmpty(), qPrintable(others.join(", ")));
            continue;
        }
        const QRegularExpression temp_of_killed("^\\." + QRegularExpression::escape(c.name) + "\\.tmp-" +
                                                QString::number(k.pid) + "-[0-9a-f]{8}$");
        for (const QString& f : others) QVERIFY2(temp_of_killed.match(f).hasMatch(), qPrintable(f));
        if (others.isEmpty()) continue;
        ++left_temp;
        // The next write of the same file removes it (its process is gone), and succeeds.
        QByteArray err;
        QVERIFY2(runToEnd(withOut(c.args, out), &err) == 0, err.constData());
        QCOMPARE(readFile(out), c.new_bytes);
        QCOMPARE(tempFilesOf(QDir(run.path()), c.name), QStringList());
    }
    qInfo("%s: %d kills kept the old file, %d found the new one complete, %d hit the write, %d left a temporary file",
          qPrintable(command), kept_old, got_new, hit_write, left_temp);
    QVERIFY(kept_old > 0);  // at least the kill at once came before any write
}

void TestCliSignals::staleTempFilesAreRemoved() {
    // A finished process's PID stands for a killed writer; the test's own PID for one that still runs.
    QProcess finished;
    finished.start(QStringLiteral(ATTNVIZ_CLI_PATH), {"--version"});
    QVERIFY(finished.waitForStarted(kTimeoutMs));
    const QString dead = QString::number(finished.processId()), alive = QString::number(::getpid());
    QVERIFY(finished.waitForFinished(kTimeoutMs));
    QTemporaryDir run;
    const QString out = run.filePath("model.safetensors");
    const QStringList planted = {".model.safetensors.tmp-" + dead + "-0badf00d",
                                 ".model.safetensors.tmp-" + alive + "-12345678",
                                 ".other.safetensors.tmp-" + dead + "-0badf00d"};
    for (const QString& f : planted) writeFile(run.filePath(f), "half a model");
    QByteArray err;
    QVERIFY2(runToEnd({"convert", "--dtype", "bf16", dir_.filePath("old.safetensors"), out}, &err) == 0,
             err.constData());
    QStringList left = QDir(run.path()).entryList(QDir::Files | QDir::Hidden);
    left.sort();
    // The dead writer's file of this target is gone; the live writer's and another target's are left alone.
    QCOMPARE(left, QStringList({".model.safetensors.tmp-" + alive + "-12345678",
                                ".other.safetensors.tmp-" + dead + "-0badf00d", "model.safetensors"}));
}

ATTNVIZ_TEST_MAIN(TestCliSignals)
#include "test_cli_signals.moc"
