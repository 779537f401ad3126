// attnviz-cli against hostile input, second round (issue 31; docs/robustness.md): a JSON writer out of memory, a
// model header of 100,000 tensor entries (alone and beside a valid model), terminal escapes from a model, a file name
// or a corpus, a NUL in an --input line, an output that is one of the command's inputs, a --min-freq that leaves no
// word, a folder that cannot be created and Ctrl-C before the first training step.
#include "io/model_file.h"
#include "process_run.h"
#include "safetensors_bytes.h"
#include "test_files.h"
#include "test_models.h"
#include "test_registry.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <csignal>

#include <unistd.h>

using namespace attnviz;
using namespace attnviz::testing;

namespace {

using Run = ProcessRun;

// A terminal escape a model or a corpus might carry: clear the screen, retitle the window, ring the bell (lower case:
// the test models' tokenizers lowercase).
const QByteArray kEscape = "le\x1b[2j\x1b]0;pwned\x07";
// What printable (base/utf8.h) makes of it.
const QString kEscaped = "le\\e[2j\\e]0;pwned\\x07";

// No byte of a terminal control sequence: ESC, BEL, CSI (U+009B) or a NUL.
bool hasControls(const QByteArray& text) {
    return text.contains('\x1b') || text.contains('\x07') || text.contains("\xc2\x9b") || text.contains('\0');
}

// A model file whose header holds `extra` more (empty) tensor entries than the model's own: each is refused as
// "unexpected", but only after the header is parsed. Written as text: building such a header as a tree is slow.
void writeManyEntries(const Model& model, const QString& path, int extra) {
    const Parts parts = split(serializeModel(model));
    std::string header = parts.header.dump();
    header.pop_back();  // the closing brace
    for (int i = 0; i < extra; ++i)
        header += ",\"x" + std::to_string(i) + "\":{\"dtype\":\"F32\",\"shape\":[0],\"data_offsets\":[0,0]}";
    header += '}';
    writeBytes(path, rawFile(header, parts.buffer));
}

// Whether the running process `pid` ignores SIGINT (its SigIgn mask in /proc/PID/status); false once it has exited.
bool ignoresSigint(qint64 pid) {
    QFile f(QString("/proc/%1/status").arg(pid));
    if (!f.open(QIODevice::ReadOnly)) return false;
    bool ignored = false, running = true;
    for (const QByteArray& line : f.readAll().split('\n')) {
        if (line.startsWith("State:")) running = !line.contains("zombie");
        if (line.startsWith("SigIgn:"))
            ignored = line.mid(7).trimmed().toULongLong(nullptr, 16) & (quint64(1) << (SIGINT - 1));
    }
    return running && ignored;
}

}  // namespace

class TestCliHostile : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void jsonOutOfMemoryIsAnError();
    void headerCheckIsLinear();
    void siblingScanCapsTheHeader();
    void decodeEscapesTokens();
    void explainAndCompareEscapeTokens();
    void messagesEscapeFileText();
    void jsonEscapesC1Controls();
    void deeplyNestedTrainingMetadataIsShownAsText();
    void nulInInputLineIsEscaped();
    void outputOverInputIsRefused_data();
    void outputOverInputIsRefused();
    void minFreqLeavingNoWordIsRefused();
    void folderThatCannotBeCreatedNamesReason();
    void interruptBeforeFirstStepKeepsOut();

private:
    QTemporaryDir dir_;
    QString model_;
};

void TestCliHostile::initTestCase() {
    QVERIFY(dir_.isValid());
    model_ = saveInto(smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 31, 2.0f), dir_,
                      "additive.safetensors");
}

// decode --json of a forced 5,000 x 5,000 decode with 500 MB of address space. The decode itself fits (the text form
// is printed); its JSON used to be built as a tree of 25 million nodes, and out of memory the tree's destructor,
// which allocates, ended in std::terminate (SIGABRT, exit 134). Now it is written piece by piece: it fits too, or a
// run that still runs out of memory (another machine's threads and heaps) ends in "out of memory", exit 1. explain
// --json adds a method's 5,000 x 5,000 matrix to the same object, written the same way.
void TestCliHostile::jsonOutOfMemoryIsAnError() {
    RunOptions limited;
    limited.address_space_bytes = rlim_t(500) << 20;
    limited.stdout_file = "/dev/null";  // about 500 MB of JSON
    limited.timeout_ms = 180000;
    const QStringList args = {"decode",   "--model",         model_,          "--max-source-len", "100000",
                              "--target", words(5000, "我"), words(5000, "i")};
    QStringList explain = args;
    explain.replace(0, "explain");
    explain.insert(1, "--method");
    explain.insert(2, "attention");
    for (const QStringList& form : {args, args + QStringList{"--json"}, explain + QStringList{"--json"}}) {
        const Run r = runCli(form, limited);
        QVERIFY2(r.code == 0 || (r.code == 1 && r.errText().contains("out of memory")),
                 qPrintable(form.last() + QString(": exit %1: ").arg(r.code) + r.errText()));
    }
    // The comparison's JSON (render --with): three 3,000 x 3,000 matrices, written piece by piece too (as a tree of
    // 27 million nodes it ended in std::terminate).
    QTemporaryDir dir;
    const QStringList pair = {"render",
                              "--model",
                              model_,
                              "--with",
                              model_,
                              "--max-source-len",
                              "100000",
                              "--target",
                              words(3000, "我"),
                              "--out",
                              dir.filePath("pair.json"),
                              words(3000, "i")};
    const Run r = runCli(pair, limited);
    QVERIFY2(r.code == 0 || (r.code == 1 && r.errText().contains("out of memory")),
             qPrintable(QString("render --with: exit %1: ").arg(r.code) + r.errText()));
}

// 100,000 tensor entries (a 7 MB header) cost the quadratic check of before minutes (50,000 took 24 s); a linear one
// a fraction of a second. Nothing is timed: the runs have a CPU-time limit of 20 s, far above the linear cost, and a
// run past it is killed (SIGXCPU).
void TestCliHostile::headerCheckIsLinear() {
    QTemporaryDir dir;
    const Model m = smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 32);
    const QString good = saveInto(m, dir, "good.safetensors");
    const QString hostile = dir.filePath("hostile.safetensors");
    writeManyEntries(m, hostile, 100000);
    RunOptions bounded;
    bounded.cpu_seconds = 20;
    const Run own = runCli({"info", hostile}, bounded);
    QCOMPARE(own.code, 1);
    QVERIFY2(own.errText().contains(hostile + ": unexpected tensor \"x"), own.err.constData());
    // A valid model beside it: its sibling scan passes the hostile file by, unread.
    const Run info = runCli({"info", good}, bounded);
    QCOMPARE(info.code, 0);
    QVERIFY2(info.outText().contains("siblings     1 model with this task"), info.out.constData());
    const Run score = runCli({"decode", "--model", good, "--score", "dot", "i love you"}, bounded);
    QCOMPARE(score.code, 1);
    QVERIFY2(score.errText().contains("no sibling model trained with score \"dot\""), score.err.constData());
}

// A sibling has the model's vocabularies, which make most of a header: a file whose header is longer than twice the
// model's own plus 1 MiB is not read by the sibling scan. Here it is a real sibling padded with spaces (valid JSON,
// loadable), so that reading it would show.
void TestCliHostile::siblingScanCapsTheHeader() {
    QTemporaryDir dir;
    const QString a =
        saveInto(smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 33), dir, "a.safetensors");
    saveInto(smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Dot), 34), dir, "dot.safetensors");
    const QByteArray a_bytes = readFile(a);
    const uint64_t own = headerLength(Bytes(a_bytes.begin(), a_bytes.end()));
    const Parts general = split(serializeModel(smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::General), 35)));
    const QString padded = dir.filePath("general.safetensors");
    writeBytes(padded, rawFile(general.header.dump() + std::string(2 * own + (1 << 20) + 8, ' '), general.buffer));
    QCOMPARE(runCli({"info", padded}).code, 0);  // a valid model in itself

    const Run info = runCli({"info", a});
    QCOMPARE(info.code, 0);
    QVERIFY2(info.outText().contains("siblings     2 models") && info.outText().contains("dot.safetensors") &&
                 !info.outText().contains("general.safetensors"),
             info.out.constData());
    QCOMPARE(runCli({"decode", "--model", a, "--score", "dot", "i"}).code, 0);
    const Run general_score = runCli({"decode", "--model", a, "--score", "general", "i"});
    QCOMPARE(general_score.code, 1);
    QVERIFY2(general_score.errText().contains("no sibling model trained with score \"general\""),
             general_score.err.constData());
}

// A target token and a source word with a terminal escape in them: the output line and the table show it escaped.
void TestCliHostile::decodeEscapesTokens() {
    const Run r = runCli({"decode", "--model", model_, "--target", QString::fromUtf8(kEscape + " 我"), "i love you"});
    QCOMPARE(r.code, 0);
    QVERIFY2(!hasControls(r.out), r.out.constData());
    QVERIFY2(r.outText().contains("output   " + kEscaped + " 我\n"), r.out.constData());
    QVERIFY2(r.outText().contains(kEscaped + "(unk)"), r.out.constData());  // its row of the table
    QTemporaryDir dir;
    const QString input = dir.filePath("in.txt");
    writeFile(input, "i " + kEscape + " you\n");
    const Run in = runCli({"decode", "--model", model_, "--input", input});
    QCOMPARE(in.code, 0);
    QVERIFY2(!hasControls(in.out) && in.outText().contains("\\e"), in.out.constData());
}

// The same tokens in explain's tables and compare's lines (a corpus line's reference forced on both models).
void TestCliHostile::explainAndCompareEscapeTokens() {
    const QString target = QString::fromUtf8(kEscape + " 我");
    const Run explain = runCli({"explain", "--model", model_, "--method", "attention", "--target", target, "i love"});
    QCOMPARE(explain.code, 0);
    QVERIFY2(!hasControls(explain.out) && explain.outText().contains(kEscaped), explain.out.constData());
    QTemporaryDir dir;
    const QString data = dir.filePath("pairs.tsv");
    writeFile(data, "i " + kEscape + " you\t" + kEscape + " 我\n");
    const Run compare = runCli({"compare", "--model", model_, "--with", model_, "--data", data});
    QCOMPARE(compare.code, 0);
    QVERIFY2(!hasControls(compare.out) && compare.outText().contains(kEscaped), compare.out.constData());
}

// Error messages quote a model's metadata, a sibling's file name and a corpus's alignment field: escaped.
void TestCliHostile::messagesEscapeFileText() {
    QTemporaryDir dir;
    const Model m = smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 36);
    Parts parts = split(serializeModel(m));
    parts.header["__metadata__"]["format"] = "\x1b]0;pwned\x07\x1b[2J";
    const QString bad_format = dir.filePath("format.safetensors");
    writeBytes(bad_format, join(parts));
    const Run format = runCli({"info", bad_format});
    QCOMPARE(format.code, 1);
    QVERIFY2(!hasControls(format.err) && format.errText().contains("metadata format is \"\\e]0;pwned\\x07\\e[2J\""),
             format.err.constData());

    QTemporaryDir folder;
    const QString a = saveInto(m, folder, "a.safetensors");
    saveInto(smallModel(smallConfig(DecoderKind::Luong, ScoreKind::General), 37), folder,
             QString::fromUtf8("\x1b]0;sib\x07.safetensors"));
    const Run sibling = runCli({"decode", "--model", a, "--score", "dot", "i"});
    QCOMPARE(sibling.code, 1);
    QVERIFY2(!hasControls(sibling.err) && sibling.errText().contains("\\e]0;sib\\x07.safetensors (luong"),
             sibling.err.constData());

    const QString data = dir.filePath("aligned.tsv");
    writeFile(data, "i love you\t我 爱 你\t0-0 " + kEscape + "\n");
    const Run align = runCli({"train", "--data", data, "--init", model_, "--out", dir.filePath("o.safetensors")});
    QCOMPARE(align.code, 1);
    QVERIFY2(!hasControls(align.err) && align.errText().contains("bad alignment link \"" + kEscaped + "\""),
             align.err.constData());
}

// JSON writes C1 controls (U+0080..U+009F: U+009B is CSI) as \u0080..\u009f, as it writes C0 ones.
void TestCliHostile::jsonEscapesC1Controls() {
    Model m = smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 38);
    m.description =
        "C1 \xc2\x9b"
        "2J and \xc2\x85";
    QTemporaryDir dir;
    const Run info = runCli({"info", saveInto(m, dir, "c1.safetensors"), "--json"});
    QCOMPARE(info.code, 0);
    QVERIFY2(!hasControls(info.out) && info.out.contains("C1 \\u009b2J and \\u0085"), info.out.constData());
    const Run decode = runCli({"decode", "--model", model_, "--json", "--target",
                               "a\xc2\x9b"
                               "b",
                               "i"});
    QCOMPARE(decode.code, 0);
    QVERIFY2(!hasControls(decode.out) && decode.out.contains("\"a\\u009bb\""), decode.out.constData());
    // the comparison's JSON (render --with, the window's comparison export) too
    const QString json_path = dir.filePath("pair.json");
    const Run pair = runCli({"render", "--model", model_, "--with", model_, "--target",
                             "a\xc2\x9b"
                             "b",
                             "--out", json_path, "i"});
    QCOMPARE(pair.code, 0);
    QFile f(json_path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray written = f.readAll();
    QVERIFY2(!hasControls(written) && written.contains("a\\u009bb"), written.constData());
}

// "training" metadata nested 200,000 deep: info shows it as its text (the JSON writer recurses once per level, and
// used to overflow the stack), in text and in JSON.
void TestCliHostile::deeplyNestedTrainingMetadataIsShownAsText() {
    Model m = smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 39);
    m.training = std::string(200000, '[') + std::string(200000, ']');
    QTemporaryDir dir;
    const QString path = saveInto(m, dir, "deep.safetensors");
    const Run json = runCli({"info", path, "--json"});
    QCOMPARE(json.code, 0);
    QVERIFY(nlohmann::json::parse(json.out.toStdString())["training"].is_string());
    const Run text = runCli({"info", path});
    QCOMPARE(text.code, 0);
}

// A NUL inside an --input line is escaped in the text output, which goes on to the next line; JSON has \u0000.
void TestCliHostile::nulInInputLineIsEscaped() {
    QTemporaryDir dir;
    const QString input = dir.filePath("nul.txt");
    writeFile(input, QByteArray("the cat\0sees\ni love you\n", 24));
    const Run r = runCli({"decode", "--model", model_, "--input", input});
    QCOMPARE(r.code, 0);
    QVERIFY2(!r.out.contains('\0') && r.outText().contains("\\x00"), r.out.constData());
    QCOMPARE(r.out.count("output   "), 2);
    QVERIFY2(r.out.contains("line 2\n"), r.out.constData());
    const Run j = runCli({"decode", "--model", model_, "--input", input, "--json"});
    QCOMPARE(j.code, 0);
    QVERIFY2(j.out.contains("\\u0000") && j.out.count('\n') == 2, j.out.constData());
}

void TestCliHostile::outputOverInputIsRefused_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("victim");  // the input written over
    QTest::addColumn<QString>("flag");    // its flag, named by the message
    QTest::newRow("render --out the model")
        << QStringList{"render", "--model", "MODEL", "--out", "MODEL", "--format", "csv", "i love you"} << "MODEL"
        << "--model";
    QTest::newRow("render --out a hard link of the model")
        << QStringList{"render", "--model", "MODEL", "--out", "HARD_MODEL", "i love you"} << "MODEL"
        << "--model";
    QTest::newRow("render --out a symlink to the model")
        << QStringList{"render", "--model", "MODEL", "--out", "SYM_MODEL", "i love you"} << "MODEL"
        << "--model";
    QTest::newRow("decode --tree the model")
        << QStringList{"decode", "--model", "MODEL", "--tree", "MODEL", "--beam", "2", "i love you"} << "MODEL"
        << "--model";
    QTest::newRow("decode --tree a symlink to the model")
        << QStringList{"decode", "--model", "MODEL", "--tree", "SYM_TREE", "--beam", "2", "i love you"} << "MODEL"
        << "--model";
    QTest::newRow("train --out the data")
        << QStringList{"train", "--data", "DATA", "--init", "MODEL", "--out", "DATA", "--steps", "1", "--quiet"}
        << "DATA"
        << "--data";
    QTest::newRow("train --out a hard link of the data")
        << QStringList{"train", "--data", "DATA", "--init", "MODEL", "--out", "HARD_DATA", "--steps", "1", "--quiet"}
        << "DATA"
        << "--data";
    QTest::newRow("render --input DIR/0001.csv --out-dir DIR")
        << QStringList{"render", "--model", "MODEL", "--input", "INPUT", "--out-dir", "INPUT_DIR", "--format", "csv"}
        << "INPUT"
        << "--input";
    QTest::newRow("render --input a hard link of DIR/0001.csv --out-dir DIR")
        << QStringList{"render",    "--model",   "MODEL",    "--input", "HARD_INPUT",
                       "--out-dir", "INPUT_DIR", "--format", "csv"}
        << "HARD_INPUT"
        << "--input";
}

// An output that is one of the command's inputs (the same device and inode: hard links and symlinks too) is refused
// before anything is written; the input keeps its bytes.
void TestCliHostile::outputOverInputIsRefused() {
    QFETCH(QStringList, args);
    QFETCH(QString, victim);
    QFETCH(QString, flag);
    QTemporaryDir dir;
    QMap<QString, QString> paths = {
        {"MODEL", dir.filePath("m.safetensors")},        {"DATA", dir.filePath("d.tsv")},
        {"HARD_MODEL", dir.filePath("hard.png")},        {"SYM_MODEL", dir.filePath("sym.svg")},
        {"HARD_DATA", dir.filePath("hard.safetensors")}, {"INPUT_DIR", dir.filePath("batch")},
        {"INPUT", dir.filePath("batch/0001.csv")},       {"SYM_TREE", dir.filePath("tree.json")},
        {"HARD_INPUT", dir.filePath("lines.txt")}};
    QVERIFY(QFile::copy(model_, paths["MODEL"]));
    writeFile(paths["DATA"], "i love you\t我 爱 你\nthe cat sat\t猫 坐\n");
    QVERIFY(QDir(dir.path()).mkdir("batch"));
    writeFile(paths["INPUT"], "i love you\n");
    QVERIFY(::link(qPrintable(paths["MODEL"]), qPrintable(paths["HARD_MODEL"])) == 0);
    QVERIFY(::symlink("m.safetensors", qPrintable(paths["SYM_MODEL"])) == 0);
    QVERIFY(::link(qPrintable(paths["DATA"]), qPrintable(paths["HARD_DATA"])) == 0);
    QVERIFY(::symlink("m.safetensors", qPrintable(paths["SYM_TREE"])) == 0);
    QVERIFY(::link(qPrintable(paths["INPUT"]), qPrintable(paths["HARD_INPUT"])) == 0);
    for (QString& a : args) a = paths.value(a, a);
    const QByteArray before = readFile(paths[victim]);

    const Run r = runCli(args);
    QCOMPARE(r.code, 1);
    QVERIFY2(r.errText().contains("is the same file as " + flag + " " + paths[victim] + ", an input of this command"),
             r.err.constData());
    QCOMPARE(readFile(paths[victim]), before);
}

// --min-freq that leaves a side with the four specials alone would train a model that writes <unk> for everything.
void TestCliHostile::minFreqLeavingNoWordIsRefused() {
    QTemporaryDir dir;
    const QString config = dir.filePath("config.json"), out = dir.filePath("o.safetensors");
    writeFile(config,
              R"({"decoder": "bahdanau", "score": "additive", "emb_dim": 8, "enc_hid_dim": 8, "dec_hid_dim": 16})");
    const QString data = dir.filePath("d.tsv");
    writeFile(data, "i love you\t我 爱 你\nthe cat sat\t猫 坐\n");
    const Run r = runCli({"train", "--config", config, "--data", data, "--out", out, "--min-freq", "1000000"});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.errText().contains(data + ": the minimum frequency 1000000 leaves no source token: all 6 distinct "
                                         "source tokens are seen fewer than 1000000 times"),
             r.err.constData());
    // Source words common enough, target words not.
    const QString rare = dir.filePath("rare.tsv");
    writeFile(rare, "a b\tx1\na b\tx2\na b\tx3\n");
    const Run t = runCli({"train", "--config", config, "--data", rare, "--out", out, "--min-freq", "3"});
    QCOMPARE(t.code, 1);
    QVERIFY2(t.errText().contains("the minimum frequency 3 leaves no target token: all 3 distinct target tokens"),
             t.err.constData());
    QVERIFY(!QFile::exists(out));
}

// A folder that cannot be created names the operating system's reason, as the writer's other errors do.
void TestCliHostile::folderThatCannotBeCreatedNamesReason() {
    QTemporaryDir dir;
    const QString file = dir.filePath("file"), input = dir.filePath("in.txt");
    writeFile(file, "a file, not a folder");
    writeFile(input, "i love you\n");
    const QString out_dir = file + "/sub";
    const Run r = runCli({"render", "--model", model_, "--input", input, "--out-dir", out_dir, "--format", "csv"});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.errText().contains(out_dir + ": cannot create the folder: Not a directory"), r.err.constData());
}

// Ctrl-C after `train` set its handler and before the first step ends: no step was made, so --out keeps its bytes
// (it was replaced by an untrained copy of --init). SIGINT is ignored in the child until train sets its own handler
// (SigIgn in /proc/PID/status), so that the signal comes after that; the moment before the first step is short, so
// the test tries until one run is interrupted there ("at step 0" before the fix).
void TestCliHostile::interruptBeforeFirstStepKeepsOut() {
    QTemporaryDir dir;
    // A model of some megabytes: training's set-up (gradients, Adam's moments) takes a few milliseconds.
    const QString init = saveInto(
        smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive, SpanKind::Global, false, 128, 256, 512), 39),
        dir, "init.safetensors");
    const QString data = dir.filePath("d.tsv"), out = dir.filePath("out.safetensors");
    QByteArray tsv;
    for (int i = 0; i < 200; ++i) tsv += "i love you\t我 爱 你\nthe cat sat\t猫 坐\n";
    writeFile(data, tsv);
    writeFile(out, "the model already at --out, which must survive");
    const QByteArray before = readFile(out);
    int before_first_step = 0;
    for (int attempt = 0; attempt < 8 && before_first_step == 0; ++attempt) {
        QProcess p;
        RunOptions options;
        options.ignore_sigint = true;
        setChildLimits(p, options);
        p.start(QStringLiteral(ATTNVIZ_CLI_PATH), {"train", "--init", init, "--data", data, "--out", out, "--quiet"});
        QVERIFY(p.waitForStarted());
        QElapsedTimer clock;
        clock.start();
        while (ignoresSigint(p.processId()) && clock.elapsed() < 60000) {}
        ::kill(pid_t(p.processId()), SIGINT);
        QVERIFY(p.waitForFinished(120000));
        const QByteArray err = p.readAllStandardError();
        QCOMPARE(p.exitCode(), 1);
        if (err.contains("at step 0") || err.contains("before the first step")) {
            ++before_first_step;
            QVERIFY2(err.contains("interrupted before the first step; nothing was trained and " + out.toUtf8() +
                                  " was not written (it is kept as it was)"),
                     err.constData());
            QCOMPARE(readFile(out), before);
        } else {
            writeFile(out, before);  // interrupted after a step: the model trained so far was written, as it should
        }
    }
    QVERIFY2(before_first_step > 0, "no run was interrupted before its first step");
}

ATTNVIZ_TEST_MAIN(TestCliHostile)
#include "test_cli_hostile.moc"
