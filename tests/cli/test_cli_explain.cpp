// attnviz-cli explain and eval --explain (docs/explain.md's CLI) on the shipped models: the JSON is the decode
// object plus each method's T × S matrix equal to the engine's (core/explain) on the same decode, ig_steps and
// ig_delta with ig, contrast with --contrast; rollout of an RNN model and malformed flags are usage errors that say
// why; eval --explain reports each method's AER, AOPC and occlusion Spearman beside the random floor, and the
// engine's per-line measures add up to them. render --method draws a method's matrix with the heatmap's renderer:
// its numbers are the engine's, signed methods on the diverging map.
#include "decode/decoding.h"
#include "explain/explanation.h"
#include "explain/measures.h"
#include "io/corpus.h"
#include "io/decode_json.h"
#include "io/model_file.h"
#include "process_run.h"
#include "test_registry.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>

using namespace attnviz;
using namespace attnviz::testing;
using nlohmann::json;

namespace {

const QString kRnn = QStringLiteral(ATTNVIZ_SOURCE_DIR "/sample_models/en_fr-bahdanau-additive.safetensors");
const QString kTatoebaTransformer = QStringLiteral(ATTNVIZ_SOURCE_DIR "/sample_models/tatoeba-transformer.safetensors");

// The largest difference between a JSON matrix and an engine matrix; +inf when the shapes differ.
double maxDifference(const json& rows, const Mat& m) {
    if (!rows.is_array() || Eigen::Index(rows.size()) != m.rows()) return INFINITY;
    double worst = 0;
    for (Eigen::Index t = 0; t < m.rows(); ++t) {
        if (Eigen::Index(rows[size_t(t)].size()) != m.cols()) return INFINITY;
        for (Eigen::Index j = 0; j < m.cols(); ++j)
            worst = std::max(worst, std::abs(rows[size_t(t)][size_t(j)].get<double>() - double(m(t, j))));
    }
    return worst;
}

}  // namespace

class TestCliExplain : public QObject {
    Q_OBJECT
private slots:
    void jsonMatrixesEqualTheEngine_data();
    void jsonMatrixesEqualTheEngine();
    void contrastIsNamedInTheJson();
    void textTablesNameEveryMethod();
    void usageErrorsSayWhy_data();
    void usageErrorsSayWhy();
    void evalExplainAddsUpTheEnginesLineMeasures();
    void renderMethodWritesTheEnginesMatrix();
    void renderMethodDrawsSignedValuesOnTheDivergingMap();
    void renderMethodUsageErrorsSayWhy();
    void renderMethodOfAnIntervenedDecodeIsTheIntervenedModels();
};

void TestCliExplain::jsonMatrixesEqualTheEngine_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("sentence");
    QTest::addColumn<QStringList>("extra");
    QTest::newRow("rnn greedy") << kRnn << "the cat sat on the mat" << QStringList{};
    QTest::newRow("rnn forced") << kRnn << "the cat ate" << QStringList{"--target", "le chat a mangé"};
    QTest::newRow("rnn beam") << kRnn << "he does not eat" << QStringList{"--beam", "3"};
    QTest::newRow("transformer greedy") << kTatoebaTransformer << "I love you." << QStringList{};
}

void TestCliExplain::jsonMatrixesEqualTheEngine() {
    QFETCH(QString, model);
    QFETCH(QString, sentence);
    QFETCH(QStringList, extra);
    if (!QFile::exists(model)) QSKIP("sample model not shipped");
    const ProcessRun r =
        runCli(QStringList{"explain", "--model", model, "--method", "all", "--ig-steps", "8", "--json"} + extra +
               QStringList{sentence});
    QVERIFY2(r.code == 0, qPrintable(r.errText()));
    const json j = json::parse(r.out.toStdString());
    const DecodeResult d = decodeFromJson(j);
    const Model m = loadModel(model.toStdString());
    const std::vector<ExplainMethod> methods = methodsFor(m.config);
    QCOMPARE(j["explanations"].size(), methods.size());
    ExplainOptions o;
    o.ig_steps = 8;
    for (ExplainMethod method : methods) {
        const Explanation e = explainDecode(m, d, method, o);
        const double diff = maxDifference(j["explanations"][methodInfo(method).name], e.values);
        QVERIFY2(diff < 1e-5, qPrintable(QString("%1: %2").arg(methodInfo(method).name).arg(diff)));
    }
    QCOMPARE(j["ig_steps"].get<int>(), 8);
    QCOMPARE(j["ig_delta"].size(), d.target_ids.size());
    QVERIFY(!j.contains("contrast"));
}

void TestCliExplain::contrastIsNamedInTheJson() {
    const ProcessRun r = runCli(
        {"explain", "--model", kRnn, "--method", "grad_input", "--contrast", "1:chien", "--json", "the cat ate"});
    QVERIFY2(r.code == 0, qPrintable(r.errText()));
    const json j = json::parse(r.out.toStdString());
    QCOMPARE(j["contrast"]["row"].get<int>(), 1);
    QCOMPARE(j["contrast"]["token"].get<std::string>(), std::string("chien"));
    const Model m = loadModel(kRnn.toStdString());
    ExplainOptions o;
    o.contrast = Contrast{1, m.target_vocab.id("chien")};
    const Explanation e = explainDecode(m, decodeFromJson(j), ExplainMethod::GradInput, o);
    QVERIFY(maxDifference(j["explanations"]["grad_input"], e.values) < 1e-5);
    QVERIFY(!j.contains("ig_delta"));
}

void TestCliExplain::textTablesNameEveryMethod() {
    const ProcessRun r = runCli({"explain", "--model", kRnn, "--method", "attention,occlusion", "the cat ate"});
    QVERIFY2(r.code == 0, qPrintable(r.errText()));
    QVERIFY(r.outText().contains("\nattention\n"));
    QVERIFY(r.outText().contains("\nocclusion (signed)\n"));
    QVERIFY(r.outText().contains("<sos>"));
}

void TestCliExplain::usageErrorsSayWhy_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("message");
    QTest::newRow("rollout of an RNN") << QStringList{"--method", "rollout"} << 2 << "needs a Transformer";
    QTest::newRow("unknown method") << QStringList{"--method", "saliency"} << 2 << "unknown method \"saliency\"";
    QTest::newRow("ig steps 0") << QStringList{"--ig-steps", "0"} << 2 << "--ig-steps";
    QTest::newRow("contrast without colon") << QStringList{"--contrast", "1"} << 2 << "ROW:TOKEN";
    QTest::newRow("contrast row not a number") << QStringList{"--contrast", " 1:chien"} << 2
                                               << "--contrast's row: expected an integer of at least 0, got \" 1\"";
    QTest::newRow("contrast row past the end")
        << QStringList{"--contrast", "40:chien"} << 1 << "--contrast 40:chien: row 40 is outside the decode's";
    QTest::newRow("contrast token unknown")
        << QStringList{"--contrast", "1:\x1b[2Jzz"} << 1 << "\"\\e[2Jzz\" is not in the model's target vocabulary";
}

void TestCliExplain::usageErrorsSayWhy() {
    QFETCH(QStringList, args);
    QFETCH(int, code);
    QFETCH(QString, message);
    const ProcessRun r = runCli(QStringList{"explain", "--model", kRnn} + args + QStringList{"the cat ate"});
    QCOMPARE(r.code, code);
    QVERIFY2(r.errText().contains(message), qPrintable(r.errText()));
    QVERIFY(!r.err.contains('\x1b'));
}

void TestCliExplain::evalExplainAddsUpTheEnginesLineMeasures() {
    QTemporaryDir dir;
    const QString data = dir.filePath("test.tsv");
    QFile f(data);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(
        "the cat sat on the mat\tle chat s'est assis sur le tapis\t0-0 1-1 2-2 2?3 3-4 4?5 5-6\n"
        "the cat ate\tle chat a mangé\t0-0 1-1 2-2 2-3\n");
    f.close();
    const ProcessRun r = runCli({"eval", "--model", kRnn, "--data", data, "--explain", "attention,grad_input", "--seed",
                                 "7", "--json", "--threads", "1"});
    QVERIFY2(r.code == 0, qPrintable(r.errText()));
    const json j = json::parse(r.out.toStdString())["explain"];
    QVERIFY(j.contains("attention") && j.contains("grad_input") && j.contains("random"));

    const Model m = loadModel(kRnn.toStdString());
    CorpusOptions co;
    co.require_target = true;
    co.tokenizer = m.config.tokenizer;
    const Corpus corpus = readCorpus(data.toStdString(), co);
    const std::vector<ExplainMethod> methods = {ExplainMethod::Attention, ExplainMethod::GradInput};
    std::vector<ExplainMeasures> total(2);
    ExplainMeasures random;
    for (size_t i = 0; i < corpus.examples.size(); ++i) {
        const CorpusExample& ex = corpus.examples[i];
        const DecodeResult forced = forcedDecode(m, ex.source, ex.target);
        const LineMeasures line = measureLine(m, forced, &ex.alignment, methods, {}, 7 + i);
        for (size_t k = 0; k < 2; ++k) total[k] += line.methods[k];
        random += line.random;
    }
    for (size_t k = 0; k < 2; ++k) {
        const json& got = j[methodInfo(methods[k]).name];
        QCOMPARE(got["aer"].get<double>(), total[k].aer.aer());
        QVERIFY(std::abs(got["aopc"].get<double>() - total[k].aopc.mean()) < 1e-9);
        QVERIFY(std::abs(got["occlusion_spearman"].get<double>() - total[k].occlusion_spearman.mean()) < 1e-9);
    }
    QVERIFY(std::abs(j["random"]["aopc"].get<double>() - random.aopc.mean()) < 1e-9);
    // the measures are not all alike: an explanation that found what the model used removes more than chance
    QVERIFY(total[1].aopc.mean() != random.aopc.mean());
}

void TestCliExplain::renderMethodWritesTheEnginesMatrix() {
    QTemporaryDir dir;
    const QString json_path = dir.filePath("ig.json"), csv_path = dir.filePath("ig.csv");
    for (const QString& out : {json_path, csv_path}) {
        const ProcessRun r = runCli({"render", "--model", kRnn, "--method", "ig", "--ig-steps", "4", "--target",
                                     "le chat a mangé", "--out", out, "the cat ate"});
        QVERIFY2(r.code == 0, qPrintable(r.errText()));
    }
    QFile f(json_path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const json j = json::parse(f.readAll().toStdString());
    const Model m = loadModel(kRnn.toStdString());
    ExplainOptions o;
    o.ig_steps = 4;
    const Explanation e = explainDecode(m, decodeFromJson(j), ExplainMethod::IntegratedGradients, o);
    QVERIFY(maxDifference(j["explanations"]["ig"], e.values) < 1e-5);
    QCOMPARE(j["ig_steps"].get<int>(), 4);
    // the CSV holds the same matrix where the attention would be: row 0's cells, in order
    QFile c(csv_path);
    QVERIFY(c.open(QIODevice::ReadOnly));
    const QString csv = QString::fromUtf8(c.readAll());
    const QStringList lines = csv.split('\n', Qt::SkipEmptyParts);
    QVERIFY(lines.size() >= 2);
    const QStringList first = lines[1].split(',');
    QVERIFY(first.size() >= int(e.values.cols()));
    for (Eigen::Index jx = 0; jx < e.values.cols(); ++jx) {
        const double v = first[first.size() - int(e.values.cols()) + int(jx)].toDouble();
        QVERIFY2(std::abs(v - double(e.values(0, jx))) < 1e-5, qPrintable(lines[1]));
    }
}

void TestCliExplain::renderMethodDrawsSignedValuesOnTheDivergingMap() {
    // The SVG keeps its text: the colour scale is labelled with the method, and a signed method's scale is
    // symmetric about 0 (negative tick labels), which the attention's 0 to 1 scale never has.
    QTemporaryDir dir;
    QString svg[2];
    const QStringList methods = {"attention", "occlusion"};
    for (int i = 0; i < 2; ++i) {
        const QString out = dir.filePath(methods[i] + ".svg");
        const ProcessRun r =
            runCli({"render", "--model", kRnn, "--method", methods[i], "--out", out, "the cat sat on the mat"});
        QVERIFY2(r.code == 0, qPrintable(r.errText()));
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        svg[i] = QString::fromUtf8(f.readAll());
    }
    const QRegularExpression negative_tick(QStringLiteral(">\\s*[-\u2212]\\d"));
    QVERIFY(!svg[0].contains(negative_tick));
    QVERIFY(svg[1].contains(negative_tick));
    QVERIFY(svg[1].contains(QStringLiteral("Occlusion")));
}

void TestCliExplain::renderMethodUsageErrorsSayWhy() {
    QTemporaryDir dir;
    const QString out = dir.filePath("x.png");
    const ProcessRun rollout = runCli({"render", "--model", kRnn, "--method", "rollout", "--out", out, "the cat"});
    QCOMPARE(rollout.code, 2);
    QVERIFY2(rollout.errText().contains("needs a Transformer"), qPrintable(rollout.errText()));
    const ProcessRun two = runCli({"render", "--model", kRnn, "--method", "ig,occlusion", "--out", out, "the cat"});
    QCOMPARE(two.code, 2);
    QVERIFY2(two.errText().contains("one method"), qPrintable(two.errText()));
    const ProcessRun with =
        runCli({"render", "--model", kRnn, "--method", "ig", "--with", kRnn, "--out", out, "the cat"});
    QCOMPARE(with.code, 2);
    QVERIFY2(with.errText().contains("--with"), qPrintable(with.errText()));
    QVERIFY(!QFile::exists(out));
}

// render --method with --knockout draws the method of the intervened model, named in the JSON's "interventions".
void TestCliExplain::renderMethodOfAnIntervenedDecodeIsTheIntervenedModels() {
    QTemporaryDir dir;
    const QString out = dir.filePath("occlusion.json"), csv_path = dir.filePath("occlusion.csv");
    for (const QString& path : {out, csv_path}) {
        const ProcessRun r = runCli({"render", "--model", kRnn, "--method", "occlusion", "--knockout", "1", "--target",
                                     "le chat a mangé", "--out", path, "the cat ate"});
        QVERIFY2(r.code == 0, qPrintable(r.errText()));
    }
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const json j = json::parse(f.readAll().toStdString());
    QCOMPARE(QString::fromStdString(j["interventions"].dump()), QString(R"({"knockout":[1]})"));
    const Model m = loadModel(kRnn.toStdString());
    ExplainOptions o;
    o.interventions.knockout = {1};
    const DecodeResult d = decodeFromJson(j);
    const Explanation e = explainDecode(m, d, ExplainMethod::Occlusion, o);
    QVERIFY(maxDifference(j["explanations"]["occlusion"], e.values) < 1e-5);
    QVERIFY(maxDifference(j["explanations"]["occlusion"], explainDecode(m, d, ExplainMethod::Occlusion).values) > 1e-3);
    // the CSV names them in its first header cell
    QFile c(csv_path);
    QVERIFY(c.open(QIODevice::ReadOnly));
    const QString header = QString::fromUtf8(c.readLine());
    QVERIFY2(header.startsWith(QStringLiteral("\"target\\source interventions {\"\"knockout\"\":[1]}\"")),
             qPrintable(header));
}

ATTNVIZ_TEST_MAIN(TestCliExplain)
#include "test_cli_explain.moc"
