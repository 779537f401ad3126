// attnviz-cli's interventions (docs/explain.md: --knockout, --attend, --head-off) on the shipped models: decode's
// JSON is the engine's intervened decode (greedy, forced, beam) with the "interventions" object; render, eval and
// explain decode the same; malformed values are usage errors naming them, values the model cannot take engine
// errors naming them, escaped.
#include "decode/decoding.h"
#include "eval/head_importance.h"
#include "explain/explanation.h"
#include "explain/measures.h"
#include "io/corpus.h"
#include "io/decode_json.h"
#include "io/model_file.h"
#include "process_run.h"
#include "test_registry.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

using namespace attnviz;
using namespace attnviz::testing;
using nlohmann::json;

namespace {

const QString kBahdanau = QStringLiteral(ATTNVIZ_SOURCE_DIR "/sample_models/en_fr-bahdanau-additive.safetensors");
const QString kLuong = QStringLiteral(ATTNVIZ_SOURCE_DIR "/sample_models/en_fr-luong-general-local_p.safetensors");
const QString kTransformer = QStringLiteral(ATTNVIZ_SOURCE_DIR "/sample_models/en_fr-transformer.safetensors");
const char* const kSource = "the cat sat on the mat";
const char* const kReference = "le chat s'est assis sur le tapis";

// The engine's decode of kSource with `iv`: forced on kReference, a beam search of width `beam`, or greedy.
DecodeResult engineDecode(const Model& m, const Interventions& iv, bool forced, int beam) {
    DecodeOptions o;
    o.interventions = iv;
    if (forced) return forcedDecode(m, kSource, kReference, o);
    return beam > 1 ? beamSearch(m, kSource, beam, o).best : greedyDecode(m, kSource, o);
}

}  // namespace

class TestCliInterventions : public QObject {
    Q_OBJECT
private slots:
    void decodeJsonIsTheEnginesIntervenedDecode_data();
    void decodeJsonIsTheEnginesIntervenedDecode();
    void plainDecodeHasNoInterventionsKey();
    void renderCsvAndJsonAreTheEnginesIntervenedDecode();
    void evalCountsTheIntervenedOutputs();
    void explainExplainsTheIntervenedDecode();
    void evalHeadImportanceIsTheEngines();
    void errorsNameTheBadValue_data();
    void errorsNameTheBadValue();
};

void TestCliInterventions::decodeJsonIsTheEnginesIntervenedDecode_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<QStringList>("flags");
    QTest::addColumn<bool>("forced");
    QTest::addColumn<int>("beam");
    QTest::addColumn<QString>("expected");  // the "interventions" object
    const Interventions knock{{1, 3}, {}, {}};
    const Interventions attend{{}, {{0, 2}, {2, 4}}, {}};
    const Interventions heads{{}, {}, {{AttentionKind::Cross, 0, 1}, {AttentionKind::EncoderSelf, 1, 0}}};
    QTest::newRow("bahdanau knockout") << kBahdanau << QStringList{"--knockout", "1,3"} << false << 1
                                       << R"({"knockout":[1,3]})";
    QTest::newRow("bahdanau attend") << kBahdanau << QStringList{"--attend", "0:2", "--attend", "2:4"} << false << 1
                                     << R"({"attend":[[0,2],[2,4]]})";
    QTest::newRow("luong local_p knockout and attend, forced")
        << kLuong << QStringList{"--knockout", "3", "--attend=1:5", "--target", kReference} << true << 1
        << R"({"knockout":[3],"attend":[[1,5]]})";
    QTest::newRow("bahdanau knockout, beam")
        << kBahdanau << QStringList{"--knockout", "2", "--beam", "3"} << false << 3 << R"({"knockout":[2]})";
    QTest::newRow("transformer heads off")
        << kTransformer << QStringList{"--head-off", "cross:0,1", "--head-off", "encoder:1,0"} << false << 1
        << R"({"head_off":[["cross",0,1],["encoder",1,0]]})";
    QTest::newRow("transformer knockout and decoder head, beam")
        << kTransformer << QStringList{"--knockout", "2,5", "--head-off", "decoder:1,3", "--beam", "2"} << false << 2
        << R"({"knockout":[2,5],"head_off":[["decoder",1,3]]})";
}

void TestCliInterventions::decodeJsonIsTheEnginesIntervenedDecode() {
    QFETCH(QString, model);
    QFETCH(QStringList, flags);
    QFETCH(bool, forced);
    QFETCH(int, beam);
    QFETCH(QString, expected);
    if (!QFile::exists(model)) QSKIP("sample model not shipped");
    const ProcessRun r = runCli(QStringList{"decode", "--model", model, "--json"} + flags + QStringList{kSource});
    QVERIFY2(r.code == 0, qPrintable(r.errText()));
    const json j = json::parse(r.out.toStdString());
    // In the order docs/cli.md writes the keys: knockout, attend, head_off.
    QCOMPARE(QString::fromStdString(nlohmann::ordered_json::parse(r.out.toStdString())["interventions"].dump()),
             expected);

    const Model m = loadModel(model.toStdString());
    const json ivj = json::parse(expected.toStdString());
    Interventions iv;
    if (ivj.contains("knockout")) iv.knockout = ivj["knockout"].get<std::vector<int>>();
    for (const json& a : ivj.value("attend", json::array())) iv.attend.push_back({a[0].get<int>(), a[1].get<int>()});
    for (const json& h : ivj.value("head_off", json::array())) {
        const AttentionKind kind = *headKindFromName(h[0].get<std::string>());
        iv.heads_off.push_back({kind, h[1].get<int>(), h[2].get<int>()});
    }
    const DecodeResult e = engineDecode(m, iv, forced, beam);
    const DecodeResult d = decodeFromJson(j);
    QCOMPARE(d.target_ids, e.target_ids);
    QCOMPARE(d.attention, e.attention);  // the JSON gives every float back bit for bit
    QCOMPARE(d.log_probs, e.log_probs);
    QVERIFY(d.target_ids != engineDecode(m, {}, forced, beam).target_ids ||
            d.attention != engineDecode(m, {}, forced, beam).attention);  // the intervention changed something
}

void TestCliInterventions::plainDecodeHasNoInterventionsKey() {
    const ProcessRun r = runCli({"decode", "--model", kBahdanau, "--json", kSource});
    QVERIFY2(r.code == 0, qPrintable(r.errText()));
    QVERIFY(!json::parse(r.out.toStdString()).contains("interventions"));
    const ProcessRun text = runCli({"decode", "--model", kBahdanau, "--knockout", "1", kSource});
    QVERIFY2(text.outText().contains("interventions {\"knockout\":[1]}"), qPrintable(text.outText()));
}

void TestCliInterventions::renderCsvAndJsonAreTheEnginesIntervenedDecode() {
    QTemporaryDir dir;
    const QString out = dir.filePath("m.csv");
    const ProcessRun r =
        runCli({"render", "--model", kBahdanau, "--out", out, "--attend", "1:1", "--knockout", "4", kSource});
    QVERIFY2(r.code == 0, qPrintable(r.errText()));
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const Interventions iv{{4}, {{1, 1}}, {}};
    const DecodeResult e = engineDecode(loadModel(kBahdanau.toStdString()), iv, false, 1);
    const std::string csv = f.readAll().toStdString();
    QCOMPARE(csv, decodeToCsv(e, iv));
    // The interventions in the header's first cell; the rows are the plain CSV's.
    QVERIFY(csv.rfind(R"("target\source interventions {""knockout"":[4],""attend"":[[1,1]]}",)", 0) == 0);
    QCOMPARE(csv.substr(csv.find('\n')), decodeToCsv(e).substr(decodeToCsv(e).find('\n')));
    const QString out_json = dir.filePath("m.json");
    const ProcessRun rj =
        runCli({"render", "--model", kBahdanau, "--out", out_json, "--attend", "1:1", "--knockout", "4", kSource});
    QVERIFY2(rj.code == 0, qPrintable(rj.errText()));
    QFile fj(out_json);
    QVERIFY(fj.open(QIODevice::ReadOnly));
    const nlohmann::ordered_json j = nlohmann::ordered_json::parse(fj.readAll().toStdString());
    QCOMPARE(QString::fromStdString(j["interventions"].dump()), QString(R"({"knockout":[4],"attend":[[1,1]]})"));
    const DecodeResult d = decodeFromJson(json::parse(j.dump()));
    QCOMPARE(d.target_ids, e.target_ids);
    QCOMPARE(d.attention, e.attention);
}

// eval decodes every line with the interventions: its output token count is the engine's intervened greedy outputs'.
void TestCliInterventions::evalCountsTheIntervenedOutputs() {
    QTemporaryDir dir;
    const QString data = dir.filePath("test.tsv");
    QFile f(data);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("the cat sat on the mat\tle chat s'est assis sur le tapis\nthe cat ate\tle chat a mangé\n");
    f.close();
    const ProcessRun r = runCli({"eval", "--model", kBahdanau, "--data", data, "--knockout", "1,2", "--json"});
    QVERIFY2(r.code == 0, qPrintable(r.errText()));
    const json j = json::parse(r.out.toStdString());
    QCOMPARE(QString::fromStdString(j["interventions"].dump()), QString(R"({"knockout":[1,2]})"));
    const Model m = loadModel(kBahdanau.toStdString());
    DecodeOptions o;
    o.interventions.knockout = {1, 2};
    const size_t tokens = greedyDecode(m, "the cat sat on the mat", o).target_ids.size() +
                          greedyDecode(m, "the cat ate", o).target_ids.size();
    QCOMPARE(j["output_tokens"].get<size_t>(), tokens);
    // --explain measures the intervened model's explanations: occlusion's AOPC is the engine's on the forced decodes
    // made with the knockout
    const ProcessRun measured =
        runCli({"eval", "--model", kBahdanau, "--data", data, "--knockout", "1", "--explain", "occlusion", "--json"});
    QVERIFY2(measured.code == 0, qPrintable(measured.errText()));
    const double aopc = json::parse(measured.out.toStdString())["explain"]["occlusion"]["aopc"].get<double>();
    ExplainOptions knocked;
    knocked.interventions.knockout = {1};
    MeanSum with, without;
    for (const auto& [source, reference] : {std::pair("the cat sat on the mat", "le chat s'est assis sur le tapis"),
                                            std::pair("the cat ate", "le chat a mangé")}) {
        DecodeOptions f;
        f.interventions = knocked.interventions;
        const DecodeResult forced = forcedDecode(m, source, reference, f);
        with += measureLine(m, forced, nullptr, {ExplainMethod::Occlusion}, {}, 0, knocked).methods[0].aopc;
        const DecodeResult plain = forcedDecode(m, source, reference);
        without += measureLine(m, plain, nullptr, {ExplainMethod::Occlusion}, {}, 0).methods[0].aopc;
    }
    QVERIFY2(std::abs(aopc - with.mean()) < 1e-9 * (1 + std::abs(aopc)),
             qPrintable(QString("%1 vs %2").arg(aopc).arg(with.mean())));
    QVERIFY(std::abs(aopc - without.mean()) > 1e-4);
}

// explain explains the intervened decode: its attention is the decode's own, and the methods that run the model again
// run the intervened model, as the engine's explainDecode with the same interventions.
void TestCliInterventions::explainExplainsTheIntervenedDecode() {
    const ProcessRun r =
        runCli({"explain", "--model", kBahdanau, "--method", "attention", "--knockout", "2", "--json", kSource});
    QVERIFY2(r.code == 0, qPrintable(r.errText()));
    const json j = json::parse(r.out.toStdString());
    QCOMPARE(QString::fromStdString(j["interventions"].dump()), QString(R"({"knockout":[2]})"));
    const DecodeResult e = engineDecode(loadModel(kBahdanau.toStdString()), {{2}, {}, {}}, false, 1);
    const json& rows = j["explanations"]["attention"];
    QCOMPARE(rows.size(), e.attention.size());
    for (size_t t = 0; t < rows.size(); ++t) {
        QCOMPARE(rows[t][2].get<double>(), 0.0);
        for (size_t k = 0; k < rows[t].size(); ++k) QCOMPARE(rows[t][k].get<float>(), e.attention[t][k]);
    }
    const ProcessRun rerun = runCli({"explain", "--model", kBahdanau, "--method", "grad_input,occlusion", "--knockout",
                                     "2", "--attend", "1:3", "--json", kSource});
    QVERIFY2(rerun.code == 0, qPrintable(rerun.errText()));
    const json k = json::parse(rerun.out.toStdString());
    const Model m = loadModel(kBahdanau.toStdString());
    const Interventions iv{{2}, {{1, 3}}, {}};
    ExplainOptions o;
    o.interventions = iv;
    const DecodeResult d = engineDecode(m, iv, false, 1);
    for (const ExplainMethod method : {ExplainMethod::GradInput, ExplainMethod::Occlusion}) {
        const Mat want = explainDecode(m, d, method, o).values;
        const Mat plain = explainDecode(m, d, method).values;
        const json& got = k["explanations"][methodInfo(method).name];
        QCOMPARE(got.size(), size_t(want.rows()));
        bool differs_from_plain = false;
        for (Eigen::Index t = 0; t < want.rows(); ++t)
            for (Eigen::Index j = 0; j < want.cols(); ++j) {
                QCOMPARE(got[size_t(t)][size_t(j)].get<float>(), want(t, j));
                differs_from_plain = differs_from_plain || std::abs(want(t, j) - plain(t, j)) > 1e-4f;
            }
        QVERIFY2(differs_from_plain, methodInfo(method).name);
    }
}

// eval --head-importance: one entry per head of the engine's headImportance on the same lines, with docs/cli.md's keys.
void TestCliInterventions::evalHeadImportanceIsTheEngines() {
    QTemporaryDir dir;
    const QString data = dir.filePath("test.tsv");
    QFile f(data);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("the cat sat on the mat\tle chat s'est assis sur le tapis\nthe cat ate\tle chat a mangé\n");
    f.close();
    const ProcessRun r = runCli({"eval", "--model", kTransformer, "--data", data, "--head-importance", "--json"});
    QVERIFY2(r.code == 0, qPrintable(r.errText()));
    const json heads = json::parse(r.out.toStdString())["heads"];
    const Model m = loadModel(kTransformer.toStdString());
    CorpusOptions co;
    co.require_target = true;
    const std::vector<HeadScore> e = headImportance(m, readCorpus(data.toStdString(), co).examples);
    QCOMPARE(heads.size(), e.size());
    for (size_t k = 0; k < e.size(); ++k) {
        QCOMPARE(heads[k]["kind"].get<std::string>(), std::string(headKindName(e[k].head.kind)));
        QCOMPARE(heads[k]["layer"].get<int>(), e[k].head.layer);
        QCOMPARE(heads[k]["head"].get<int>(), e[k].head.head);
        QCOMPARE(heads[k]["bleu_off"].get<double>(), e[k].bleu_off);
        QCOMPARE(heads[k]["mean_log_prob_off"].get<double>(), e[k].mean_log_prob_off);
        QCOMPARE(heads[k]["importance"].get<double>(), e[k].importance);
    }
    const ProcessRun rnn = runCli({"eval", "--model", kBahdanau, "--data", data, "--head-importance"});
    QCOMPARE(rnn.code, 1);
    QVERIFY2(rnn.errText().contains("head importance: a bahdanau model has no attention heads"),
             qPrintable(rnn.errText()));
}

void TestCliInterventions::errorsNameTheBadValue_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<QStringList>("flags");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("message");
    QTest::newRow("knockout not a number")
        << kBahdanau << QStringList{"--knockout", "1,x"} << 2
        << R"(--knockout: expected source positions J[,J...] (0-based, <sos> = 0), got "1,x")";
    QTest::newRow("knockout escaped") << kBahdanau << QStringList{"--knockout", "\x1b[2J"} << 2 << R"(got "\e[2J")";
    QTest::newRow("attend without colon")
        << kBahdanau << QStringList{"--attend", "3"} << 2
        << R"(--attend: expected T:J (a target row and a source position, 0-based), got "3")";
    QTest::newRow("head-off unknown kind")
        << kTransformer << QStringList{"--head-off", "self:0,0"} << 2
        << R"(--head-off: expected KIND:L,H with KIND cross, encoder or decoder, got "self:0,0")";
    QTest::newRow("head-off without head")
        << kTransformer << QStringList{"--head-off", "cross:1"} << 2
        << R"(--head-off: expected KIND:L,H (a layer and a head, 0-based), got "cross:1")";
    QTest::newRow("knockout past the source")
        << kBahdanau << QStringList{"--knockout", "8"} << 1
        << "knockout: source position 8 is past the source (8 tokens with <sos> and <eos>: positions 0..7)";
    QTest::newRow("attend on a transformer")
        << kTransformer << QStringList{"--attend", "0:1"} << 1 << "attend: a Transformer has no single attention row";
    QTest::newRow("head-off on an RNN") << kBahdanau << QStringList{"--head-off", "cross:0,0"} << 1
                                        << "head off: a bahdanau model has no attention heads";
    QTest::newRow("head-off layer out of range")
        << kTransformer << QStringList{"--head-off", "decoder:2,0"} << 1
        << "head off decoder: layer 2 is out of range (the model has 2 such layers: 0..1)";
    QTest::newRow("head-off head out of range") << kTransformer << QStringList{"--head-off", "encoder:0,4"} << 1
                                                << "head off encoder: head 4 is out of range (the model has 4 heads";
}

void TestCliInterventions::errorsNameTheBadValue() {
    QFETCH(QString, model);
    QFETCH(QStringList, flags);
    QFETCH(int, code);
    QFETCH(QString, message);
    const ProcessRun r = runCli(QStringList{"decode", "--model", model} + flags + QStringList{kSource});
    QCOMPARE(r.code, code);
    QVERIFY2(r.errText().contains(message), qPrintable(r.errText()));
    QVERIFY(!r.err.contains('\x1b'));
}

ATTNVIZ_TEST_MAIN(TestCliInterventions)
#include "test_cli_interventions.moc"
