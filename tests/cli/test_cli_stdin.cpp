// `-` for standard input (docs/cli.md, docs/robustness.md): decode and render --input -, eval and train --data -
// read what the test pipes in exactly as they read the same bytes from a file, with the same bounds (64 KiB per
// line, --max-source-len) and errors that name "<stdin>" and the line; a path that must be a file refuses `-`.
#include "io/model_file.h"
#include "process_run.h"
#include "test_files.h"
#include "test_models.h"
#include "test_registry.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace attnviz;
using namespace attnviz::testing;

namespace {

ProcessRun cliWithInput(const QStringList& args, const QByteArray& input) {
    return runProcessWithInput(QStringLiteral(ATTNVIZ_CLI_PATH), args, input);
}

// The same JSON object without the keys that differ by nature between two runs (timing, the data's name).
QJsonObject withoutRunKeys(const QByteArray& json_line) {
    QJsonObject o = QJsonDocument::fromJson(json_line).object();
    o.remove("seconds");
    o.remove("data");
    return o;
}

}  // namespace

class TestCliStdin : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void decodeInputFromStdin();
    void stdinLineTooLong();
    void stdinSourceTooLong();
    void stdinEmptyOrInvalid();
    void evalDataFromStdin();
    void renderInputFromStdin();
    void trainDataFromStdin();
    void stdinOnlyWhereATextIsRead();

private:
    QTemporaryDir dir_;
    QString model_;
    const QByteArray input_ = "i love you\n\nthe cat sat\t猫 坐\nyou love the cat\n";
    const QByteArray corpus_ = "i love you\t我 爱 你\nthe cat sat\t猫 坐\t0-0 1-0\n";
};

void TestCliStdin::initTestCase() {
    QVERIFY(dir_.isValid());
    model_ = saveInto(smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 21, 2.0f), dir_,
                      "additive.safetensors");
}

void TestCliStdin::decodeInputFromStdin() {
    const QString file = dir_.filePath("input.txt");
    writeFile(file, input_);
    for (const QStringList& extra : {QStringList{"--json"}, QStringList{}}) {
        const ProcessRun from_file = runCli(QStringList{"decode", "--model", model_, "--input", file} + extra);
        const ProcessRun piped = cliWithInput(QStringList{"decode", "--model", model_, "--input", "-"} + extra, input_);
        QCOMPARE(from_file.code, 0);
        QCOMPARE(piped.code, 0);
        QVERIFY2(piped.err.isEmpty(), piped.err.constData());
        QCOMPARE(piped.out, from_file.out);
    }
    // The blank line 2 is skipped; the JSON lines keep the input's line numbers; line 3 is forced on its reference.
    const ProcessRun json = cliWithInput({"decode", "--model", model_, "--input", "-", "--json"}, input_);
    const QList<QByteArray> lines = json.out.trimmed().split('\n');
    QCOMPARE(lines.size(), 3);
    QCOMPARE(QJsonDocument::fromJson(lines[0]).object().value("line").toInt(), 1);
    QCOMPARE(QJsonDocument::fromJson(lines[1]).object().value("line").toInt(), 3);
    QCOMPARE(QJsonDocument::fromJson(lines[1]).object().value("target_tokens").toVariant().toStringList(),
             QStringList({"猫", "坐", "<eos>"}));
}

void TestCliStdin::stdinLineTooLong() {
    // As /dev/zero would: no newline at all. Reading stops at the line limit, long before the input ends.
    ProcessRun r = cliWithInput({"decode", "--model", model_, "--input", "-"}, QByteArray(8'000'000, '\0'));
    QCOMPARE(r.code, 1);
    QVERIFY2(r.errText().contains("<stdin>:1: the line is more than 65536 bytes long; lines of at most 65536 bytes "
                                  "are read"),
             r.err.constData());
    QVERIFY(r.out.isEmpty());
    // The third line too long, after two good ones; a line of exactly the limit (plus CR LF) is read.
    const QByteArray at_limit = QByteArray(65536 - 4, ' ') + "i i\r\n";
    r = cliWithInput({"decode", "--model", model_, "--input", "-", "--json"},
                     "i love you\n" + at_limit + QByteArray(70'000, 'y') + "\nthe cat\n");
    QCOMPARE(r.code, 1);
    QVERIFY2(r.errText().contains("<stdin>:3: the line is"), r.err.constData());
    r = cliWithInput({"decode", "--model", model_, "--input", "-", "--json"}, "i love you\n" + at_limit);
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out.count('\n'), 2);
}

void TestCliStdin::stdinSourceTooLong() {
    QByteArray line = "the";
    for (int i = 1; i < 50; ++i) line += " the";
    const ProcessRun r =
        cliWithInput({"decode", "--model", model_, "--input", "-", "--max-source-len", "10"}, "i love you\n" + line);
    QCOMPARE(r.code, 1);
    QVERIFY2(r.errText().contains("<stdin>:2: source: the source has 50 tokens; at most 10 are decoded"),
             r.err.constData());
    // The same line within a larger bound is decoded.
    const ProcessRun ok = cliWithInput({"decode", "--model", model_, "--input", "-", "--max-source-len", "50"}, line);
    QCOMPARE(ok.code, 0);
}

void TestCliStdin::stdinEmptyOrInvalid() {
    ProcessRun r = cliWithInput({"decode", "--model", model_, "--input", "-"}, "");
    QCOMPARE(r.code, 0);
    QVERIFY2(r.errText().contains("warning: <stdin>: no lines to decode"), r.err.constData());
    r = cliWithInput({"decode", "--model", model_, "--input", "-"}, "i love you\nthe \xff cat\n");
    QCOMPARE(r.code, 1);
    QVERIFY2(r.errText().contains("<stdin>:2: invalid UTF-8"), r.err.constData());
    r = cliWithInput({"eval", "--model", model_, "--data", "-"}, "\n  \n");
    QCOMPARE(r.code, 1);
    QVERIFY2(r.errText().contains("<stdin>: no examples"), r.err.constData());
}

void TestCliStdin::evalDataFromStdin() {
    const QString file = dir_.filePath("eval.tsv");
    writeFile(file, corpus_);
    const ProcessRun from_file = runCli({"eval", "--model", model_, "--data", file, "--json", "--threads", "1"});
    const ProcessRun piped =
        cliWithInput({"eval", "--model", model_, "--data", "-", "--json", "--threads", "1"}, corpus_);
    QCOMPARE(from_file.code, 0);
    QCOMPARE(piped.code, 0);
    const QJsonObject a = withoutRunKeys(from_file.out), b = withoutRunKeys(piped.out);
    QCOMPARE(b.value("lines").toInt(), 2);
    QCOMPARE(b.value("aligned_lines").toInt(), 1);
    QCOMPARE(b, a);
    QCOMPARE(QJsonDocument::fromJson(piped.out).object().value("data").toString(), QString("-"));
    // The readable report names standard input; a bad alignment names its line there.
    const ProcessRun text = cliWithInput({"eval", "--model", model_, "--data", "-"}, corpus_);
    QCOMPARE(text.code, 0);
    QVERIFY2(text.out.contains("data            <stdin>: 2 lines (1 with alignments)"), text.out.constData());
    const ProcessRun bad = cliWithInput({"eval", "--model", model_, "--data", "-"}, corpus_ + "you\t你\t0-x\n");
    QCOMPARE(bad.code, 1);
    QVERIFY2(bad.errText().contains("<stdin>:3: bad alignment link \"0-x\""), bad.err.constData());
}

void TestCliStdin::renderInputFromStdin() {
    const QString file = dir_.filePath("render.txt");
    writeFile(file, input_);
    const QString a = dir_.filePath("from_file"), b = dir_.filePath("from_stdin");
    const ProcessRun from_file =
        runCli({"render", "--model", model_, "--input", file, "--out-dir", a, "--format", "json"});
    const ProcessRun piped =
        cliWithInput({"render", "--model", model_, "--input", "-", "--out-dir", b, "--format", "json"}, input_);
    QCOMPARE(from_file.code, 0);
    QCOMPARE(piped.code, 0);
    const QStringList names = QDir(b).entryList(QDir::Files);
    QCOMPARE(names, QStringList({"0001.json", "0002.json", "0003.json"}));
    for (const QString& n : names) QCOMPARE(readFile(QDir(b).filePath(n)), readFile(QDir(a).filePath(n)));
    const ProcessRun bad = cliWithInput(
        {"render", "--model", model_, "--input", "-", "--out-dir", dir_.filePath("bad"), "--format", "json"},
        "i love you\n\txx\n");
    QCOMPARE(bad.code, 1);
    QVERIFY2(bad.errText().contains("<stdin>:2: empty source sentence"), bad.err.constData());
}

void TestCliStdin::trainDataFromStdin() {
    const QString file = dir_.filePath("train.tsv");
    writeFile(file, corpus_);
    const QString a = dir_.filePath("a.safetensors"), b = dir_.filePath("b.safetensors");
    const QStringList common = {"--init", model_, "--steps", "2", "--threads", "1", "--quiet", "--json"};
    const ProcessRun from_file = runCli(QStringList{"train", "--data", file, "--out", a} + common);
    const ProcessRun piped = cliWithInput(QStringList{"train", "--data", "-", "--out", b} + common, corpus_);
    QCOMPARE(from_file.code, 0);
    QCOMPARE(piped.code, 0);
    QCOMPARE(QJsonDocument::fromJson(piped.out).object().value("examples").toInt(), 2);
    // The same data gives the same weights; the training record names standard input.
    const Model ma = loadModel(a.toStdString()), mb = loadModel(b.toStdString());
    QCOMPARE(ma.parameterCount(), mb.parameterCount());
    QVERIFY(ma.params.enc_embedding == mb.params.enc_embedding);
    QVERIFY(ma.params.fc_out_w == mb.params.fc_out_w);
    QVERIFY(!(ma.params.fc_out_w == loadModel(model_.toStdString()).params.fc_out_w));  // training changed them
    QVERIFY2(QString::fromStdString(mb.training).contains("\"data\":\"<stdin>\""), mb.training.c_str());
    // Standard input is read once: two flags cannot both take it.
    const ProcessRun twice =
        cliWithInput({"train", "--data", "-", "--valid", "-", "--init", model_, "--out", b}, corpus_);
    QCOMPARE(twice.code, 2);
    QVERIFY2(twice.errText().contains("only one of --data, --valid and --config can be -"), twice.err.constData());
}

void TestCliStdin::stdinOnlyWhereATextIsRead() {
    // A model is checked as a file before it is read: `-` is refused by name, without waiting for input.
    const ProcessRun r = cliWithInput({"decode", "--model", "-", "i love you"}, readFile(model_));
    QCOMPARE(r.code, 1);
    QVERIFY2(r.errText().contains("-: standard input cannot be read here; give a file"), r.err.constData());
}

ATTNVIZ_TEST_MAIN(TestCliStdin)
#include "test_cli_stdin.moc"
