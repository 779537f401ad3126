// attnviz-cli compare --head-a / --head-b (and render --with's), driven as a user would: a small Transformer's chosen cross-attention
// (layer, head, or a layer's mean) against an RNN sibling, the numbers against the engine called directly on that
// head's rows (core/eval/compare_heads.h), the new JSON keys head_a / head_b (only with the flags: the keys without
// them stay as they were), the text output's note, and the errors: a malformed value, a layer or head the model does
// not have, a flag on an RNN model.
#include "decode/decoding.h"
#include "eval/compare.h"
#include "eval/compare_heads.h"
#include "io/model_file.h"
#include "json_output.h"
#include "process_run.h"
#include "test_models.h"
#include "test_registry.h"
#include "text/tokenizer.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>
#include <nlohmann/json.hpp>

using namespace attnviz;
using namespace attnviz::testing;
using nlohmann::json;

namespace {

const char* kSentence = "the cat sat on the mat";

}  // namespace

class TestCliCompareHeads : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void headOfAIsTheEnginesHead();
    void meanOfALayerOnBAndTextOutput();
    void withoutTheFlagsTheKeysStay();
    void renderWithDrawsTheChosenHead();
    void errors_data();
    void errors();

private:
    // The engine's numbers for the models as saved: A greedy, B forced onto it, each side's chosen rows compared.
    AttentionComparison engine(const QString& a_path, const QString& b_path, const AttentionView& head_a,
                               const AttentionView& head_b) const;

    QTemporaryDir dir_;
    QString transformer_path_, rnn_path_;
};

void TestCliCompareHeads::initTestCase() {
    QVERIFY(dir_.isValid());
    transformer_path_ = saveInto(smallTransformer(11, 3), dir_, "s-transformer.safetensors");
    rnn_path_ = saveInto(smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 12, 3.0f), dir_,
                         "s-bahdanau-additive.safetensors");
}

AttentionComparison TestCliCompareHeads::engine(const QString& a_path, const QString& b_path,
                                                const AttentionView& head_a, const AttentionView& head_b) const {
    const Model a = loadModel(a_path.toStdString()), b = loadModel(b_path.toStdString());
    const DecodeResult da = greedyDecode(a, tokenizeSource(a, kSentence));
    const DecodeResult db =
        forcedDecode(b, TokenizedText{da.source_tokens, da.source_ids}, TokenizedText{da.target_tokens, da.target_ids});
    return comparisonSummary(compareAttention(withComparedAttention(da, head_a), withComparedAttention(db, head_b)));
}

void TestCliCompareHeads::headOfAIsTheEnginesHead() {
    const ProcessRun r =
        runCli({"compare", "--model", transformer_path_, "--with", rnn_path_, "--head-a", "2,1", "--json", kSentence});
    QVERIFY2(r.code == 0, qPrintable(r.errText()));
    const auto j = nlohmann::ordered_json::parse(r.out.toStdString());
    QCOMPARE(keysOf(j), (std::vector<std::string>{"model", "with", "data", "log_base", "sentences", "average", "head_a",
                                                  "head_b"}));
    QCOMPARE(j["head_a"].dump(), std::string(R"({"layer":2,"head":1})"));
    QVERIFY(j["head_b"].is_null());
    const AttentionComparison want = engine(transformer_path_, rnn_path_, {AttentionKind::Cross, 1, 0}, {});
    const auto& avg = j["average"];
    QVERIFY(std::abs(avg["tv"].get<double>() - want.mean_tv) < 1e-9);
    QVERIFY(std::abs(avg["js"].get<double>() - want.mean_js) < 1e-9);
    QVERIFY(std::abs(avg["entropy_a"].get<double>() - want.mean_entropy_a) < 1e-9);
    QVERIFY(std::abs(avg["argmax_agreement"].get<double>() - want.argmax_agreement) < 1e-12);
    // … and not the decode's `attention`: the default compares other rows.
    const AttentionComparison spec = engine(transformer_path_, rnn_path_, {}, {});
    QVERIFY(std::abs(want.mean_tv - spec.mean_tv) > 1e-4);
}

void TestCliCompareHeads::meanOfALayerOnBAndTextOutput() {
    const ProcessRun r = runCli(
        {"compare", "--model", rnn_path_, "--with", transformer_path_, "--head-b", "3,mean", "--json", kSentence});
    QVERIFY2(r.code == 0, qPrintable(r.errText()));
    const json j = json::parse(r.out.toStdString());
    QCOMPARE(j["head_b"].dump(), std::string(R"({"head":"mean","layer":3})"));  // json sorts its keys
    const AttentionComparison want = engine(rnn_path_, transformer_path_, {}, {AttentionKind::Cross, 2, -1});
    QVERIFY(std::abs(j["average"]["tv"].get<double>() - want.mean_tv) < 1e-9);
    // The last layer's mean is the decode's `attention`: the same numbers as without the flag (to round-off).
    const AttentionComparison spec = engine(rnn_path_, transformer_path_, {}, {});
    QVERIFY(std::abs(want.mean_tv - spec.mean_tv) < 1e-6);

    const ProcessRun text =
        runCli({"compare", "--model", transformer_path_, "--with", rnn_path_, "--head-a", "1,2", kSentence});
    QVERIFY2(text.code == 0, qPrintable(text.errText()));
    QVERIFY2(QString::fromUtf8(text.out).contains("s-transformer.safetensors (cross-attention of layer 1, head 2)\nB "),
             qPrintable(QString::fromUtf8(text.out)));
    QVERIFY(QString::fromUtf8(runCli({"compare", "--help"}).out).contains("--head-a L,H"));
}

void TestCliCompareHeads::withoutTheFlagsTheKeysStay() {
    const ProcessRun r = runCli({"compare", "--model", transformer_path_, "--with", rnn_path_, "--json", kSentence});
    QVERIFY2(r.code == 0, qPrintable(r.errText()));
    const auto j = nlohmann::ordered_json::parse(r.out.toStdString());
    QCOMPARE(keysOf(j), (std::vector<std::string>{"model", "with", "data", "log_base", "sentences", "average"}));
}

// render --with takes the same flags: its JSON holds the head's rows and says which head.
void TestCliCompareHeads::renderWithDrawsTheChosenHead() {
    const QString out = dir_.filePath("cmp.json");
    const ProcessRun r = runCli(
        {"render", "--model", transformer_path_, "--with", rnn_path_, "--head-a", "3,2", "--out", out, kSentence});
    QVERIFY2(r.code == 0, qPrintable(r.errText()));
    QFile f(out);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const json j = json::parse(f.readAll().toStdString());
    QCOMPARE(j["head_a"].dump(), std::string(R"({"head":2,"layer":3})"));
    QVERIFY(j["head_b"].is_null());
    const Model a = loadModel(transformer_path_.toStdString());
    const DecodeResult head =
        withComparedAttention(greedyDecode(a, tokenizeSource(a, kSentence)), {AttentionKind::Cross, 2, 1});
    const auto shown = j["attention_a"].get<std::vector<std::vector<double>>>();
    QCOMPARE(shown.size(), head.attention.size());
    for (size_t t = 0; t < shown.size(); ++t)
        for (size_t c = 0; c < shown[t].size(); ++c) QVERIFY(std::abs(shown[t][c] - head.attention[t][c]) < 1e-6);
    const AttentionComparison want = engine(transformer_path_, rnn_path_, {AttentionKind::Cross, 2, 1}, {});
    QVERIFY(std::abs(j["tv"].get<double>() - want.mean_tv) < 1e-9);

    const ProcessRun alone = runCli({"render", "--model", transformer_path_, "--head-a", "1,1", "--out", out, "i"});
    QCOMPARE(alone.code, 2);
    QVERIFY2(alone.errText().contains("--head-a and --head-b need --with B"), qPrintable(alone.errText()));
}

void TestCliCompareHeads::errors_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("message");
    const QString t = dir_.filePath("s-transformer.safetensors"),
                  rnn = dir_.filePath("s-bahdanau-additive.safetensors");
    QTest::newRow("no head") << QStringList{"--model", t, "--with", rnn, "--head-a", "2", "i"} << 2
                             << QStringLiteral("--head-a wants LAYER,HEAD counted from 1, e.g. 2,1 or 2,mean");
    QTest::newRow("layer 0") << QStringList{"--model", t, "--with", rnn, "--head-a", "0,1", "i"} << 2
                             << QStringLiteral("got \"0,1\"");
    QTest::newRow("not a number") << QStringList{"--model", rnn, "--with", t, "--head-b", "1,x", "i"} << 2
                                  << QStringLiteral("--head-b wants LAYER,HEAD");
    QTest::newRow("layer past the model's")
        << QStringList{"--model", t, "--with", rnn, "--head-a", "4,1", "i"} << 1
        << QStringLiteral("--head-a 4,1 cannot be used with A %1: it has 3 decoder layers; layer 4 asked for").arg(t);
    QTest::newRow("head past the model's")
        << QStringList{"--model", rnn, "--with", t, "--head-b", "1,3", "i"} << 1
        << QStringLiteral("--head-b 1,3 cannot be used with B %1: its layers have 2 heads; head 3 asked for").arg(t);
    QTest::newRow("an RNN model")
        << QStringList{"--model", t, "--with", rnn, "--head-b", "1,mean", "i"} << 1
        << QStringLiteral("--head-b 1,mean cannot be used with B %1: it is an RNN model (bahdanau)").arg(rnn);
}

void TestCliCompareHeads::errors() {
    QFETCH(QStringList, args);
    QFETCH(int, code);
    QFETCH(QString, message);
    const ProcessRun r = runCli(QStringList{"compare"} + args);
    QCOMPARE(r.code, code);
    QVERIFY2(r.errText().startsWith("attnviz-cli compare: "), qPrintable(r.errText()));
    QVERIFY2(r.errText().contains(message), qPrintable(r.errText()));
    QCOMPARE(r.err.count('\n'), 1);
    QVERIFY(r.out.isEmpty());
}

ATTNVIZ_TEST_MAIN(TestCliCompareHeads)
#include "test_cli_compare_heads.moc"
