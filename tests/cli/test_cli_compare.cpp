// attnviz-cli compare, driven as a user would: the distances between two hand-built models' attention rows against an
// independent double-precision computation (tests/support/reference_model.h decodes, this file measures), the
// row-weighted averages, each model's AER against gold links computed here by hand, the JSON keys, and the errors.
#include "io/model_file.h"
#include "json_output.h"
#include "process_run.h"
#include "reference_model.h"
#include "test_models.h"
#include "test_registry.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <nlohmann/json.hpp>

#include <cmath>
#include <set>

using namespace attnviz;
using namespace attnviz::testing;
using nlohmann::json;

namespace {

// The measures of one pair of rows, written out here in double (not core/eval's code).
struct HandRow {
    double tv = 0, js = 0, h_a = 0, h_b = 0;
    bool agree = false;
};
HandRow measure(const DVec& p, const DVec& q) {
    HandRow r;
    size_t arg_p = 0, arg_q = 0;
    for (size_t j = 0; j < p.size(); ++j) {
        r.tv += 0.5 * std::abs(p[j] - q[j]);
        const double m = (p[j] + q[j]) / 2;
        if (p[j] > 0) r.js += 0.5 * p[j] * std::log(p[j] / m), r.h_a -= p[j] * std::log(p[j]);
        if (q[j] > 0) r.js += 0.5 * q[j] * std::log(q[j] / m), r.h_b -= q[j] * std::log(q[j]);
        if (p[j] > p[arg_p]) arg_p = j;
        if (q[j] > q[arg_q]) arg_q = j;
    }
    r.agree = arg_p == arg_q;
    return r;
}

// AER of forced attention against gold links (i, j): row j (all but the final <eos> row) links to the source word
// whose position (1..S-2) has the most weight.
double handAer(const RefDecode& forced, const std::set<std::pair<int, int>>& gold) {
    std::set<std::pair<int, int>> links;
    for (size_t j = 0; j + 1 < forced.steps.size(); ++j) {
        const DVec& a = forced.steps[j].attention;
        size_t best = 1;
        for (size_t i = 2; i + 1 < a.size(); ++i)
            if (a[i] > a[best]) best = i;
        links.insert({int(best) - 1, int(j)});
    }
    int both = 0;
    for (const auto& l : links) both += gold.count(l) ? 1 : 0;
    return 1.0 - 2.0 * both / double(links.size() + gold.size());
}

std::vector<int> sourceIds(const Model& m, const std::vector<std::string>& words) {
    std::vector<int> ids = {kSos};
    for (const std::string& w : words) ids.push_back(m.source_vocab.id(w));
    ids.push_back(kEos);
    return ids;
}

std::vector<int> targetIds(const Model& m, const std::vector<std::string>& words) {
    std::vector<int> ids;
    for (const std::string& w : words) ids.push_back(m.target_vocab.id(w));
    ids.push_back(kEos);
    return ids;
}

// A sentence's expected measures: sums over its rows.
struct HandSentence {
    int rows = 0;
    double tv = 0, js = 0, agree = 0, h_a = 0, h_b = 0;
    std::vector<int> target;
};
HandSentence handCompare(const RefDecode& a, const RefDecode& b) {
    HandSentence s;
    s.target = a.tokens;
    for (size_t t = 0; t < a.steps.size(); ++t) {
        const HandRow r = measure(a.steps[t].attention, b.steps[t].attention);
        s.tv += r.tv, s.js += r.js, s.agree += r.agree, s.h_a += r.h_a, s.h_b += r.h_b;
        ++s.rows;
    }
    return s;
}

void checkMeans(const json& j, const HandSentence& s, int rows) {
    QCOMPARE(j["rows"].get<int>(), rows);
    const double n = rows;
    QVERIFY2(std::abs(j["tv"].get<double>() - s.tv / n) < 1e-5, j.dump().c_str());
    QVERIFY2(std::abs(j["js"].get<double>() - s.js / n) < 1e-5, j.dump().c_str());
    QVERIFY2(std::abs(j["argmax_agreement"].get<double>() - s.agree / n) < 1e-12, j.dump().c_str());
    QVERIFY2(std::abs(j["entropy_a"].get<double>() - s.h_a / n) < 1e-5, j.dump().c_str());
    QVERIFY2(std::abs(j["entropy_b"].get<double>() - s.h_b / n) < 1e-5, j.dump().c_str());
}

}  // namespace

class TestCliCompare : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void sentenceMatchesAnIndependentComputation();
    void dataFileAveragesRowsAndScoresGoldLinks();
    void aModelAgainstItselfDiffersByNothing();
    void textOutputAndHelp();
    void errors_data();
    void errors();

private:
    QString writeFile(const QString& name, const QByteArray& text);

    QTemporaryDir dir_;
    QString a_path_, b_path_, other_vocab_path_;
    Model a_, b_;
};

void TestCliCompare::initTestCase() {
    QVERIFY(dir_.isValid());
    // Two siblings whose attention differs (random weights scaled up so that rows are not flat).
    a_ = smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 31, 3.0f);
    b_ = smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Dot), 32, 3.0f);
    a_path_ = saveInto(a_, dir_, "a-additive.safetensors");
    b_path_ = saveInto(b_, dir_, "b-dot.safetensors");
    Model other = makeRandomModel(b_.config, smallSourceVocab(), vocabWith({"je", "t'", "aime"}), 33);
    other_vocab_path_ = saveInto(other, dir_, "other-vocab.safetensors");
}

QString TestCliCompare::writeFile(const QString& name, const QByteArray& text) {
    QFile f(dir_.filePath(name));
    if (!f.open(QIODevice::WriteOnly)) qFatal("cannot write %s", qPrintable(f.fileName()));
    f.write(text);
    return f.fileName();
}

void TestCliCompare::sentenceMatchesAnIndependentComputation() {
    const ProcessRun r =
        runCli({"compare", "--model", a_path_, "--with", b_path_, "--json", "i", "love", "the", "cat"});
    QVERIFY2(r.code == 0, qPrintable(r.errText()));
    const json j = json::parse(r.out.toStdString());
    const std::vector<int> src = sourceIds(a_, {"i", "love", "the", "cat"});
    const RefDecode ref_a = referenceGreedy(a_, src, 2 * int(src.size()) + 10);  // A decodes
    const RefDecode ref_b = referenceForced(b_, src, ref_a.tokens);              // B follows A's output
    const HandSentence hand = handCompare(ref_a, ref_b);
    QVERIFY(hand.tv > 0.05);  // the two really differ: a test of distances, not of zeros

    QCOMPARE(j["sentences"].size(), size_t(1));
    const json& s = j["sentences"][0];
    QVERIFY(!s.contains("line"));  // SENTENCE, not a file line
    QCOMPARE(s["forced"].get<bool>(), false);
    std::vector<std::string> want_target;
    for (int id : ref_a.tokens) want_target.push_back(a_.target_vocab.token(id));
    QCOMPARE(s["target_tokens"].get<std::vector<std::string>>(), want_target);
    QCOMPARE(s["source_tokens"].get<std::vector<std::string>>(),
             (std::vector<std::string>{"<sos>", "i", "love", "the", "cat", "<eos>"}));
    checkMeans(s, hand, hand.rows);
    checkMeans(j["average"], hand, hand.rows);
    QCOMPARE(j["log_base"].get<std::string>(), std::string("e"));
    QVERIFY(!j["average"].contains("aer_a"));  // no gold links
}

void TestCliCompare::dataFileAveragesRowsAndScoresGoldLinks() {
    const QString data = writeFile("data.tsv",
                                   "i love you\n"
                                   "\n"
                                   "the cat sat on the mat\t猫 坐 在 垫子 上\n"
                                   "i ate an apple yesterday\t我 昨天 吃 了 一个 苹果\t0-0 4-1 2-2 2-3 3-4 3-5\n");
    const ProcessRun r = runCli({"compare", "--model", a_path_, "--with", b_path_, "--data", data, "--json"});
    QVERIFY2(r.code == 0, qPrintable(r.errText()));
    const json j = json::parse(r.out.toStdString());
    QCOMPARE(j["data"].get<std::string>(), data.toStdString());
    const json& lines = j["sentences"];
    QCOMPARE(lines.size(), size_t(3));
    QCOMPARE(lines[0]["line"].get<int>(), 1);
    QCOMPARE(lines[1]["line"].get<int>(), 3);
    QCOMPARE(lines[2]["line"].get<int>(), 4);

    // Line 1: A greedy. Lines 3 and 4: both forced onto the reference.
    const std::vector<int> s1 = sourceIds(a_, {"i", "love", "you"});
    const RefDecode a1 = referenceGreedy(a_, s1, 2 * int(s1.size()) + 10);
    const HandSentence h1 = handCompare(a1, referenceForced(b_, s1, a1.tokens));
    const std::vector<int> s3 = sourceIds(a_, {"the", "cat", "sat", "on", "the", "mat"});
    const std::vector<int> t3 = targetIds(a_, {"猫", "坐", "在", "垫子", "上"});
    const HandSentence h3 = handCompare(referenceForced(a_, s3, t3), referenceForced(b_, s3, t3));
    const std::vector<int> s4 = sourceIds(a_, {"i", "ate", "an", "apple", "yesterday"});
    const std::vector<int> t4 = targetIds(a_, {"我", "昨天", "吃", "了", "一个", "苹果"});
    const RefDecode a4 = referenceForced(a_, s4, t4), b4 = referenceForced(b_, s4, t4);
    const HandSentence h4 = handCompare(a4, b4);
    QCOMPARE(lines[0]["forced"].get<bool>(), false);
    QCOMPARE(lines[1]["forced"].get<bool>(), true);
    QCOMPARE(lines[2]["forced"].get<bool>(), true);
    checkMeans(lines[0], h1, h1.rows);
    checkMeans(lines[1], h3, 6);  // five words and <eos>
    checkMeans(lines[2], h4, 7);

    const std::set<std::pair<int, int>> gold = {{0, 0}, {4, 1}, {2, 2}, {2, 3}, {3, 4}, {3, 5}};
    const double aer_a = handAer(a4, gold), aer_b = handAer(b4, gold);
    QVERIFY(!lines[0].contains("aer_a") && !lines[1].contains("aer_a"));
    QVERIFY(std::abs(lines[2]["aer_a"].get<double>() - aer_a) < 1e-12);
    QVERIFY(std::abs(lines[2]["aer_b"].get<double>() - aer_b) < 1e-12);

    // The average weighs every row once: a long sentence counts more than a short one.
    HandSentence all;
    for (const HandSentence* h : {&h1, &h3, &h4})
        all.tv += h->tv, all.js += h->js, all.agree += h->agree, all.h_a += h->h_a, all.h_b += h->h_b;
    const json& avg = j["average"];
    checkMeans(avg, all, h1.rows + 6 + 7);
    QCOMPARE(avg["lines"].get<int>(), 3);
    QCOMPARE(avg["aligned_lines"].get<int>(), 1);
    QVERIFY(std::abs(avg["aer_a"].get<double>() - aer_a) < 1e-12);
    QVERIFY(std::abs(avg["aer_b"].get<double>() - aer_b) < 1e-12);

    // The keys, in order.
    const auto ordered = nlohmann::ordered_json::parse(r.out.toStdString());
    QCOMPARE(keysOf(ordered), (std::vector<std::string>{"model", "with", "data", "log_base", "sentences", "average"}));
    QCOMPARE(keysOf(ordered["sentences"][0]),
             (std::vector<std::string>{"line", "source_tokens", "target_tokens", "forced", "rows", "tv", "js",
                                       "argmax_agreement", "entropy_a", "entropy_b"}));
    QCOMPARE(keysOf(ordered["sentences"][2]),
             (std::vector<std::string>{"line", "source_tokens", "target_tokens", "forced", "rows", "tv", "js",
                                       "argmax_agreement", "entropy_a", "entropy_b", "aer_a", "aer_b"}));
    QCOMPARE(keysOf(ordered["average"]),
             (std::vector<std::string>{"lines", "aligned_lines", "rows", "tv", "js", "argmax_agreement", "entropy_a",
                                       "entropy_b", "aer_a", "aer_b"}));
}

void TestCliCompare::aModelAgainstItselfDiffersByNothing() {
    const ProcessRun r = runCli({"compare", "--model", a_path_, "--with", a_path_, "--json", "i ate an apple"});
    QVERIFY2(r.code == 0, qPrintable(r.errText()));
    const json avg = json::parse(r.out.toStdString())["average"];
    QCOMPARE(avg["tv"].get<double>(), 0.0);
    QCOMPARE(avg["js"].get<double>(), 0.0);
    QCOMPARE(avg["argmax_agreement"].get<double>(), 1.0);
    QCOMPARE(avg["entropy_a"].get<double>(), avg["entropy_b"].get<double>());
    QVERIFY(avg["entropy_a"].get<double>() > 0);
}

void TestCliCompare::textOutputAndHelp() {
    const ProcessRun r = runCli({"compare", "--model", a_path_, "--with", b_path_, "i love you"});
    QVERIFY2(r.code == 0, qPrintable(r.errText()));
    const QString out = QString::fromUtf8(r.out);
    QVERIFY2(out.contains("Jensen-Shannon divergence (nats"), qPrintable(out));
    QVERIFY2(out.contains("\nall "), qPrintable(out));
    const ProcessRun help = runCli({"compare", "--help"});
    QCOMPARE(help.code, 0);
    QVERIFY(QString::fromUtf8(help.out).contains("Specials are columns like any other"));
    QVERIFY(QString::fromUtf8(help.out).contains("natural log"));
    const ProcessRun list = runCli({"--help"});
    QVERIFY(QString::fromUtf8(list.out).contains("compare"));
}

void TestCliCompare::errors_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("message");
    const QString a = dir_.filePath("a-additive.safetensors"), b = dir_.filePath("b-dot.safetensors");
    const QString other = dir_.filePath("other-vocab.safetensors");
    QTest::newRow("vocabularies differ")
        << QStringList{"--model", a, "--with", other, "i love you"} << 1
        << QStringLiteral("%1 and %2 cannot be compared: target vocabularies differ (18 against 7 tokens)")
               .arg(a, other);
    QTest::newRow("no sentence") << QStringList{"--model", a, "--with", b} << 2
                                 << QStringLiteral("missing SENTENCE (or --data FILE)");
    QTest::newRow("both") << QStringList{"--model", a, "--with", b, "--data", a, "i"} << 2
                          << QStringLiteral("give either SENTENCE or --data FILE, not both");
    QTest::newRow("no --with") << QStringList{"--model", a, "i love you"} << 2
                               << QStringLiteral("missing required option --with");
    QTest::newRow("missing model") << QStringList{"--model", a, "--with", dir_.filePath("nope.safetensors"), "i"} << 1
                                   << dir_.filePath("nope.safetensors");
    const QString bad = dir_.filePath("bad.tsv");
    QTest::newRow("alignment out of range")
        << QStringList{"--model", a, "--with", b, "--data", bad} << 1 << QStringLiteral("%1:2").arg(bad);
}

void TestCliCompare::errors() {
    QFETCH(QStringList, args);
    QFETCH(int, code);
    QFETCH(QString, message);
    writeFile("bad.tsv", "i love you\ti love you\nthe cat\t猫\t7-0\n");
    const ProcessRun r = runCli(QStringList{"compare"} + args);
    QCOMPARE(r.code, code);
    QVERIFY2(r.errText().startsWith("attnviz-cli compare: "), qPrintable(r.errText()));
    QVERIFY2(r.errText().contains(message), qPrintable(r.errText()));
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY(r.out.isEmpty());
}

ATTNVIZ_TEST_MAIN(TestCliCompare)
#include "test_cli_compare.moc"
