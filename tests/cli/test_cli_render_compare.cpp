// `attnviz-cli render --with B`: the comparison drawn as A, B and B − A side by side at the asked size (PNG, SVG,
// PDF; the pixels are checked by tests/ui/test_compare_view.cpp, which can decode images), and its numbers (CSV, JSON) equal to what `attnviz-cli compare` reports for the same sentences, gold links
// included; errors for models that cannot be compared.
#include "process_run.h"
#include "test_files.h"
#include "test_models.h"
#include "test_registry.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>
#include <nlohmann/json.hpp>

#include <cmath>

using namespace attnviz;
using namespace attnviz::testing;
using nlohmann::json;

namespace {

ProcessRun cli(const QStringList& args) {
    RunOptions options;
    options.timeout_ms = 120000;
    return runProcess(QStringLiteral(ATTNVIZ_CLI_PATH), args, options);
}

// The comma-separated fields of each CSV line (no quoted fields in these sentences).
std::vector<QStringList> csvLines(const QByteArray& text) {
    std::vector<QStringList> out;
    for (const QString& line : QString::fromUtf8(text).split(u'\n', Qt::SkipEmptyParts))
        out.push_back(line.split(u','));
    return out;
}

// The width and height in a PNG's IHDR chunk (big-endian at bytes 16 and 20).
QSize pngSize(const QByteArray& png) {
    auto be32 = [&](int at) {
        return int((quint32(uchar(png[at])) << 24) | (quint32(uchar(png[at + 1])) << 16) |
                   (quint32(uchar(png[at + 2])) << 8) | quint32(uchar(png[at + 3])));
    };
    if (png.size() < 24 || !png.startsWith("\x89PNG")) return {};
    return {be32(16), be32(20)};
}

}  // namespace

class TestCliRenderCompare : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void imagesHaveTheAskedSizeAndThreePanels();
    void numbersEqualCompare();
    void goldLinksGiveCompareAer();
    void modelsThatCannotBeCompared();

private:
    QTemporaryDir dir_;
    QString a_, b_, other_;
};

void TestCliRenderCompare::initTestCase() {
    QVERIFY(dir_.isValid());
    a_ = saveInto(smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 41, 3.0f), dir_,
                  "a-additive.safetensors");
    b_ = saveInto(smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Dot), 42, 3.0f), dir_, "b-dot.safetensors");
    other_ = saveInto(makeRandomModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Dot), smallSourceVocab(),
                                      vocabWith({"je", "t'", "aime"}), 43),
                      dir_, "other-vocab.safetensors");
}

void TestCliRenderCompare::imagesHaveTheAskedSizeAndThreePanels() {
    const QString png = dir_.filePath("cmp.png");
    const ProcessRun r = cli({"render", "--model", a_, "--with", b_, "--out", png, "--width", "1500", "--height", "500",
                              "the", "cat", "sat", "on", "the", "mat"});
    QVERIFY2(r.code == 0, qPrintable(r.errText()));
    QCOMPARE(r.outText().trimmed(), QDir::toNativeSeparators(png));
    QCOMPARE(pngSize(readFile(png)), QSize(1500, 500));

    for (const QString& ext : {QStringLiteral("svg"), QStringLiteral("pdf")}) {
        const QString path = dir_.filePath("cmp." + ext);
        const ProcessRun v = cli({"render", "--model", a_, "--with", b_, "--out", path, "--width", "1500", "--height",
                                  "500", "the cat sat"});
        QVERIFY2(v.code == 0, qPrintable(v.errText()));
        const QByteArray bytes = readFile(path);
        if (ext == QLatin1String("svg")) {
            QVERIFY(bytes.contains("viewBox=\"0 0 1500 500\""));
            // The three panels' titles are text; the difference's colour scale has its own label.
            QVERIFY(bytes.contains("A: a-additive"));
            QVERIFY(bytes.contains("B: b-dot"));
            QVERIFY(bytes.contains("B \u2212 A"));
        } else {
            QVERIFY(bytes.startsWith("%PDF-"));
        }
    }
}

void TestCliRenderCompare::numbersEqualCompare() {
    const QStringList sentence{"i", "ate", "an", "apple", "yesterday"};
    const ProcessRun c = cli(QStringList{"compare", "--model", a_, "--with", b_, "--json"} + sentence);
    QVERIFY2(c.code == 0, qPrintable(c.errText()));
    const json want = json::parse(c.out.toStdString())["sentences"][0];
    QVERIFY(want["tv"].get<double>() > 0.01);  // the two models really differ

    const QString json_path = dir_.filePath("cmp.json"), csv_path = dir_.filePath("cmp.csv");
    for (const QString& out : {json_path, csv_path}) {
        const ProcessRun r = cli(QStringList{"render", "--model", a_, "--with", b_, "--out", out} + sentence);
        QVERIFY2(r.code == 0, qPrintable(r.errText()));
    }
    const json got = json::parse(readFile(json_path).toStdString());
    for (const char* key : {"rows", "tv", "js", "argmax_agreement", "entropy_a", "entropy_b"})
        QVERIFY2(got[key] == want[key], key);
    QVERIFY(got["target_tokens"] == want["target_tokens"]);
    QVERIFY(got["source_tokens"] == want["source_tokens"]);
    QVERIFY(!got.contains("aer_a"));

    // B − A is the difference of the two attention matrices in the file, cell by cell.
    const json& a = got["attention_a"];
    const json& b = got["attention_b"];
    const json& d = got["difference"];
    QCOMPARE(d.size(), a.size());
    for (size_t t = 0; t < a.size(); ++t)
        for (size_t j = 0; j < a[t].size(); ++j)
            QCOMPARE(d[t][j].get<float>(), b[t][j].get<float>() - a[t][j].get<float>());

    // The CSV: one line per row; its values are the JSON's per_row ones, their means compare's.
    const std::vector<QStringList> lines = csvLines(readFile(csv_path));
    QCOMPARE(lines.front().join(u','), QStringLiteral("target,tv,js,argmax_a,argmax_b,agree,entropy_a,entropy_b"));
    const int rows = want["rows"].get<int>();
    QCOMPARE(int(lines.size()), rows + 1);
    double tv = 0, js = 0, agree = 0;
    for (int t = 0; t < rows; ++t) {
        const QStringList& f = lines[size_t(t + 1)];
        const json& pr = got["per_row"][size_t(t)];
        QCOMPARE(f[0].toStdString(), want["target_tokens"][size_t(t)].get<std::string>());
        QCOMPARE(f[1].toDouble(), pr["tv"].get<double>());
        QCOMPARE(f[2].toDouble(), pr["js"].get<double>());
        QCOMPARE(f[3].toInt(), pr["argmax_a"].get<int>());
        QCOMPARE(f[4].toInt(), pr["argmax_b"].get<int>());
        QCOMPARE(f[5] == QLatin1String("1"), f[3] == f[4]);
        tv += f[1].toDouble(), js += f[2].toDouble(), agree += f[5].toInt();
    }
    QVERIFY(std::abs(tv / rows - want["tv"].get<double>()) < 1e-12);
    QVERIFY(std::abs(js / rows - want["js"].get<double>()) < 1e-12);
    QCOMPARE(agree / rows, want["argmax_agreement"].get<double>());
}

void TestCliRenderCompare::goldLinksGiveCompareAer() {
    const QString data = dir_.filePath("gold.tsv");
    writeFile(data, "i ate an apple yesterday\t我 昨天 吃 了 一个 苹果\t0-0 4-1 2-2 2-3 3-4 3-5\n");
    const ProcessRun c = cli({"compare", "--model", a_, "--with", b_, "--data", data, "--json"});
    QVERIFY2(c.code == 0, qPrintable(c.errText()));
    const json want = json::parse(c.out.toStdString())["sentences"][0];
    QVERIFY(want.contains("aer_a"));

    const QString out = dir_.filePath("gold-out");
    const ProcessRun r =
        cli({"render", "--model", a_, "--with", b_, "--input", data, "--out-dir", out, "--format", "json"});
    QVERIFY2(r.code == 0, qPrintable(r.errText()));
    const json got = json::parse(readFile(QDir(out).filePath("0001.json")).toStdString());
    for (const char* key : {"rows", "tv", "js", "argmax_agreement", "aer_a", "aer_b"})
        QVERIFY2(got[key] == want[key], key);
}

void TestCliRenderCompare::modelsThatCannotBeCompared() {
    const ProcessRun r =
        cli({"render", "--model", a_, "--with", other_, "--out", dir_.filePath("no.png"), "i", "love", "you"});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.errText().startsWith("attnviz-cli render: "), qPrintable(r.errText()));
    QVERIFY2(r.errText().contains("cannot be compared: target vocabularies differ (18 against 7 tokens)"),
             qPrintable(r.errText()));
    QVERIFY(!QFile::exists(dir_.filePath("no.png")));
    const ProcessRun missing =
        cli({"render", "--model", a_, "--with", dir_.filePath("nope.safetensors"), "--out", "x.png", "i"});
    QCOMPARE(missing.code, 1);
    QVERIFY2(missing.errText().contains("nope.safetensors"), qPrintable(missing.errText()));
}

ATTNVIZ_TEST_MAIN(TestCliRenderCompare)
#include "test_cli_render_compare.moc"
