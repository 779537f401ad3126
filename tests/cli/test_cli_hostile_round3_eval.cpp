// attnviz-cli eval and explain against hostile options, third round (issue 44, "Hostile CLI, round 3"): numbers set
// against the wrong search, refusals that came after the work, options ignored or misleading, and messages that
// named the wrong command, line or value.
#include "process_run.h"
#include "test_files.h"
#include "test_models.h"
#include "test_registry.h"

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>

using namespace attnviz;
using namespace attnviz::testing;

namespace {

// A few lines of the test models' vocabularies, each with a reference.
const QByteArray kEvalLines =
    "i love you\t我 爱 你\n"
    "the cat sat on the mat\t猫 坐 在 垫子 上\n"
    "you ate an apple yesterday\t你 昨天 吃 了 一个 苹果\n"
    "i ate the apple .\t我 吃 了 苹果 。\n"
    "the cat love you , i sat\t猫 爱 你\n"
    "yesterday the cat ate an apple on the mat\t昨天 猫 在 垫子 上 吃 了 一个 苹果\n"
    "i sat on the mat\t我 坐 在 垫子 上\n"
    "you love the apple\t你 爱 苹果\n"
    "an apple , an apple , the mat\t一个 苹果\n";

// The most threads the running process `p` had at once, sampled from /proc until it exits.
int peakThreads(QProcess& p) {
    int peak = 0;
    while (p.state() != QProcess::NotRunning) {
        QFile status(QString("/proc/%1/status").arg(p.processId()));
        if (status.open(QIODevice::ReadOnly))
            for (const QByteArray& line : status.readAll().split('\n'))
                if (line.startsWith("Threads:")) peak = std::max(peak, line.mid(8).trimmed().toInt());
        p.waitForFinished(10);
    }
    return peak;
}

nlohmann::json evalJson(const QStringList& args) {
    const ProcessRun r = runCli(QStringList{"eval", "--json"} + args);
    if (r.code != 0) qWarning("eval exit %d: %s", r.code, r.err.constData());
    return r.code == 0 ? nlohmann::json::parse(r.out.toStdString()) : nlohmann::json();
}

}  // namespace

class TestCliHostileRound3Eval : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void headImportanceRunsTheSameSearch();
    void headImportanceOfRnnIsRefusedFirst();
    void contrastIsCheckedAgainstTheDecode();
    void allMayStandInAMethodList();
    void explainThreadsReachThePasses();
    void explainHasNoTree();
    void optionsWithoutTheirMethodAreRefused();
    void evalExplainTakesIgSteps();
    void attendPastTheDecodeWarns();
    void emptySentenceWarnsUnderItsCommand();
    void kindErrorsNameNoLine();
    void explainMeasuresShowNoNan();
    void goneReaderEndsQuietly_data();
    void goneReaderEndsQuietly();

private:
    QTemporaryDir dir_;
    QString rnn_, transformer_, data_;
};

void TestCliHostileRound3Eval::initTestCase() {
    QVERIFY(dir_.isValid());
    rnn_ = saveInto(smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 443, 2.0f), dir_,
                    "rnn.safetensors");
    transformer_ = saveInto(smallTransformer(444), dir_, "transformer.safetensors");
    data_ = dir_.filePath("lines.tsv");
    writeFile(data_, kEvalLines);
}

// eval --beam K --head-importance: each head's bleu_off is the BLEU of the same beam search with that head off, which
// `eval --beam K --head-off` computes on its own; greedy bleu_off set against the beam bleu made every head's loss
// wrong. The Tatoeba Transformer with its own greedy outputs as the references: its plain greedy BLEU is 100, and
// with heads off its greedy and beam outputs differ (the data has to tell the searches apart, or the check could not
// fail).
void TestCliHostileRound3Eval::headImportanceRunsTheSameSearch() {
    const QString model = QStringLiteral(ATTNVIZ_SOURCE_DIR "/sample_models/tatoeba-transformer.safetensors");
    QTemporaryDir dir;
    const QString own = dir.filePath("own_outputs.tsv");
    QByteArray lines;
    for (const QString source :
         {"I love you.", "Tom is reading a book in the garden.", "Where did you put my keys yesterday?",
          "She can't come to the party tonight.", "We should have left earlier.", "The children are playing outside.",
          "I don't think that's a good idea.", "My father works in a bank."}) {
        const ProcessRun r = runCli({"decode", "--model", model, source});
        QCOMPARE(r.code, 0);
        const QString output = r.outText().section('\n', 1, 1);  // "output   TEXT", detokenized
        QVERIFY2(output.startsWith("output   "), r.out.constData());
        lines += (source + '\t' + output.mid(9) + '\n').toUtf8();
    }
    writeFile(own, lines);
    const nlohmann::json report =
        evalJson({"--model", model, "--data", own, "--beam", "3", "--head-importance", "--threads", "1"});
    QVERIFY(report.contains("heads"));
    bool searches_differ = false;
    for (const nlohmann::json& h : report["heads"]) {
        const QString head = QString("%1:%2,%3")
                                 .arg(QString::fromStdString(h["kind"].get<std::string>()))
                                 .arg(h["layer"].get<int>())
                                 .arg(h["head"].get<int>());
        const double beam_off = evalJson({"--model", model, "--data", own, "--beam", "3", "--head-off", head})["bleu"];
        const double greedy_off = evalJson({"--model", model, "--data", own, "--head-off", head})["bleu"];
        QVERIFY2(std::abs(h["bleu_off"].get<double>() - beam_off) < 1e-9,
                 qPrintable(head + QString(": bleu_off %1, the beam search with it off %2")
                                       .arg(h["bleu_off"].get<double>())
                                       .arg(beam_off)));
        searches_differ = searches_differ || greedy_off != beam_off;
    }
    QVERIFY2(searches_differ, "no head's greedy and beam BLEU differ: the data cannot tell the searches apart");
}

// eval --head-importance of an RNN model is refused before any line is decoded: a corpus whose third line is too
// long to decode stopped the evaluation of before ("DATA:3: the source has 12 tokens ...") before the refusal, which
// came only after the whole evaluation.
void TestCliHostileRound3Eval::headImportanceOfRnnIsRefusedFirst() {
    QTemporaryDir dir;
    const QString data = dir.filePath("third_too_long.tsv");
    writeFile(data, "i love you\t我 爱 你\nthe cat sat\t猫 坐\n" + words(12, "i").toUtf8() + "\t我\n");
    const ProcessRun r =
        runCli({"eval", "--model", rnn_, "--data", data, "--max-source-len", "10", "--head-importance"});
    QCOMPARE(r.code, 1);
    QCOMPARE(r.errText(), QString("attnviz-cli eval: head importance: a bahdanau model has no attention heads (it is "
                                  "for Transformer models)\n"));
}

// --contrast against the decode: the row's own token (all-zero rows, silently), a row past the decode (a message that
// named neither the flag nor the rows), a value without a token (exit 1, not a usage error), and a contrast no chosen
// method reads (its "contrast row" line printed all the same).
void TestCliHostileRound3Eval::contrastIsCheckedAgainstTheDecode() {
    const ProcessRun decode = runCli({"decode", "--model", rnn_, "--json", "i love you"});
    QCOMPARE(decode.code, 0);
    const nlohmann::json d = nlohmann::json::parse(decode.out.toStdString());
    const QString own = QString::fromStdString(d["target_tokens"][0].get<std::string>());
    const int rows = int(d["target_tokens"].size());
    const QStringList explain = {"explain", "--model", rnn_, "--method", "grad_input"};

    const ProcessRun same = runCli(explain + QStringList{"--contrast", "0:" + own, "i love you"});
    QCOMPARE(same.code, 1);
    QCOMPARE(same.errText(), "attnviz-cli explain: --contrast 0:" + own + ": row 0 is " + own +
                                 " already; a contrast needs another token (log p(y) - log p(y) is 0 at every "
                                 "position)\n");
    const ProcessRun past = runCli(explain + QStringList{"--contrast", QString("%1:我").arg(rows), "i love you"});
    QCOMPARE(past.code, 1);
    QCOMPARE(past.errText(), QString("attnviz-cli explain: --contrast %1:我: row %1 is outside the decode's %1 rows "
                                     "(0..%2)\n")
                                 .arg(rows)
                                 .arg(rows - 1));
    const ProcessRun empty = runCli(explain + QStringList{"--contrast", "1:", "i love you"});
    QCOMPARE(empty.code, 2);
    QVERIFY2(empty.errText().contains("--contrast 1:: no TOKEN after the row"), empty.err.constData());

    const QString other = own == "我" ? "你" : "我";
    const ProcessRun unread =
        runCli({"explain", "--model", rnn_, "--method", "attention,norm", "--contrast", "0:" + other, "i love you"});
    QCOMPARE(unread.code, 0);
    QVERIFY2(!unread.outText().contains("contrast row"), unread.out.constData());
    QCOMPARE(unread.errText(), QString("attnviz-cli explain: warning: --contrast is ignored: none of the chosen "
                                       "methods reads it (grad_input, grad_norm, ig, occlusion do)\n"));
    const ProcessRun read = runCli(explain + QStringList{"--contrast", "0:" + other, "i love you"});
    QCOMPARE(read.code, 0);
    QVERIFY2(read.outText().contains("contrast row 0: why " + own + " and not " + other), read.out.constData());
    QVERIFY(read.err.isEmpty());
}

// "all" in a list of methods stands for every method of the kind: `--method all,ig` failed with `unknown method
// "all" (known: ..., all)`.
void TestCliHostileRound3Eval::allMayStandInAMethodList() {
    const auto keys = [&](const QString& list) {
        const ProcessRun r = runCli({"explain", "--model", rnn_, "--json", "--ig-steps", "2", "--method", list, "i"});
        std::vector<std::string> out;
        if (r.code != 0) qWarning("--method %s: %s", qPrintable(list), r.err.constData());
        if (r.code != 0) return out;
        const nlohmann::ordered_json j = nlohmann::ordered_json::parse(r.out.toStdString());  // items() refers to it
        for (const auto& [key, value] : j["explanations"].items()) out.push_back(key);
        return out;
    };
    const std::vector<std::string> all = keys("all");
    QCOMPARE(all.size(), size_t(6));  // an RNN model: every method but rollout
    QCOMPARE(keys("all,ig"), all);
    QCOMPARE(keys("ig,all").front(), std::string("ig"));
    QCOMPARE(keys("ig,all").size(), all.size());
}

// explain --threads N runs the gradient methods' passes on N threads: with 48 the engine's pool grows to 47 helpers
// beside the main thread (integrated gradients of a 60-word sentence make hundreds of passes). The flag used to be
// accepted and ignored: the passes ran on one thread per core whatever it said.
void TestCliHostileRound3Eval::explainThreadsReachThePasses() {
    QProcess p;
    p.start(QStringLiteral(ATTNVIZ_CLI_PATH), {"explain", "--model", rnn_, "--method", "ig", "--ig-steps", "16",
                                               "--threads", "48", "--json", words(60, "cat")});
    QVERIFY(p.waitForStarted());
    const int peak = peakThreads(p);
    QCOMPARE(p.exitCode(), 0);
    QVERIFY2(peak >= 48, qPrintable(QString("at most %1 threads").arg(peak)));
}

// explain takes decode's options but not --tree: its --help listed it, and the command refused it.
void TestCliHostileRound3Eval::explainHasNoTree() {
    const ProcessRun help = runCli({"explain", "--help"});
    QCOMPARE(help.code, 0);
    QVERIFY2(!help.outText().contains("--tree"), help.out.constData());
    QVERIFY2(help.outText().contains("--threads N") && help.outText().contains("each method's passes"),
             help.out.constData());
    const ProcessRun tree = runCli({"explain", "--model", rnn_, "--tree", dir_.filePath("t.json"), "i"});
    QCOMPARE(tree.code, 2);
    QVERIFY2(tree.errText().contains("unknown option --tree"), tree.err.constData());
}

// Options that only one method or mode reads, given without it: usage errors (they were silently ignored).
void TestCliHostileRound3Eval::optionsWithoutTheirMethodAreRefused() {
    const QList<std::pair<QStringList, QString>> runs = {
        {{"render", "--model", rnn_, "--out", dir_.filePath("x.csv"), "--ig-steps", "8", "i"},
         "--ig-steps is integrated gradients' (--method ig), not attention's"},
        {{"render", "--model", rnn_, "--out", dir_.filePath("x.csv"), "--method", "occlusion", "--ig-steps", "8", "i"},
         "--ig-steps is integrated gradients' (--method ig), not occlusion's"},
        {{"eval", "--model", rnn_, "--data", data_, "--seed", "3"}, "--seed belongs to --explain LIST"},
        {{"eval", "--model", rnn_, "--data", data_, "--ig-steps", "8"}, "--ig-steps belongs to --explain LIST"},
        {{"eval", "--model", rnn_, "--data", data_, "--explain", "attention", "--ig-steps", "8"},
         "--ig-steps is integrated gradients': --explain attention has no ig"},
    };
    for (const auto& [args, message] : runs) {
        const ProcessRun r = runCli(args);
        QCOMPARE(r.code, 2);
        QVERIFY2(r.errText().contains(message), qPrintable(args.join(' ') + ": " + r.errText()));
    }
}

// eval --explain ig takes --ig-steps, as explain and render do: the steps change ig's matrices and so its measures.
void TestCliHostileRound3Eval::evalExplainTakesIgSteps() {
    const QStringList args = {"--model", rnn_, "--data", data_, "--explain", "ig"};
    const nlohmann::json one = evalJson(args + QStringList{"--ig-steps", "1"});
    const nlohmann::json many = evalJson(args + QStringList{"--ig-steps", "64"});
    const nlohmann::json fallback = evalJson(args);  // 32
    QVERIFY(one.contains("explain") && many.contains("explain") && fallback.contains("explain"));
    QVERIFY2(one["explain"]["ig"] != many["explain"]["ig"], one["explain"].dump().c_str());
    QVERIFY(fallback["explain"]["ig"] != one["explain"]["ig"]);
}

// An --attend row past the end of a greedy decode (a trained model's, which ends at <eos> long before its length
// limit) changes nothing: it is named in a warning (it was accepted silently), and the decode is the plain one.
void TestCliHostileRound3Eval::attendPastTheDecodeWarns() {
    const QString model = QStringLiteral(ATTNVIZ_SOURCE_DIR "/sample_models/en_fr-bahdanau-additive.safetensors");
    const QString sentence = "the letter was not under the car .";  // 10 source tokens: rows up to 29 allowed
    const ProcessRun plain = runCli({"decode", "--model", model, "--json", sentence});
    QCOMPARE(plain.code, 0);
    const nlohmann::json p = nlohmann::json::parse(plain.out.toStdString());
    const int rows = int(p["target_tokens"].size());
    QVERIFY2(rows + 1 < 30, "the decode ends at its length limit: no row lies past it");
    const QString past = QString("%1:1").arg(rows + 1);
    for (const QString command : {"decode", "explain", "render"}) {
        QStringList args = {command, "--model", model, "--attend", past};
        if (command == "explain")
            args << "--method"
                 << "attention";
        if (command == "render") args << "--out" << dir_.filePath("attend.csv");
        if (command != "render") args << "--json";
        const ProcessRun r = runCli(args + QStringList{sentence});
        QCOMPARE(r.code, 0);
        QCOMPARE(r.errText(), QString("attnviz-cli %1: warning: --attend %2 changed nothing: the decode ended after %3 "
                                      "rows (0..%4)\n")
                                  .arg(command, past)
                                  .arg(rows)
                                  .arg(rows - 1));
        if (command == "decode") QCOMPARE(nlohmann::json::parse(r.out.toStdString())["attention"], p["attention"]);
    }
}

// An empty SENTENCE is decoded as <sos> <eos> with a warning under the command's own name: explain warned as
// `decode`, render and compare not at all.
void TestCliHostileRound3Eval::emptySentenceWarnsUnderItsCommand() {
    QTemporaryDir dir;
    const QString warning = ": warning: the sentence has no tokens; decoding <sos> <eos> alone\n";
    const QList<QStringList> runs = {
        {"decode", "--model", rnn_, ""},
        {"explain", "--model", rnn_, "--method", "attention", ""},
        {"render", "--model", rnn_, "--out", dir.filePath("empty.csv"), ""},
        {"compare", "--model", rnn_, "--with", rnn_, ""},
    };
    for (const QStringList& args : runs) {
        const ProcessRun r = runCli(args);
        QVERIFY2(r.code == 0, qPrintable(args.first() + ": " + r.errText()));
        QCOMPARE(r.errText(), "attnviz-cli " + args.first() + warning);
    }
}

// What the model's kind cannot take (head off on an RNN model, attend on a Transformer) is checked before the first
// line: eval blamed the data's first line ("DATA:1: head off: ..."), and so did every --input.
void TestCliHostileRound3Eval::kindErrorsNameNoLine() {
    const QString head_off = "head off: a bahdanau model has no attention heads (head off is for Transformer models)";
    const QString attend = "attend: a Transformer has no single attention row to set";
    const QList<std::pair<QStringList, QString>> runs = {
        {{"eval", "--model", rnn_, "--data", data_, "--head-off", "cross:0,0"}, head_off},
        {{"decode", "--model", rnn_, "--input", data_, "--head-off", "cross:0,0"}, head_off},
        {{"explain", "--model", rnn_, "--input", data_, "--head-off", "cross:0,0"}, head_off},
        {{"render", "--model", rnn_, "--input", data_, "--out-dir", dir_.filePath("none"), "--head-off", "cross:0,0"},
         head_off},
        {{"eval", "--model", transformer_, "--data", data_, "--attend", "0:1"}, attend},
    };
    for (const auto& [args, message] : runs) {
        const ProcessRun r = runCli(args);
        QCOMPARE(r.code, 1);
        QVERIFY2(r.errText().startsWith("attnviz-cli " + args.first() + ": " + message),
                 qPrintable(args.first() + ": " + r.errText()));
    }
}

// eval --explain on one-word sources: no row has two words to rank, so occlusion_spearman is a mean over nothing,
// null in the JSON and "-" in the text (it was "nan").
void TestCliHostileRound3Eval::explainMeasuresShowNoNan() {
    QTemporaryDir dir;
    const QString data = dir.filePath("one_word.tsv");
    writeFile(data, "i\t我\nyou\t你\n");
    const QStringList args = {"eval", "--model", rnn_, "--data", data, "--explain", "attention,occlusion"};
    const nlohmann::json j = evalJson(args.mid(1));
    QVERIFY(j["explain"]["attention"]["occlusion_spearman"].is_null());
    const ProcessRun text = runCli(args);
    QCOMPARE(text.code, 0);
    QVERIFY2(!text.outText().contains("nan", Qt::CaseInsensitive), text.out.constData());
    QVERIFY2(text.outText().contains(QRegularExpression("\n  attention  [ 0-9.-]+ +-\n")), text.out.constData());
}

void TestCliHostileRound3Eval::goneReaderEndsQuietly_data() {
    QTest::addColumn<QStringList>("args");
    QTest::newRow("explain --input") << QStringList{"explain", "--method", "attention"};
    QTest::newRow("explain --input --json") << QStringList{"explain", "--method", "attention", "--json"};
    QTest::newRow("decode --input") << QStringList{"decode"};
}

// `| head` with SIGPIPE ignored (a shell's `trap '' PIPE`): the reader goes after 100 bytes and the command ends with
// exit 1 and nothing on stderr, as docs/robustness.md says. explain --input said "cannot write to standard output:
// write error": the write that failed was an earlier one inside the C library's buffer.
void TestCliHostileRound3Eval::goneReaderEndsQuietly() {
    QFETCH(QStringList, args);
    QTemporaryDir dir;
    const QString input = dir.filePath("many.txt"), err = dir.filePath("err.txt");
    QByteArray lines;
    for (int i = 0; i < 3000; ++i) lines += "the cat sat on the mat\n";
    writeFile(input, lines);
    QStringList command = {QStringLiteral(ATTNVIZ_CLI_PATH)};
    command << args << "--model" << rnn_ << "--input" << input;
    for (QString& a : command) a = "'" + a + "'";
    const QString script =
        "trap '' PIPE; " + command.join(' ') + " 2>'" + err + "' | head -c 100 >/dev/null; echo \"${PIPESTATUS[0]}\"";
    const ProcessRun r = runProcess("bash", {"-c", script});
    QCOMPARE(r.code, 0);
    QCOMPARE(r.outText(), QString("1\n"));
    QCOMPARE(QString::fromUtf8(readFile(err)), QString());
}

ATTNVIZ_TEST_MAIN(TestCliHostileRound3Eval)
#include "test_cli_hostile_round3_eval.moc"
