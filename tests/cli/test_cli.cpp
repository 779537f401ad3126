// attnviz-cli info / decode, driven as a user would: the built binary (ATTNVIZ_CLI_PATH) run with QProcess on
// small models saved into a temporary folder. Values are compared with the engine called directly. (eval:
// test_cli_eval.cpp)
#include "base/errors.h"
#include "decode/decoding.h"
#include "eval/metrics.h"
#include "io/decode_json.h"
#include "io/model_file.h"
#include "json_output.h"
#include "process_run.h"
#include "test_files.h"
#include "test_models.h"
#include "test_registry.h"
#include "text/tokenizer.h"

#include <QDir>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <fstream>
#include <set>

using namespace attnviz;
using namespace attnviz::testing;
using nlohmann::json;

namespace {

using Run = ProcessRun;

// The decode object must carry exactly the engine's values (floats bit for bit after the JSON round trip).
void compareDecode(const json& j, const DecodeResult& want, const ModelConfig& config) {
    QCOMPARE(j.at("source_tokens").get<std::vector<std::string>>(), want.source_tokens);
    QCOMPARE(j.at("source_ids").get<std::vector<int>>(), want.source_ids);
    QCOMPARE(j.at("target_tokens").get<std::vector<std::string>>(), want.target_tokens);
    QCOMPARE(j.at("target_ids").get<std::vector<int>>(), want.target_ids);
    const json& att = j.at("attention");
    QCOMPARE(att.size(), want.attention.size());
    for (size_t t = 0; t < want.attention.size(); ++t) {
        QCOMPARE(att[t].size(), want.attention[t].size());
        for (size_t s = 0; s < want.attention[t].size(); ++s)
            QCOMPARE(static_cast<float>(att[t][s].get<double>()), want.attention[t][s]);
    }
    QCOMPARE(j.at("log_probs").size(), want.log_probs.size());
    for (size_t t = 0; t < want.log_probs.size(); ++t)
        QCOMPARE(static_cast<float>(j.at("log_probs")[t].get<double>()), want.log_probs[t]);
    QCOMPARE(j.at("total_log_prob").get<double>(), want.total_log_prob);
    QCOMPARE(j.at("config"), configToJson(config));
}

}  // namespace

class TestCli : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();

    void decodeJsonMatchesEngine_data();
    void decodeJsonMatchesEngine();
    void decodeFloatsHaveNineDigits();
    void decodeUnknownWordKeepsSpelling();
    void decodeBeamOneIsGreedy();
    void decodeBeamTwoIsEngineBeam();
    void decodeBeamTree();
    void decodeForcedTarget();
    void decodeMaxLen();
    void decodeEmptySentenceWarns();
    void decodeReadableTable();
    void decodeInputJsonLines();
    void decodeInputThreadsSameOutput();
    void decodeInputBadLineNamed();
    void decodeScoreSwitchesToSibling();
    void decodeScoreWithoutSiblingNamesSiblings();

    void usageErrors_data();
    void usageErrors();
    void badModelFiles_data();
    void badModelFiles();
    void helpExitsZero_data();
    void helpExitsZero();

    void infoJson();
    void infoText();

private:
    QTemporaryDir dir_;  // siblings: additive + dot (same task and vocabularies), and a luong local_p model
    QString additive_, dot_, local_p_, luong_general_;
    Model additive_model_, dot_model_, local_p_model_, luong_general_model_;
};

void TestCli::initTestCase() {
    QVERIFY(dir_.isValid());
    additive_model_ = smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 11, 2.0f);
    dot_model_ = smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Dot), 12, 2.0f);
    additive_ = saveInto(additive_model_, dir_, "bahdanau_additive.safetensors");
    dot_ = saveInto(dot_model_, dir_, "bahdanau_dot.safetensors");
    // Other tasks: not siblings of the two above.
    local_p_model_ = smallModel(smallConfig(DecoderKind::Luong, ScoreKind::General, SpanKind::LocalP), 13, 2.0f);
    local_p_model_.task = "other-task";
    local_p_ = saveInto(local_p_model_, dir_, "luong_local_p.safetensors");
    luong_general_model_ =
        smallModel(smallConfig(DecoderKind::Luong, ScoreKind::ScaledDot, SpanKind::LocalM, true), 14, 2.0f);
    luong_general_model_.task = "third-task";
    luong_general_ = saveInto(luong_general_model_, dir_, "luong_local_m_feed.safetensors");
    // Reload as the CLI does, so that the engine sees the same floats.
    additive_model_ = loadModel(additive_.toStdString());
    dot_model_ = loadModel(dot_.toStdString());
    local_p_model_ = loadModel(local_p_.toStdString());
    luong_general_model_ = loadModel(luong_general_.toStdString());
}

void TestCli::decodeJsonMatchesEngine_data() {
    QTest::addColumn<QString>("which");
    QTest::addColumn<QString>("sentence");
    QTest::newRow("bahdanau additive") << "additive"
                                       << "i love you .";
    QTest::newRow("bahdanau dot") << "dot"
                                  << "the cat sat on the mat";
    QTest::newRow("luong local_p rows sum below 1") << "local_p"
                                                    << "the cat ate an apple yesterday";
    QTest::newRow("luong scaled_dot local_m input feeding") << "local_m"
                                                            << "I LOVE you";
}

void TestCli::decodeJsonMatchesEngine() {
    QFETCH(QString, which);
    QFETCH(QString, sentence);
    const QString path = which == "additive"  ? additive_
                         : which == "dot"     ? dot_
                         : which == "local_p" ? local_p_
                                              : luong_general_;
    const Model& model = which == "additive"  ? additive_model_
                         : which == "dot"     ? dot_model_
                         : which == "local_p" ? local_p_model_
                                              : luong_general_model_;
    const Run r = runCli({"decode", "--model", path, "--json", sentence});
    QVERIFY2(r.code == 0, qPrintable(r.errText()));
    QVERIFY(r.err.isEmpty());
    const json j = parseJson(r.out);
    for (const char* key : {"source_tokens", "source_ids", "target_tokens", "target_ids", "attention", "log_probs",
                            "total_log_prob", "config"})
        QVERIFY2(j.contains(key), key);
    const size_t S = j["source_tokens"].size(), T = j["target_tokens"].size();
    QCOMPARE(j["source_tokens"].front().get<std::string>(), std::string("<sos>"));
    QCOMPARE(j["source_tokens"].back().get<std::string>(), std::string("<eos>"));
    QCOMPARE(j["attention"].size(), T);
    double total = 0;
    for (size_t t = 0; t < T; ++t) {
        QCOMPARE(j["attention"][t].size(), S);
        double sum = 0;
        for (const auto& a : j["attention"][t]) {
            QVERIFY(a.get<double>() >= 0);
            sum += a.get<double>();
        }
        if (which == "local_p")
            QVERIFY2(sum <= 1.0 + 1e-5 && sum > 0, qPrintable(QString::number(sum)));
        else
            QVERIFY2(std::abs(sum - 1.0) < 1e-5, qPrintable(QString::number(sum)));
        total += j["log_probs"][t].get<double>();
    }
    QVERIFY(std::abs(total - j["total_log_prob"].get<double>()) < 1e-5);
    compareDecode(j, greedyDecode(model, sentence.toStdString()), model.config);
}

void TestCli::decodeFloatsHaveNineDigits() {
    const Run r = runCli({"decode", "--model", additive_, "--json", "i love you"});
    QCOMPARE(r.code, 0);
    // Every attention value in the text reads back as the engine's float; and a non-trivial value is printed with
    // at least 9 significant digits (a float printed with 6 would lose bits).
    const std::string text = r.out.toStdString();
    const size_t at = text.find("\"attention\":[[");
    QVERIFY(at != std::string::npos);
    const std::string first = text.substr(at + 14, text.find_first_of(",]", at + 14) - (at + 14));
    size_t digits = 0;
    for (char c : first) digits += (c >= '0' && c <= '9') ? 1 : 0;
    const float v = std::stof(first);
    if (v != 0.5f && v != 0.25f && v != 1.0f && v != 0.0f)
        QVERIFY2(digits >= 10, first.c_str());  // "0." + 9 digits at least
}

void TestCli::decodeUnknownWordKeepsSpelling() {
    const Run r =
        runCli({"decode", "--model", additive_, "--json", "i", "love", "zebras"});  // words joined with spaces
    QCOMPARE(r.code, 0);
    const json j = parseJson(r.out);
    const std::vector<std::string> toks = {"<sos>", "i", "love", "zebras", "<eos>"};
    QCOMPARE(j["source_tokens"].get<std::vector<std::string>>(), toks);
    QCOMPARE(j["source_ids"][3].get<int>(), kUnk);
    QVERIFY(j["source_ids"][1].get<int>() != kUnk);
}

void TestCli::decodeBeamOneIsGreedy() {
    const Run g = runCli({"decode", "--model", additive_, "--json", "the cat sat"});
    const Run b = runCli({"decode", "--model", additive_, "--json", "--beam", "1", "the cat sat"});
    QCOMPARE(g.code, 0);
    QCOMPARE(b.code, 0);
    QCOMPARE(b.out, g.out);
    compareDecode(parseJson(b.out), greedyDecode(additive_model_, "the cat sat"), additive_model_.config);
}

void TestCli::decodeBeamTwoIsEngineBeam() {
    const Run b = runCli({"decode", "--model", dot_, "--json", "--beam=2", "you love the cat"});
    QVERIFY2(b.code == 0, qPrintable(b.errText()));
    compareDecode(parseJson(b.out), beamSearch(dot_model_, "you love the cat", 2).best, dot_model_.config);
}

// --tree writes the engine's whole tree (io/beam_json.h): its nodes and rows, the best hypothesis the printed one.
void TestCli::decodeBeamTree() {
    const QString path = QDir(dir_.path()).filePath("tree.json");
    const Run b = runCli({"decode", "--model", dot_, "--json", "--beam", "2", "--tree", path, "you love the cat"});
    QVERIFY2(b.code == 0, qPrintable(b.errText()));
    const BeamResult engine = beamSearch(dot_model_, "you love the cat", 2);
    compareDecode(parseJson(b.out), engine.best, dot_model_.config);
    std::ifstream in(path.toStdString());
    const json t = json::parse(in);
    QCOMPARE(t["beam_width"].get<int>(), 2);
    QCOMPARE(t["nodes"].size(), engine.nodes.size());
    for (size_t i = 0; i < engine.nodes.size(); ++i) {
        QCOMPARE(t["nodes"][i]["token_id"].get<int>(), engine.nodes[i].token);
        QCOMPARE(t["nodes"][i]["log_prob"].get<float>(), engine.nodes[i].log_prob);
        QCOMPARE(t["nodes"][i]["row"].get<int>(), engine.nodes[i].row);
    }
    QCOMPARE(t["rows"].size(), engine.rows.size());
    QCOMPARE(t["rows"].back().get<std::vector<float>>(), engine.rows.back());
    QCOMPARE(t["nbest"][0]["token_ids"].get<std::vector<int>>(), engine.best.target_ids);
    QCOMPARE(t["length_penalty"].get<double>(), 0.0);

    // With --length-penalty the file records it and ranks its n-best list by the engine's scores.
    const Run p = runCli(
        {"decode", "--model", dot_, "--beam", "2", "--length-penalty", "1.5", "--tree", path, "you love the cat"});
    QVERIFY2(p.code == 0, qPrintable(p.errText()));
    DecodeOptions options;
    options.length_penalty = 1.5;
    const BeamResult ranked = beamSearch(dot_model_, "you love the cat", 2, options);
    std::ifstream again(path.toStdString());
    const json u = json::parse(again);
    QCOMPARE(u["length_penalty"].get<double>(), 1.5);
    QCOMPARE(u["nbest"].size(), ranked.finished.size());
    for (size_t i = 0; i < ranked.finished.size(); ++i) {
        const BeamNode& end = ranked.nodes[size_t(ranked.finished[i])];
        QCOMPARE(u["nbest"][i]["node"].get<int>(), ranked.finished[i]);
        QCOMPARE(u["nbest"][i]["score"].get<double>(), beamRank(end.total_log_prob, end.step, 1.5));
    }
}

void TestCli::decodeForcedTarget() {
    const Run r = runCli({"decode", "--model", additive_, "--json", "--target", "我 爱 斑马", "i love zebras"});
    QVERIFY2(r.code == 0, qPrintable(r.errText()));
    const json j = parseJson(r.out);
    const std::vector<std::string> want = {"我", "爱", "斑马", "<eos>"};
    QCOMPARE(j["target_tokens"].get<std::vector<std::string>>(), want);
    QCOMPARE(j["target_ids"][2].get<int>(), kUnk);  // unknown target word: id 1, spelling kept
    QCOMPARE(j["target_ids"][3].get<int>(), kEos);
    compareDecode(j, forcedDecode(additive_model_, "i love zebras", "我 爱 斑马"), additive_model_.config);
    // --max-len is ignored with --target.
    const Run m =
        runCli({"decode", "--model", additive_, "--json", "--max-len", "1", "--target", "我 爱 斑马", "i love zebras"});
    QCOMPARE(m.code, 0);
    QCOMPARE(m.out, r.out);
}

void TestCli::decodeMaxLen() {
    DecodeOptions o;
    o.max_len = 2;
    const DecodeResult want = greedyDecode(additive_model_, "the cat sat on the mat", o);
    QVERIFY(want.target_tokens.size() <= 2);
    const Run r = runCli({"decode", "--model", additive_, "--json", "--max-len", "2", "the cat sat on the mat"});
    QCOMPARE(r.code, 0);
    compareDecode(parseJson(r.out), want, additive_model_.config);
}

void TestCli::decodeEmptySentenceWarns() {
    const Run r = runCli({"decode", "--model", additive_, "--json", ""});
    QVERIFY2(r.code == 0, qPrintable(r.errText()));
    QVERIFY2(r.errText().contains("warning") && r.errText().contains("no tokens"), qPrintable(r.errText()));
    const std::vector<std::string> toks = {"<sos>", "<eos>"};
    QCOMPARE(parseJson(r.out)["source_tokens"].get<std::vector<std::string>>(), toks);
}

void TestCli::decodeReadableTable() {
    const Run r = runCli({"decode", "--model", additive_, "i love you"});
    QVERIFY2(r.code == 0, qPrintable(r.errText()));
    const QString out = QString::fromUtf8(r.out);
    const DecodeResult want = greedyDecode(additive_model_, "i love you");
    QVERIFY(out.contains("0:<sos> 1:i 2:love 3:you 4:<eos>"));
    // One row per target token, each with its log-prob to 4 decimals.
    for (size_t t = 0; t < want.target_tokens.size(); ++t)
        QVERIFY2(out.contains(QString::number(double(want.log_probs[t]), 'f', 4)), qPrintable(out));
    QCOMPARE(int(out.count('|')), 2 * int(want.target_tokens.size()) + 2);  // heat bars + the header's |attention|
}

void TestCli::decodeInputJsonLines() {
    const QString input = dir_.filePath("input.txt");
    // Line 2 is blank (skipped), line 4 is forced on a reference, CRLF on line 5.
    writeFile(input, "i love you\n\nthe cat sat\nthe cat\t猫 坐\r\nan apple yesterday\r\n");
    const Run r = runCli({"decode", "--model", additive_, "--json", "--input", input});
    QVERIFY2(r.code == 0, qPrintable(r.errText()));
    const QList<QByteArray> lines = r.out.trimmed().split('\n');
    QCOMPARE(lines.size(), 4);
    const std::vector<int> numbers = {1, 3, 4, 5};
    const std::vector<std::string> sources = {"i love you", "the cat sat", "the cat", "an apple yesterday"};
    for (int k = 0; k < 4; ++k) {
        const json j = parseJson(lines[k]);
        QCOMPARE(j["line"].get<int>(), numbers[size_t(k)]);
        const DecodeResult want = k == 2 ? forcedDecode(additive_model_, "the cat", "猫 坐")
                                         : greedyDecode(additive_model_, sources[size_t(k)]);
        compareDecode(j, want, additive_model_.config);
    }
}

void TestCli::decodeInputThreadsSameOutput() {
    // More lines than one block of work (512), so that block boundaries and both threads are exercised.
    const QString input = dir_.filePath("many.txt");
    const char* words[] = {"i", "love", "you", "the", "cat", "sat", "on", "mat", "ate", "an", "apple", "yesterday"};
    QByteArray text;
    for (int i = 0; i < 700; ++i) {
        for (int k = 0; k <= i % 7; ++k) text += QByteArray(words[(i * 5 + k * 3) % 12]) + (k < i % 7 ? " " : "");
        text += '\n';
    }
    writeFile(input, text);
    const Run one = runCli({"decode", "--model", dot_, "--json", "--threads", "1", "--input", input});
    const Run two = runCli({"decode", "--model", dot_, "--json", "--threads", "2", "--input", input});
    QCOMPARE(one.code, 0);
    QCOMPARE(two.code, 0);
    QCOMPARE(one.out.count('\n'), 700);
    QVERIFY(one.out == two.out);
    // Spot-check the order: line 600's record is the decode of line 600.
    const json j = parseJson(one.out.split('\n')[599]);
    QCOMPARE(j["line"].get<int>(), 600);
    const QByteArray line600 = text.split('\n')[599];
    compareDecode(j, greedyDecode(dot_model_, line600.toStdString()), dot_model_.config);
}

void TestCli::decodeInputBadLineNamed() {
    const QString input = dir_.filePath("bad_input.txt");
    writeFile(input, "i love you\nthe cat\nbad \xFF byte\n");
    const Run r = runCli({"decode", "--model", additive_, "--json", "--input", input});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.errText().startsWith("attnviz-cli decode: " + input + ":3: invalid UTF-8"), qPrintable(r.errText()));
    QCOMPARE(r.err.count('\n'), 1);
}

void TestCli::decodeScoreSwitchesToSibling() {
    const Run r = runCli({"decode", "--model", additive_, "--json", "--score", "dot", "i love you"});
    QVERIFY2(r.code == 0, qPrintable(r.errText()));
    const json j = parseJson(r.out);
    QCOMPARE(j["config"]["score"].get<std::string>(), std::string("dot"));
    compareDecode(j, greedyDecode(dot_model_, "i love you"), dot_model_.config);
    // Its own score: the model itself.
    const Run self = runCli({"decode", "--model", additive_, "--json", "--score", "additive", "i love you"});
    QCOMPARE(self.code, 0);
    compareDecode(parseJson(self.out), greedyDecode(additive_model_, "i love you"), additive_model_.config);
}

void TestCli::decodeScoreWithoutSiblingNamesSiblings() {
    const Run r = runCli({"decode", "--model", additive_, "--json", "--score", "general", "i love you"});
    QCOMPARE(r.code, 1);
    const QString err = r.errText();
    QVERIFY2(err.startsWith("attnviz-cli decode: " + additive_ + ": no sibling model trained with score \"general\""),
             qPrintable(err));
    QVERIFY2(err.contains(dot_ + " (dot)"), qPrintable(err));
    QVERIFY2(!err.contains("luong"), qPrintable(err));  // other tasks are not siblings
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY(r.out.isEmpty());
}

void TestCli::usageErrors_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("mentions");
    const QString m = "MODEL";  // replaced by the additive model's path
    QTest::newRow("unknown flag") << QStringList{"decode", "--model", m, "--bogus", "x"} << "unknown option --bogus";
    QTest::newRow("missing --model") << QStringList{"decode", "i love you"} << "--model";
    QTest::newRow("missing value at end") << QStringList{"decode", "i love you", "--model"} << "--model: missing value";
    QTest::newRow("beam not a number") << QStringList{"decode", "--model", m, "--beam", "x", "hi"}
                                       << "--beam: expected an integer";
    QTest::newRow("beam zero") << QStringList{"decode", "--model", m, "--beam", "0", "hi"} << "--beam";
    QTest::newRow("beam trailing junk") << QStringList{"decode", "--model", m, "--beam=2x", "hi"} << "--beam";
    QTest::newRow("max-len negative") << QStringList{"decode", "--model", m, "--max-len", "-3", "hi"} << "--max-len";
    QTest::newRow("beam with target") << QStringList{"decode", "--model", m, "--beam", "2", "--target", "我", "hi"}
                                      << "--beam and --target";
    QTest::newRow("tree with target") << QStringList{"decode", "--model", m, "--tree", "t.json", "--target", "我", "hi"}
                                      << "--tree";
    QTest::newRow("no sentence") << QStringList{"decode", "--model", m} << "missing SENTENCE";
    QTest::newRow("sentence and input") << QStringList{"decode", "--model", m, "--input", "x.txt", "hi"} << "--input";
    QTest::newRow("bad score") << QStringList{"decode", "--model", m, "--score", "cosine", "hi"}
                               << "--score: unknown value \"cosine\"";
    QTest::newRow("flag with value") << QStringList{"decode", "--model", m, "--json=yes", "hi"}
                                     << "--json takes no value";
    QTest::newRow("info without model") << QStringList{"info"} << "missing MODEL";
    QTest::newRow("info two models") << QStringList{"info", m, m} << "unexpected argument";
    QTest::newRow("eval without data") << QStringList{"eval", "--model", m} << "--data";
    QTest::newRow("unknown subcommand") << QStringList{"decdoe"} << "unknown command";
    QTest::newRow("unknown subcommand names every command")
        << QStringList{"decdoe"} << "info, decode, render, train, eval, convert, compare, explain";
    QTest::newRow("unknown subcommand escaped") << QStringList{"\x1b]0;PWNED\x07"} << "'\\e]0;PWNED\\x07'";
}

void TestCli::usageErrors() {
    QFETCH(QStringList, args);
    QFETCH(QString, mentions);
    args.replaceInStrings(QRegularExpression("^MODEL$"), additive_);
    const Run r = runCli(args);
    QCOMPARE(r.code, 2);
    QVERIFY2(r.errText().contains(mentions), qPrintable(r.errText()));
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY(r.out.isEmpty());
}

void TestCli::badModelFiles_data() {
    QTest::addColumn<QString>("subcommand");
    QTest::addColumn<QString>("kind");
    for (const char* sub : {"decode", "info", "eval"}) {
        QTest::newRow(qPrintable(QString(sub) + " missing file")) << sub << "missing";
        QTest::newRow(qPrintable(QString(sub) + " garbage bytes")) << sub << "garbage";
        QTest::newRow(qPrintable(QString(sub) + " truncated model")) << sub << "truncated";
    }
}

void TestCli::badModelFiles() {
    QFETCH(QString, subcommand);
    QFETCH(QString, kind);
    QTemporaryDir tmp;
    const QString path = tmp.filePath("bad model.safetensors");  // a space in the path, as users have
    if (kind == "garbage") writeFile(path, "this is not a model file at all, just text");
    if (kind == "truncated") {
        QFile f(additive_);
        QVERIFY(f.open(QIODevice::ReadOnly));
        writeFile(path, f.readAll().chopped(100));
    }
    const QString data = tmp.filePath("data.tsv");
    writeFile(data, "i love you\t我 爱 你\n");
    QStringList args = subcommand == "info"   ? QStringList{"info", path}
                       : subcommand == "eval" ? QStringList{"eval", "--model", path, "--data", data}
                                              : QStringList{"decode", "--model", path, "i love you"};
    const Run r = runCli(args);
    QCOMPARE(r.code, 1);
    QVERIFY2(r.errText().startsWith("attnviz-cli " + subcommand + ": " + path + ": "), qPrintable(r.errText()));
    QCOMPARE(r.err.count('\n'), 1);
}

void TestCli::helpExitsZero_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("usage");
    QTest::newRow("decode --help") << QStringList{"decode", "--help"} << "usage: attnviz-cli decode --model MODEL";
    QTest::newRow("decode -h with other flags") << QStringList{"decode", "--bogus", "-h"} << "--max-len N";
    QTest::newRow("info --help") << QStringList{"info", "--help"} << "usage: attnviz-cli info MODEL";
    QTest::newRow("eval --help") << QStringList{"eval", "--help"}
                                 << "usage: attnviz-cli eval --model MODEL --data FILE";
    QTest::newRow("top-level --help") << QStringList{"--help"} << "decode";
}

void TestCli::helpExitsZero() {
    QFETCH(QStringList, args);
    QFETCH(QString, usage);
    const Run r = runCli(args);
    QCOMPARE(r.code, 0);
    QVERIFY2(QString::fromUtf8(r.out).contains(usage), r.out.constData());
}

void TestCli::infoJson() {
    const Run r = runCli({"info", additive_, "--json"});
    QVERIFY2(r.code == 0, qPrintable(r.errText()));
    const json j = parseJson(r.out);
    QCOMPARE(j["config"], configToJson(additive_model_.config));
    QCOMPARE(j["source_vocab_size"].get<int>(), additive_model_.source_vocab.size());
    QCOMPARE(j["target_vocab_size"].get<int>(), additive_model_.target_vocab.size());
    QCOMPARE(j["task"].get<std::string>(), std::string("test-task"));
    // The parameter count is the sum of the listed tensor sizes and of the tensors the config calls for.
    int64_t listed = 0;
    std::set<std::string> names;
    for (const auto& t : j["tensors"]) {
        int64_t n = 1;
        for (const auto& d : t["shape"]) n *= d.get<int64_t>();
        listed += n;
        names.insert(t["name"].get<std::string>());
        QCOMPARE(t["dtype"].get<std::string>(), std::string("F32"));
    }
    Model copy = additive_model_;
    int64_t expected = 0;
    std::set<std::string> want_names;
    for (const ParamRef& p : paramRefs(copy.params, copy.config, copy.source_vocab.size(), copy.target_vocab.size())) {
        expected += p.size;
        want_names.insert(p.name);
    }
    QCOMPARE(j["parameter_count"].get<int64_t>(), expected);
    QCOMPARE(listed, expected);
    QCOMPARE(names, want_names);
    QVERIFY(names.count("decoder.attention.v.weight"));
    // Siblings: this file and the dot model, not the other tasks.
    std::set<std::string> sib;
    for (const auto& s : j["siblings"]) sib.insert(s["path"].get<std::string>() + "|" + s["score"].get<std::string>());
    const std::set<std::string> want_sib = {additive_.toStdString() + "|additive", dot_.toStdString() + "|dot"};
    QCOMPARE(sib, want_sib);
    // --vocab adds the vocabularies.
    const Run v = runCli({"info", "--vocab", "--json", additive_});
    QCOMPARE(v.code, 0);
    QCOMPARE(parseJson(v.out)["target_vocab"].get<std::vector<std::string>>(), additive_model_.target_vocab.tokens());
}

void TestCli::infoText() {
    const Run r = runCli({"info", local_p_});
    QVERIFY2(r.code == 0, qPrintable(r.errText()));
    const QString out = QString::fromUtf8(r.out);
    QVERIFY(out.contains("score general, span local_p (window 2)"));
    QVERIFY(out.contains("decoder.attention.Wp.weight"));
    QVERIFY(out.contains("other-task"));
}

ATTNVIZ_TEST_MAIN(TestCli)
#include "test_cli.moc"
