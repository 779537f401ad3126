// attnviz-cli against hostile input, third round (issue 44, "Hostile CLI, round 3"; docs/robustness.md): a render
// that crashed at exit, paths and flags that reached the terminal or the CPU unchecked, and corpus commands that held
// every line until the end.
#include "process_run.h"
#include "test_files.h"
#include "test_models.h"
#include "test_registry.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

using namespace attnviz;
using namespace attnviz::testing;

namespace {

// compareDataIsStreamed: the lines of its file and the address space it runs in.
constexpr int kStreamedLines = 6000;
constexpr int kStreamedLimitMb = 400;

}  // namespace

class TestCliHostileRound3 : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void renderKnockoutExitsCleanly_data();
    void renderKnockoutExitsCleanly();
    void renderEscapesWrittenPaths();
    void attendCheckIsLinear();
    void compareDataIsStreamed();
    void interventionsAreNamedOnceForInput();

private:
    QTemporaryDir dir_;
    QString rnn_, transformer_;
};

void TestCliHostileRound3::initTestCase() {
    QVERIFY(dir_.isValid());
    rnn_ = saveInto(smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 441, 2.0f), dir_,
                    "rnn.safetensors");
    transformer_ = saveInto(smallTransformer(442), dir_, "transformer.safetensors");
}

void TestCliHostileRound3::renderKnockoutExitsCleanly_data() { addKindRows(); }

// render --knockout draws the struck column with a pattern brush; the QApplication was a static destroyed at exit
// after Qt's own global objects, and every such run ended in a segfault (exit 139 in a shell) after writing its file.
// Both kinds, one file of each image format and an --out-dir batch: exit 0 and whole files.
void TestCliHostileRound3::renderKnockoutExitsCleanly() {
    QFETCH(int, kind);
    const QString model = DecoderKind(kind) == DecoderKind::Transformer ? transformer_ : rnn_;
    QTemporaryDir dir;
    for (const QString ext : {"png", "svg", "pdf"}) {
        const QString out = dir.filePath("one." + ext);
        const ProcessRun r = runCli({"render", "--model", model, "--knockout", "2", "--out", out, "i love you"});
        QVERIFY2(r.code == 0, qPrintable(ext + QString(": exit %1: ").arg(r.code) + r.errText()));
        QCOMPARE(r.outText(), out + "\n");
        const QByteArray bytes = readFile(out);
        if (ext == "png") {
            QVERIFY(bytes.startsWith("\x89PNG\r\n\x1a\n") && bytes.endsWith(QByteArray("IEND\xae\x42\x60\x82", 8)));
            QCOMPARE(be32(bytes, 16), 1600u);  // the default --width and --height
            QCOMPARE(be32(bytes, 20), 1200u);
        } else if (ext == "svg") {
            QVERIFY2(bytes.contains("<svg") && bytes.trimmed().endsWith("</svg>"), bytes.left(200).constData());
        } else {
            QVERIFY(bytes.startsWith("%PDF-") && bytes.trimmed().endsWith("%%EOF"));
        }
    }
    const QString input = dir.filePath("lines.txt");
    writeFile(input, "i love you\nthe cat sat on the mat\n");
    const ProcessRun batch = runCli({"render", "--model", model, "--knockout", "1,2", "--input", input, "--out-dir",
                                     dir.filePath("batch"), "--format", "svg"});
    QVERIFY2(batch.code == 0, qPrintable(QString("batch: exit %1: ").arg(batch.code) + batch.errText()));
    for (const QString name : {"0001.svg", "0002.svg"})
        QVERIFY(readFile(dir.filePath("batch/" + name)).trimmed().endsWith("</svg>"));
}

// An --out (and an --out-dir) named with an ESC and a BEL: the files are written under those names, and the paths
// printed on stdout show them escaped (printable), as every file name that reaches a terminal.
void TestCliHostileRound3::renderEscapesWrittenPaths() {
    QTemporaryDir dir;
    const QString name = QString::fromUtf8("x\x1b]0;pwned\x07");
    const ProcessRun one = runCli({"render", "--model", rnn_, "--out", dir.filePath(name + ".csv"), "i love you"});
    QCOMPARE(one.code, 0);
    QVERIFY(QFile::exists(dir.filePath(name + ".csv")));
    QVERIFY2(!one.out.contains('\x1b') && !one.out.contains('\x07'), one.out.constData());
    QCOMPARE(one.outText(), dir.filePath("x\\e]0;pwned\\x07.csv") + "\n");
    const QString input = dir.filePath("in.txt");
    writeFile(input, "i love you\n");
    const ProcessRun batch =
        runCli({"render", "--model", rnn_, "--input", input, "--out-dir", dir.filePath(name), "--format", "json"});
    QCOMPARE(batch.code, 0);
    QVERIFY(QFile::exists(dir.filePath(name + "/0001.json")));
    QCOMPARE(batch.outText(), dir.filePath("x\\e]0;pwned\\x07/0001.json") + "\n");
}

// 220,000 --attend flags on rows 0 .. 219,999 and one more for row 0 (a command line of 5.7 MB, near the 6 MB exec
// takes; the child's stack limit is raised past its default share of 2 MB). Two attends of a row were found by
// comparing every pair: 60,000 flags took 0.4 s of CPU, 200,000 took 4.8 s; sorted by row, 200,000 take 0.03 s.
// Nothing is timed: a limit of 2 s of CPU time kills the quadratic check (SIGXCPU), not the linear one. The pair is
// the one of before: the first attend of the row and the second.
void TestCliHostileRound3::attendCheckIsLinear() {
    QStringList args = {"decode", "--model", rnn_, "--max-len", "1000000"};
    for (int t = 0; t < 220000; ++t) args << QString("--attend=%1:1").arg(t);
    args << "--attend=0:2"
         << "i love you";
    RunOptions bounded;
    bounded.cpu_seconds = 2;
    bounded.stack_bytes = rlim_t(256) << 20;
    const ProcessRun r = runCli(args, bounded);
    QVERIFY2(r.code == 1, qPrintable(QString("exit %1: ").arg(r.code) + r.errText().left(300)));
    QVERIFY2(r.errText().contains("attend: row 0 is given twice (positions 1 and 2)"), r.err.constData());
    // Rows that differ pass the check: a decode with an attend on each of its first 3 rows.
    const ProcessRun fine = runCli(
        {"decode", "--model", rnn_, "--json", "--attend", "2:3", "--attend", "0:1", "--attend", "1:2", "i love you"});
    QCOMPARE(fine.code, 0);
    const nlohmann::json j = nlohmann::json::parse(fine.out.toStdString());
    for (const auto& [row, position] : {std::pair{0, 1}, std::pair{1, 2}, std::pair{2, 3}})
        if (size_t(row) < j["attention"].size())
            QCOMPARE(j["attention"][size_t(row)][size_t(position)].get<double>(), 1.0);
}

// decode --input in text names the interventions once, before the first line (they are the same for every line);
// one sentence names them under `decoding`, as before.
void TestCliHostileRound3::interventionsAreNamedOnceForInput() {
    QTemporaryDir dir;
    const QString input = dir.filePath("three.txt");
    writeFile(input, "i love you\nthe cat sat\nyou ate an apple\n");
    const ProcessRun r = runCli({"decode", "--model", rnn_, "--knockout", "1", "--input", input});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.outText().count("interventions {\"knockout\":[1]}\n"), 1);
    QVERIFY2(r.outText().startsWith("interventions {\"knockout\":[1]}\nline 1\n"), r.out.constData());
    QCOMPARE(r.outText().count("\nline "), 3);  // after the interventions, line 1, then lines 2 and 3
    const ProcessRun one = runCli({"decode", "--model", rnn_, "--knockout", "1", "i love you"});
    QCOMPARE(one.code, 0);
    QVERIFY2(
        one.outText().contains(QRegularExpression("\ndecoding [^\n]*\ninterventions \\{\"knockout\":\\[1\\]\\}\n")),
        one.out.constData());
}

// compare --data keeps one block of decodes, not every line's two: LINES lines of 60 words forced onto 60-token
// references (two 61 x 62 decodes a line) under an address space of LIMIT MB ran out of memory, and now fit; the
// output is the same as the lines compared one by one would give (the average over every row, the line numbers).
void TestCliHostileRound3::compareDataIsStreamed() {
    QTemporaryDir dir;
    const QString data = dir.filePath("many.tsv");
    const QByteArray line = (words(60, "cat") + "\t" + words(60, "我") + "\n").toUtf8();
    QByteArray lines;
    for (int i = 0; i < kStreamedLines; ++i) lines += line;
    writeFile(data, lines);
    RunOptions limited;
    limited.address_space_bytes = rlim_t(kStreamedLimitMb) << 20;
    limited.timeout_ms = 300000;
    const ProcessRun r = runCli({"compare", "--model", rnn_, "--with", rnn_, "--data", data, "--json"}, limited);
    QVERIFY2(r.code == 0, qPrintable(QString("exit %1: ").arg(r.code) + r.errText()));
    const nlohmann::json j = nlohmann::json::parse(r.out.toStdString());
    QCOMPARE(j["sentences"].size(), size_t(kStreamedLines));
    QCOMPARE(j["sentences"].back()["line"].get<int>(), kStreamedLines);
    QCOMPARE(j["average"]["lines"].get<int>(), kStreamedLines);
    QCOMPARE(j["average"]["rows"].get<int>(), 61 * kStreamedLines);
    QCOMPARE(j["average"]["tv"].get<double>(), 0.0);  // a model against itself
    QCOMPARE(j["average"]["argmax_agreement"].get<double>(), 1.0);
    const ProcessRun text = runCli({"compare", "--model", rnn_, "--with", rnn_, "--data", data}, limited);
    QCOMPARE(text.code, 0);
    QCOMPARE(text.outText().count('\n'), 4 + kStreamedLines + 1);  // A, B, the legend, the header; a row a line; all
}

ATTNVIZ_TEST_MAIN(TestCliHostileRound3)
#include "test_cli_hostile_round3.moc"
