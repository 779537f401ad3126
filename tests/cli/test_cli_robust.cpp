// attnviz-cli against a hostile world (docs/robustness.md), one test per row of issue 18's table: a full disk
// (the writer's fault seam, ATTNVIZ_TEST_WRITE_FAULT, set in the child's environment) for every output format and
// batch renders, a failing stdout (/dev/full) for every command, over-long sources and lines, special files,
// model files with trailing bytes, a config too big for memory, --format against the extension, terminal escapes
// in model text, training data unknown to an --init model, and blank --input lines.
#include "io/model_file.h"
#include "process_run.h"
#include "test_files.h"
#include "test_models.h"
#include "test_registry.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace attnviz;
using namespace attnviz::testing;

namespace {

using Run = ProcessRun;

// The writer's fault seam (core/io/atomic_file.h) in the child's environment, e.g. "ENOSPC:100".
RunOptions withFault(const QString& fault) { return withEnv("ATTNVIZ_TEST_WRITE_FAULT", fault); }

}  // namespace

class TestCliRobust : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void renderOnFullDiskKeepsOldFile_data();
    void renderOnFullDiskKeepsOldFile();
    void batchRenderReportsEachFailure();
    void trainOnFullDiskKeepsOldModel();
    void failingStdoutIsAnError_data();
    void failingStdoutIsAnError();
    void longSourceIsRefused();
    void longReferenceIsRefused();
    void longInputLineIsRefused();
    void specialFilesAreRefused_data();
    void specialFilesAreRefused();
    void modelWithTrailingBytesIsRefused();
    void configTooBigForMemory();
    void formatMustMatchExtension();
    void infoEscapesControlCharacters();
    void trainInitWarnsOnUnknownData();
    void blankInputLines();

private:
    QTemporaryDir dir_;
    QString model_, data_;
};

void TestCliRobust::initTestCase() {
    QVERIFY(dir_.isValid());
    model_ = saveInto(smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 21, 2.0f), dir_,
                      "additive.safetensors");
    data_ = dir_.filePath("train.tsv");
    writeFile(data_, "i love you\t我 爱 你\nthe cat sat\t猫 坐\n");
}

void TestCliRobust::renderOnFullDiskKeepsOldFile_data() {
    QTest::addColumn<QString>("ext");
    QTest::addColumn<bool>("replace");
    QTest::addColumn<QString>("fault");
    for (const char* ext : {"png", "svg", "pdf", "csv", "json"})
        for (const bool replace : {false, true})
            for (const char* fault : {"ENOSPC:0", "ENOSPC:100", "EIO:50"})
                QTest::addRow("%s %s %s", ext, replace ? "replacing" : "new", fault) << ext << replace << fault;
}

void TestCliRobust::renderOnFullDiskKeepsOldFile() {
    QFETCH(QString, ext);
    QFETCH(bool, replace);
    QFETCH(QString, fault);
    QTemporaryDir dir;
    const QString out = dir.filePath("heatmap." + ext);
    const QByteArray old = "the old file, which must survive";
    if (replace) writeFile(out, old);
    const Run r = runCli({"render", "--model", model_, "--out", out, "i love you"}, withFault(fault));
    QCOMPARE(r.code, 1);
    const QString reason = fault.startsWith("EIO") ? "Input/output error" : "No space left on device";
    QVERIFY2(r.errText().contains(out + ": cannot save: write failed: " + reason), r.err.constData());
    QVERIFY2(r.out.isEmpty(), r.out.constData());  // the path is printed only for a file written
    QCOMPARE(readFile(out), replace ? old : QByteArray("<missing>"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), replace ? 1 : 0);  // no temp left

    const Run ok = runCli({"render", "--model", model_, "--out", out, "i love you"});  // the disk is fine again
    QCOMPARE(ok.code, 0);
    QVERIFY(readFile(out).size() > 100);
}

void TestCliRobust::batchRenderReportsEachFailure() {
    QTemporaryDir dir;
    const QString input = dir.filePath("in.txt");
    writeFile(input, "i love you\nthe cat\n\nan apple\n");
    const QString out_dir = dir.filePath("out");
    const Run r = runCli({"render", "--model", model_, "--input", input, "--out-dir", out_dir, "--format", "json"},
                         withFault("ENOSPC:0"));
    QCOMPARE(r.code, 1);
    for (const char* name : {"0001.json", "0002.json", "0003.json"})
        QVERIFY2(r.errText().contains(QDir(out_dir).filePath(name) + ": cannot save: write failed"), r.err.constData());
    QVERIFY2(r.errText().contains("3 of 3 files could not be written"), r.err.constData());
    QVERIFY(QDir(out_dir).entryList(QDir::Files | QDir::Hidden).isEmpty());

    const Run ok = runCli({"render", "--model", model_, "--input", input, "--out-dir", out_dir, "--format", "json"});
    QCOMPARE(ok.code, 0);
    QCOMPARE(QDir(out_dir).entryList(QDir::Files).size(), 3);
}

void TestCliRobust::trainOnFullDiskKeepsOldModel() {
    QTemporaryDir dir;
    const QString out = dir.filePath("trained.safetensors");
    QVERIFY(QFile::copy(model_, out));
    const QByteArray before = readFile(out);
    const Run r = runCli({"train", "--data", data_, "--init", model_, "--out", out, "--steps", "1", "--quiet"},
                         withFault("ENOSPC:4096"));
    QCOMPARE(r.code, 1);
    QVERIFY2(r.errText().contains(out + ": cannot save: write failed: No space left on device"), r.err.constData());
    QCOMPARE(readFile(out), before);
}

void TestCliRobust::failingStdoutIsAnError_data() {
    QTest::addColumn<QStringList>("args");
    QTest::newRow("decode") << QStringList{"decode", "--model", "MODEL", "i love you"};
    QTest::newRow("decode --json") << QStringList{"decode", "--model", "MODEL", "--json", "i love you"};
    QTest::newRow("decode --input") << QStringList{"decode", "--model", "MODEL", "--input", "DATA"};
    QTest::newRow("decode --input --json") << QStringList{"decode", "--model", "MODEL", "--input", "DATA", "--json"};
    QTest::newRow("info") << QStringList{"info", "MODEL"};
    QTest::newRow("info --json") << QStringList{"info", "MODEL", "--json"};
    QTest::newRow("eval") << QStringList{"eval", "--model", "MODEL", "--data", "DATA"};
    QTest::newRow("train --json") << QStringList{"train", "--data",  "DATA", "--init", "MODEL",  "--out",
                                                 "OUT",   "--steps", "1",    "--json", "--quiet"};
    QTest::newRow("render (the path on stdout)") << QStringList{"render", "--model", "MODEL", "--out", "OUT.csv", "i"};
    QTest::newRow("--help") << QStringList{"decode", "--help"};
}

void TestCliRobust::failingStdoutIsAnError() {
    QFETCH(QStringList, args);
    QTemporaryDir dir;
    for (QString& a : args) {
        if (a == "MODEL") a = model_;
        if (a == "DATA") a = data_;
        if (a.startsWith("OUT")) a = dir.filePath(a == "OUT" ? "out.safetensors" : "out.csv");
    }
    const Run ok = runCli(args);
    QCOMPARE(ok.code, 0);  // the same command succeeds with a working stdout
    RunOptions to_full_disk;
    to_full_disk.stdout_file = "/dev/full";
    const Run r = runCli(args, to_full_disk);
    QCOMPARE(r.code, 1);
    QVERIFY2(r.errText().contains("cannot write to standard output: No space left on device"), r.err.constData());
}

void TestCliRobust::longSourceIsRefused() {
    const Run r = runCli({"decode", "--model", model_, "--json", words(10000, "love")});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.errText().contains("SENTENCE: the source has 10000 tokens; at most 1000 are decoded"),
             r.err.constData());
    QVERIFY(r.out.isEmpty());
    QCOMPARE(runCli({"decode", "--model", model_, "--max-source-len", "999", words(1000, "cat")}).code, 1);
    const Run at_limit = runCli({"decode", "--model", model_, "--json", words(1000, "cat")});
    QCOMPARE(at_limit.code, 0);
    QVERIFY(at_limit.out.startsWith("{"));
    const Run raised = runCli({"decode", "--model", model_, "--max-source-len", "1200", "--json", words(1100, "cat")});
    QCOMPARE(raised.code, 0);

    // Beam search keeps its tree: width 1000 over 5000 steps on 100 words (S = 102) with 16 producible target
    // tokens could keep 5000 × (1000 × 102 × 8 + 1000 × 16 × 60) bytes = 8.3 GiB (beamTreeBytes: a row and its
    // scores per expansion, 16 children of 56 + 4 bytes per expansion); a huge --max-len is bounded too.
    const Run beam = runCli({"decode", "--model", model_, "--beam", "1000", "--max-len", "5000", words(100, "cat")});
    QCOMPARE(beam.code, 1);
    QVERIFY2(beam.errText().contains("SENTENCE: --beam 1000 with at most 5000 target tokens on a source of 100 tokens "
                                     "may need up to 8.3 GiB (the limit is 4 GiB)"),
             beam.err.constData());
    const Run long_max = runCli({"decode", "--model", model_, "--max-len", "1000000", words(1000, "cat")});
    QCOMPARE(long_max.code, 1);
    QVERIFY2(long_max.errText().contains("at most 1000000 target tokens on a source of 1000 tokens may need up to"),
             long_max.err.constData());

    const Run render = runCli({"render", "--model", model_, "--out", dir_.filePath("long.csv"), words(1001, "i")});
    QCOMPARE(render.code, 1);
    QVERIFY2(render.errText().contains("the source has 1001 tokens"), render.err.constData());

    const QString data = dir_.filePath("long_eval.tsv");
    writeFile(data, "i love you\t我\n" + words(1500, "cat").toUtf8() + "\t猫\n");
    const Run eval = runCli({"eval", "--model", model_, "--data", data});
    QCOMPARE(eval.code, 1);
    QVERIFY2(eval.errText().contains(data + ":2: source: the source has 1500 tokens"), eval.err.constData());
}

void TestCliRobust::longReferenceIsRefused() {
    const Run r = runCli({"decode", "--model", model_, "--json", "--target", words(10000, "我"), words(10000, "i")});
    QCOMPARE(r.code, 1);  // refused on the source already: nothing is allocated for 10,000 x 10,000
    QVERIFY2(r.errText().contains("the source has 10000 tokens"), r.err.constData());
    const Run ref =
        runCli({"decode", "--model", model_, "--max-source-len", "3", "--target", words(100, "我"), "i love you"});
    QCOMPARE(ref.code, 1);
    QVERIFY2(ref.errText().contains(
                 "--target: the reference has 101 tokens with <eos>; at most 16 (2 * --max-source-len + 10)"),
             ref.err.constData());
}

void TestCliRobust::longInputLineIsRefused() {
    const QString input = dir_.filePath("long_line.txt");
    writeFile(input, "i love you\n" + QByteArray(10'000'000, 'x') + "\n");
    const Run r = runCli({"decode", "--model", model_, "--input", input});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.errText().contains(input + ":2: the line is 10000000 bytes long"), r.err.constData());
    const QString many = dir_.filePath("many_words.txt");
    writeFile(many, words(15000, "i").toUtf8() + "\n");  // 30 KB: under the line limit
    const Run w = runCli({"decode", "--model", model_, "--input", many});
    QCOMPARE(w.code, 1);
    QVERIFY2(w.errText().contains(many + ":1: source: the source has 15000 tokens"), w.err.constData());
}

void TestCliRobust::specialFilesAreRefused_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("flag");
    QTest::addColumn<QString>("expected");
    for (const char* flag : {"--model", "--input", "--data"}) {
        QTest::addRow("/dev/zero as %s", flag) << "zero" << flag << "is a character device, not a regular file";
        QTest::addRow("FIFO as %s", flag) << "fifo" << flag << "is a FIFO (named pipe), not a regular file";
        QTest::addRow("symlink loop as %s", flag) << "loop" << flag << "Too many levels of symbolic links";
        QTest::addRow("directory as %s", flag) << "dir" << flag << "is a directory";
    }
}

void TestCliRobust::specialFilesAreRefused() {
    QFETCH(QString, kind);
    QFETCH(QString, flag);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    QString path = dir.filePath("special");
    if (kind == "zero") path = "/dev/zero";
    if (kind == "fifo") QVERIFY(::mkfifo(QFile::encodeName(path).constData(), 0600) == 0);
    if (kind == "loop") QVERIFY(::symlink("special", QFile::encodeName(path).constData()) == 0);
    if (kind == "dir") QVERIFY(QDir(dir.path()).mkdir("special"));
    QStringList args;
    if (flag == "--model") args = {"decode", "--model", path, "i"};
    if (flag == "--input") args = {"decode", "--model", model_, "--input", path};
    if (flag == "--data") args = {"train", "--data", path, "--init", model_, "--out", dir.filePath("o.safetensors")};
    RunOptions quick;
    quick.timeout_ms = 20000;  // a FIFO that blocked would time out here
    const Run r = runCli(args, quick);
    QCOMPARE(r.code, 1);
    QVERIFY2(r.errText().contains(path + ": ") && r.errText().contains(expected), r.err.constData());
}

void TestCliRobust::modelWithTrailingBytesIsRefused() {
    for (const int extra : {1, 100, 3'000'000}) {
        const QString path = dir_.filePath(QString("trailing%1.safetensors").arg(extra));
        writeFile(path, readFile(model_) + QByteArray(extra, 'j'));
        const Run r = runCli({"info", path});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.errText().contains(QString::number(extra) + " bytes after the last tensor's data"),
                 r.err.constData());
    }
}

void TestCliRobust::configTooBigForMemory() {
    const QString config = dir_.filePath("huge.json");
    writeFile(config, R"({"decoder": "bahdanau", "score": "additive", "emb_dim": 64, "enc_hid_dim": 64,
                          "dec_hid_dim": 32768})");
    const Run r = runCli({"train", "--data", data_, "--config", config, "--out", dir_.filePath("huge.safetensors")});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.errText().contains("need at least 12.0 GiB for the weights alone") &&
                 r.errText().contains("the limit is 4.0 GiB"),
             r.err.constData());
}

void TestCliRobust::formatMustMatchExtension() {
    QTemporaryDir dir;
    const QString png = dir.filePath("f.png");
    const Run r = runCli({"render", "--model", model_, "--out", png, "--format", "svg", "i love you"});
    QCOMPARE(r.code, 2);
    QVERIFY2(r.errText().contains("--format svg does not match --out \"" + png + "\" (a .png file)"),
             r.err.constData());
    QVERIFY(!QFile::exists(png));
    // Without a known extension --format says what to write.
    const QString plain = dir.filePath("figure.out");
    QCOMPARE(runCli({"render", "--model", model_, "--out", plain, "--format", "svg", "i love you"}).code, 0);
    QVERIFY(readFile(plain).contains("<svg"));
    // Agreeing is fine.
    QCOMPARE(runCli({"render", "--model", model_, "--out", png, "--format", "png", "i"}).code, 0);
    QVERIFY(readFile(png).startsWith("\x89PNG"));
}

void TestCliRobust::infoEscapesControlCharacters() {
    Model m = smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 22);
    m.task = "\x1b]0;owned\x07";
    m.description =
        "red \x1b[31mtext\r\n and C1 \xc2\x9b"
        "2J";
    m.extra_metadata["note\x1b[2J"] = "tab\there";
    const QString path = saveInto(m, dir_, "escapes.safetensors");
    const Run r = runCli({"info", path});
    QCOMPARE(r.code, 0);
    QVERIFY2(!r.out.contains('\x1b') && !r.out.contains('\x07') && !r.out.contains('\r') && !r.out.contains("\xc2\x9b"),
             r.out.constData());
    QVERIFY2(r.out.contains("task         \\e]0;owned\\x07\n"), r.out.constData());
    QVERIFY2(r.out.contains("description  red \\e[31mtext\\r\\n and C1 \\xC2\\x9B2J\n"), r.out.constData());
    QVERIFY2(r.out.contains("metadata     note\\e[2J = tab\\there\n"), r.out.constData());
    const Run j = runCli({"info", path, "--json"});  // JSON escapes them itself
    QCOMPARE(j.code, 0);
    QVERIFY(!j.out.contains('\x1b') && j.out.contains("\\u001b]0;owned\\u0007"));
}

void TestCliRobust::trainInitWarnsOnUnknownData() {
    QTemporaryDir dir;
    const QString dates = dir.filePath("dates.tsv");
    writeFile(dates, "March 3 , 1999\t1999-03-03\nJan 1 , 2000\t2000-01-01\n");
    const Run r = runCli({"train", "--data", dates, "--init", model_, "--out", dir.filePath("o.safetensors"), "--steps",
                          "1", "--quiet"});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.errText().contains("warning: " + dates +
                                  ": 75% of the source tokens and 100% of the target tokens "
                                  "are unknown to " +
                                  model_),
             r.err.constData());
    const Run known = runCli({"train", "--data", data_, "--init", model_, "--out", dir.filePath("o.safetensors"),
                              "--steps", "1", "--quiet"});
    QCOMPARE(known.code, 0);
    QVERIFY2(!known.errText().contains("unknown to"), known.err.constData());
}

void TestCliRobust::blankInputLines() {
    QTemporaryDir dir;
    const QString empty = dir.filePath("empty.txt");
    writeFile(empty, "");
    Run r = runCli({"decode", "--model", model_, "--input", empty});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.errText().contains("warning: " + empty + ": no lines to decode"), r.err.constData());
    // A line of nothing but a tab is blank, like one of spaces: skipped, the line numbers of the others kept.
    const QString tab = dir.filePath("tab.txt");
    writeFile(tab, "\t\n   \ni love you\n");
    r = runCli({"decode", "--model", model_, "--input", tab, "--json"});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out.count('\n'), 1);
    QVERIFY(r.out.contains("\"line\":3"));
    // Text after a tab with nothing before it is an error (a reference without a source).
    const QString ref_only = dir.filePath("ref_only.txt");
    writeFile(ref_only, "\t我 爱 你\n");
    r = runCli({"decode", "--model", model_, "--input", ref_only});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.errText().contains(ref_only + ":1: empty source sentence"), r.err.constData());
}

ATTNVIZ_TEST_MAIN(TestCliRobust)
#include "test_cli_robust.moc"
