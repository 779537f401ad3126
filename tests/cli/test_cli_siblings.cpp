// `--score S` among siblings that differ in more than the score (core/io/siblings.h), driven as a user would: it
// moves to the sibling with the same decoder, span, input feeding and guidance, never to one that differs in more;
// without one the error names each sibling with what differs; `info` lists the siblings with their differences.
#include "decode/decoding.h"
#include "io/model_file.h"
#include "process_run.h"
#include "test_models.h"
#include "test_registry.h"

#include <QTemporaryDir>
#include <QtTest>
#include <nlohmann/json.hpp>

using namespace attnviz;
using namespace attnviz::testing;
using nlohmann::json;

namespace {

Model trained(Model m, double align_weight) {
    m.training = json{{"align_weight", align_weight}}.dump();
    return m;
}

}  // namespace

class TestCliSiblings : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void scorePicksTheSiblingWithTheSameSettings();
    void noMatchingSiblingNamesWhatDiffers_data();
    void noMatchingSiblingNamesWhatDiffers();
    void infoListsDifferences();

private:
    QString path(const QString& name) const { return dir_.filePath(name + ".safetensors"); }
    QTemporaryDir dir_;
    Model bahdanau_dot_;
};

void TestCliSiblings::initTestCase() {
    QVERIFY(dir_.isValid());
    using DK = DecoderKind;
    using SK = ScoreKind;
    // "a-luong-dot" sorts before "c-bahdanau-dot": the first file with score dot is the wrong one for a bahdanau model.
    saveInto(trained(smallModel(smallConfig(DK::Bahdanau, SK::Additive), 41, 3.0f), 0), dir_,
             "b-bahdanau-additive.safetensors");
    saveInto(trained(smallModel(smallConfig(DK::Luong, SK::Dot), 42, 3.0f), 0), dir_, "a-luong-dot.safetensors");
    bahdanau_dot_ = trained(smallModel(smallConfig(DK::Bahdanau, SK::Dot), 43, 3.0f), 0);
    saveInto(bahdanau_dot_, dir_, "c-bahdanau-dot.safetensors");
    saveInto(trained(smallModel(smallConfig(DK::Luong, SK::General, SpanKind::Global, true), 44, 3.0f), 0), dir_,
             "d-luong-general-feed.safetensors");
    saveInto(trained(smallModel(smallConfig(DK::Bahdanau, SK::Additive), 45, 3.0f), 1), dir_,
             "e-bahdanau-additive-guided.safetensors");
}

void TestCliSiblings::scorePicksTheSiblingWithTheSameSettings() {
    const ProcessRun r =
        runCli({"decode", "--model", path("b-bahdanau-additive"), "--score", "dot", "--json", "i love the cat"});
    QVERIFY2(r.code == 0, qPrintable(r.errText()));
    const json j = json::parse(r.out.toStdString());
    QCOMPARE(j["config"]["decoder"].get<std::string>(), std::string("bahdanau"));
    QCOMPARE(j["config"]["score"].get<std::string>(), std::string("dot"));
    const DecodeResult want = greedyDecode(bahdanau_dot_, "i love the cat");
    QCOMPARE(j["target_ids"].get<std::vector<int>>(), want.target_ids);
    const auto rows = j["attention"].get<std::vector<std::vector<float>>>();
    QCOMPARE(rows, want.attention);
    // And back: from the bahdanau dot model to additive is the unguided additive, not the guided one.
    const ProcessRun back = runCli({"decode", "--model", path("c-bahdanau-dot"), "--score", "additive", "--json", "i"});
    QVERIFY2(back.code == 0, qPrintable(back.errText()));
    const Model additive = loadModel(path("b-bahdanau-additive").toStdString());
    QCOMPARE(json::parse(back.out.toStdString())["attention"].get<std::vector<std::vector<float>>>(),
             greedyDecode(additive, "i").attention);
}

void TestCliSiblings::noMatchingSiblingNamesWhatDiffers_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("score");
    QTest::addColumn<QStringList>("mentions");
    QTest::newRow("general: only luong with feeding")
        << "b-bahdanau-additive"
        << "general"
        << QStringList{path("d-luong-general-feed") + " (luong · general · input feeding)",
                       path("a-luong-dot") + " (luong · dot)", path("e-bahdanau-additive-guided") + " (guided)"};
    QTest::newRow("guided: no guided dot") << "e-bahdanau-additive-guided"
                                           << "dot" << QStringList{path("c-bahdanau-dot") + " (dot · unguided)"};
    QTest::newRow("feeding: the luong dot has none")
        << "d-luong-general-feed"
        << "dot" << QStringList{path("a-luong-dot") + " (dot · no input feeding)"};
}

void TestCliSiblings::noMatchingSiblingNamesWhatDiffers() {
    QFETCH(QString, model);
    QFETCH(QString, score);
    QFETCH(QStringList, mentions);
    const ProcessRun r = runCli({"decode", "--model", path(model), "--score", score, "i love you"});
    QCOMPARE(r.code, 1);
    const QString err = r.errText();
    QVERIFY2(err.startsWith(QStringLiteral("attnviz-cli decode: %1: no sibling model trained with score \"%2\" and "
                                           "this model's other settings")
                                .arg(path(model), score)),
             qPrintable(err));
    for (const QString& m : mentions) QVERIFY2(err.contains(m), qPrintable(m + "\n" + err));
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY(r.out.isEmpty());
}

void TestCliSiblings::infoListsDifferences() {
    const ProcessRun r = runCli({"info", "--json", path("b-bahdanau-additive")});
    QVERIFY2(r.code == 0, qPrintable(r.errText()));
    std::map<std::string, std::pair<bool, std::vector<std::string>>> got;
    const json info = json::parse(r.out.toStdString());
    for (const json& s : info["siblings"])
        got[s["path"].get<std::string>()] = {s["guided"].get<bool>(), s["differences"].get<std::vector<std::string>>()};
    QCOMPARE(got.size(), size_t(5));
    using P = std::pair<bool, std::vector<std::string>>;
    QVERIFY(got[path("b-bahdanau-additive").toStdString()] == P(false, {}));
    QVERIFY(got[path("e-bahdanau-additive-guided").toStdString()] == P(true, {"guided"}));
    QVERIFY(got[path("d-luong-general-feed").toStdString()] == P(false, {"luong", "general", "input feeding"}));
    const ProcessRun text = runCli({"info", path("b-bahdanau-additive")});
    QVERIFY2(QString::fromUtf8(text.out).contains(path("c-bahdanau-dot") + "  (dot)"), text.out.constData());
    QVERIFY2(QString::fromUtf8(text.out).contains(path("b-bahdanau-additive") + "  (this file)"), text.out.constData());
}

ATTNVIZ_TEST_MAIN(TestCliSiblings)
#include "test_cli_siblings.moc"
