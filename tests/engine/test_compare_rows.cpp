// One compared sentence row by row (core/eval/compare.h, compare_json.h), as the compare view and `render --with`
// show it: each row's distances on hand rows, B − A cell by cell, the CSV and JSON of a comparison, and why two
// models cannot be compared (the first differing vocabulary entry, tokenizers).
#include "base/errors.h"
#include "eval/compare.h"
#include "eval/compare_json.h"
#include "model/model.h"
#include "test_registry.h"

#include <QtTest>
#include <cmath>

using namespace attnviz;

namespace {

DecodeResult decodeWithTokens(std::vector<std::vector<float>> rows, std::vector<std::string> target) {
    DecodeResult r;
    r.attention = std::move(rows);
    r.target_tokens = std::move(target);
    for (const std::string& t : r.target_tokens) r.target_ids.push_back(t == "<eos>" ? kEos : 4);
    r.source_tokens = {"<sos>", "a", "b", "<eos>"};
    return r;
}

Vocabulary vocab(const std::vector<std::string>& words) {
    std::vector<std::string> all = {"<pad>", "<unk>", "<sos>", "<eos>"};
    all.insert(all.end(), words.begin(), words.end());
    return Vocabulary(all);
}

Model modelWithVocabularies(const Vocabulary& source, const Vocabulary& target) {
    ModelConfig c;
    c.emb_dim = 2;
    c.enc_hid_dim = 2;
    c.dec_hid_dim = 4;
    return makeRandomModel(c, source, target, 1);
}

}  // namespace

class TestCompareRows : public QObject {
    Q_OBJECT

private slots:
    void rowsAndDifferenceOfHandRows();
    void csvAndJsonOfAComparison();
    void whyModelsCannotBeCompared();
};

void TestCompareRows::rowsAndDifferenceOfHandRows() {
    // Row 0: A one-hot on "a", B flat over "a" and "b": TV 1/2, argmaxes 1 and 1 (the first of B's tie).
    // Row 1: disjoint rows: TV 1, JS ln 2, argmaxes 2 and 3.
    const DecodeResult a = decodeWithTokens({{0, 1, 0, 0}, {0, 0, 1, 0}}, {"x", "<eos>"});
    const DecodeResult b = decodeWithTokens({{0, 0.5f, 0.5f, 0}, {0, 0, 0, 1}}, {"x", "<eos>"});
    const std::vector<RowComparison> rows = compareRows(a, b);
    QCOMPARE(rows.size(), size_t(2));
    QCOMPARE(rows[0].tv, 0.5);
    QCOMPARE(rows[0].argmax_a, 1);
    QCOMPARE(rows[0].argmax_b, 1);
    QVERIFY(rows[0].agree());
    QVERIFY(std::abs(rows[0].entropy_b - std::log(2.0)) < 1e-7);
    QCOMPARE(rows[1].tv, 1.0);
    QVERIFY(std::abs(rows[1].js - std::log(2.0)) < 1e-7);
    QVERIFY(!rows[1].agree());

    // The sums of compareAttention are the rows' sums.
    const AttentionComparisonCounts c = compareAttention(a, b);
    QCOMPARE(c.tv_sum, rows[0].tv + rows[1].tv);
    QCOMPARE(c.js_sum, rows[0].js + rows[1].js);
    QCOMPARE(c.argmax_agreements, int64_t(1));

    const std::vector<std::vector<float>> d = attentionDifference(a, b);
    QCOMPARE(d, (std::vector<std::vector<float>>{{0, -0.5f, 0.5f, 0}, {0, 0, -1, 1}}));

    const DecodeResult shorter = decodeWithTokens({{0, 1, 0}, {0, 0, 1}}, {"x", "<eos>"});
    QVERIFY_THROWS_EXCEPTION(InputError, compareRows(a, shorter));
    QVERIFY_THROWS_EXCEPTION(InputError, attentionDifference(a, decodeWithTokens({{0, 1, 0, 0}}, {"x"})));
}

void TestCompareRows::csvAndJsonOfAComparison() {
    const DecodeResult a = decodeWithTokens({{0, 1, 0, 0}, {0, 0, 1, 0}}, {"x,y", "<eos>"});
    const DecodeResult b = decodeWithTokens({{0, 0.5f, 0.5f, 0}, {0, 0, 0, 1}}, {"x,y", "<eos>"});
    const std::string csv = comparisonToCsv(a, b);
    QVERIFY2(QString::fromStdString(csv).startsWith(
                 "target,tv,js,argmax_a,argmax_b,agree,entropy_a,entropy_b\n\"x,y\",0.5,"),
             csv.c_str());
    const QStringList lines = QString::fromStdString(csv).split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 3);
    const QStringList eos = lines[2].split(u',');
    QCOMPARE(eos[0], QStringLiteral("<eos>"));
    QCOMPARE(eos[1], QStringLiteral("1"));
    QVERIFY(std::abs(eos[2].toDouble() - std::log(2.0)) < 1e-7);
    QCOMPARE(eos.mid(3, 3), (QStringList{"2", "3", "0"}));

    const GoldAlignment gold = parseAlignment("0-0");
    std::string text;
    JsonWriter w([&](std::string_view piece) { text += piece; });
    w.beginObject();
    writeComparisonMembers(w, a, b, "A.safetensors", "B.safetensors", &gold);
    w.endObject().flush();
    const nlohmann::ordered_json j = nlohmann::ordered_json::parse(text);
    QCOMPARE(j["model"].get<std::string>(), std::string("A.safetensors"));
    QCOMPARE(j["rows"].get<int>(), 2);
    QCOMPARE(j["tv"].get<double>(), 0.75);
    QCOMPARE(j["argmax_agreement"].get<double>(), 0.5);
    // Row 0 (x) looks at "a" (source word 0) on both sides: the gold link 0-0 is found by both.
    QCOMPARE(j["aer_a"].get<double>(), 0.0);
    QCOMPARE(j["aer_b"].get<double>(), 0.0);
    QCOMPARE(j["per_row"][1]["agree"].get<bool>(), false);
    QCOMPARE(j["difference"][1][3].get<double>(), 1.0);
    QCOMPARE(j["attention_b"][0][2].get<double>(), 0.5);
}

void TestCompareRows::whyModelsCannotBeCompared() {
    const Model a = modelWithVocabularies(vocab({"cat", "dog"}), vocab({"chat", "chien"}));
    QCOMPARE(comparabilityProblem(a, a), std::string());
    QCOMPARE(comparabilityProblem(a, modelWithVocabularies(vocab({"cat"}), vocab({"chat", "chien"}))),
             std::string("source vocabularies differ (6 against 5 tokens)"));
    QCOMPARE(comparabilityProblem(a, modelWithVocabularies(vocab({"cat", "dog"}), vocab({"chat", "ch\tat"}))),
             std::string("target vocabularies differ (id 5 is \"chien\" against \"ch\\x09at\")"));
    Model other_tokenizer = a;
    other_tokenizer.config.tokenizer.target = TokenizerKind::Char;
    QCOMPARE(comparabilityProblem(a, other_tokenizer), std::string("tokenizers differ"));
}

ATTNVIZ_TEST_MAIN(TestCompareRows)
#include "test_compare_rows.moc"
