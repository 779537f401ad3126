// core/io/decode_json: the decode object of docs/cli.md as JSON (lossless for float32) and the attention CSV.
#include "base/errors.h"
#include "io/decode_json.h"
#include "test_registry.h"
#include "tolerance.h"

#include <QtTest>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

using namespace attnviz;
using attnviz::testing::sameBits;
using nlohmann::json;

namespace {

ModelConfig luongConfig() {
    ModelConfig c;
    c.decoder = DecoderKind::Luong;
    c.score = ScoreKind::General;
    c.span = SpanKind::LocalP;
    c.window = 3;
    c.input_feeding = true;
    c.emb_dim = 6;
    c.enc_hid_dim = 4;
    c.dec_hid_dim = 8;
    c.tokenizer = {TokenizerKind::Word, TokenizerKind::Char, true};
    return c;
}

// Values chosen to break a lossy writer: 1/3 and 0.1 need 9 digits as floats, a denormal, a tiny and an exact one.
DecodeResult awkward() {
    DecodeResult r;
    r.source_tokens = {"<sos>", ",", "say \"hi\"", "zebra", "<eos>"};
    r.source_ids = {2, 7, 1, 1, 3};
    r.target_tokens = {"我", "a,b", "<eos>"};
    r.target_ids = {4, 1, 3};
    r.attention = {{1.0f / 3.0f, 0.1f, 0.5f, 1e-40f, 0.0f},
                   {0.0f, 0.0f, 0.7f, 0.2f, 0.1f},
                   {1e-8f, 0.25f, 0.25f, 0.25f, 0.25f - 1e-8f}};
    r.log_probs = {-0.123456789f, -2.0f / 3.0f, -1e-7f};
    r.total_log_prob = double(r.log_probs[0]) + double(r.log_probs[1]) + double(r.log_probs[2]);
    return r;
}

}  // namespace

class TestDecodeJson : public QObject {
    Q_OBJECT
private slots:
    void roundTripIsBitExact();
    void keysAndOrder();
    void floatText_data();
    void floatText();
    void nonFiniteIsNull();
    void badObjects_data();
    void badObjects();
    void csvLayoutAndQuoting();
    void writerLayoutIsNlohmanns();
    void doubleTextIsNlohmanns();
    void controlsAreEscaped();
};

void TestDecodeJson::roundTripIsBitExact() {
    const DecodeResult r = awkward();
    const std::string text = decodeToJsonText(r, luongConfig());
    QVERIFY(text.find('\n') == std::string::npos);  // one line: a JSON Lines record
    ModelConfig config;
    const DecodeResult back = decodeFromJson(json::parse(text), &config);
    QVERIFY(config == luongConfig());
    QCOMPARE(back.source_tokens, r.source_tokens);
    QCOMPARE(back.source_ids, r.source_ids);
    QCOMPARE(back.target_tokens, r.target_tokens);
    QCOMPARE(back.target_ids, r.target_ids);
    for (size_t t = 0; t < r.attention.size(); ++t)
        for (size_t s = 0; s < r.attention[t].size(); ++s)
            QVERIFY2(sameBits(back.attention[t][s], r.attention[t][s]),
                     qPrintable(QString("row %1 col %2").arg(t).arg(s)));
    for (size_t t = 0; t < r.log_probs.size(); ++t) QVERIFY(sameBits(back.log_probs[t], r.log_probs[t]));
    QCOMPARE(back.total_log_prob, r.total_log_prob);
    // The json form and the text form carry the same values.
    QCOMPARE(decodeToJson(r, luongConfig()), json::parse(text));
}

void TestDecodeJson::keysAndOrder() {
    const std::string text = decodeToJsonText(awkward(), luongConfig());
    // docs/cli.md's keys in its order, config last with every default written.
    const char* keys[] = {"\"source_tokens\"", "\"source_ids\"", "\"target_tokens\"",  "\"target_ids\"",
                          "\"attention\"",     "\"log_probs\"",  "\"total_log_prob\"", "\"config\""};
    size_t last = 0;
    for (const char* k : keys) {
        const size_t at = text.find(k);
        QVERIFY2(at != std::string::npos && at >= last, k);
        last = at;
    }
    const json j = json::parse(text);
    QCOMPARE(j.size(), size_t(8));
    QCOMPARE(j["config"], configToJson(luongConfig()));
    QCOMPARE(j["config"]["tokenizer"]["target"].get<std::string>(), std::string("char"));
    QVERIFY(text.find("\"config\":{\"decoder\":\"luong\",\"score\":\"general\",\"span\":\"local_p\"") !=
            std::string::npos);
    QVERIFY(text.find("我") != std::string::npos);  // UTF-8 as is, not \u escapes
}

void TestDecodeJson::floatText_data() {
    QTest::addColumn<float>("value");
    QTest::addColumn<QString>("text");
    QTest::newRow("exact half stays short") << 0.5f << "0.5";
    QTest::newRow("0.1f shows its double value") << 0.1f << "0.10000000149011612";
    QTest::newRow("one third") << 1.0f / 3.0f << "0.3333333432674408";
    QTest::newRow("zero") << 0.0f << "0";
}

void TestDecodeJson::floatText() {
    QFETCH(float, value);
    QFETCH(QString, text);
    QCOMPARE(QString::fromStdString(formatFloat(double(value))), text);
    // nlohmann writes the same text for the double.
    QCOMPARE(QString::fromStdString(json(double(value)).dump()), text == "0" ? QString("0.0") : text);
}

void TestDecodeJson::nonFiniteIsNull() {
    DecodeResult r = awkward();
    r.attention[0][4] = std::numeric_limits<float>::quiet_NaN();
    r.log_probs[2] = -std::numeric_limits<float>::infinity();
    const json j = json::parse(decodeToJsonText(r, luongConfig()));
    QVERIFY(j["attention"][0][4].is_null());
    QVERIFY(j["log_probs"][2].is_null());
    const DecodeResult back = decodeFromJson(j);
    QVERIFY(std::isnan(back.attention[0][4]));
}

void TestDecodeJson::badObjects_data() {
    QTest::addColumn<QString>("edit");  // what to break
    QTest::addColumn<QString>("mentions");
    QTest::newRow("missing attention") << "drop attention"
                                       << "missing key \"attention\"";
    QTest::newRow("fewer ids than tokens") << "short source_ids"
                                           << "\"source_ids\" has 4 entries but \"source_tokens\" has 5";
    QTest::newRow("short attention row") << "short row"
                                         << "\"attention\" row 1 must have one value per source token (5)";
    QTest::newRow("extra log prob") << "long log_probs"
                                    << "\"log_probs\" must have one value per target token (3)";
    QTest::newRow("string in attention") << "string value"
                                         << "\"attention\" must hold numbers";
    QTest::newRow("negative id") << "negative id"
                                 << "\"target_ids\" must be an array of non-negative integers";
    QTest::newRow("bad config") << "bad config"
                                << "decode object: config: unknown score";
}

void TestDecodeJson::badObjects() {
    QFETCH(QString, edit);
    QFETCH(QString, mentions);
    json j = decodeToJson(awkward(), luongConfig());
    if (edit == "drop attention") j.erase("attention");
    if (edit == "short source_ids") j["source_ids"].erase(0);
    if (edit == "short row") j["attention"][1].erase(0);
    if (edit == "long log_probs") j["log_probs"].push_back(-1.0);
    if (edit == "string value") j["attention"][0][0] = "0.5";
    if (edit == "negative id") j["target_ids"][0] = -4;
    if (edit == "bad config") j["config"]["score"] = "cosine";
    try {
        ModelConfig c;
        decodeFromJson(j, &c);
        QFAIL("no error");
    } catch (const InputError& e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(mentions), e.what());
    }
}

void TestDecodeJson::csvLayoutAndQuoting() {
    const DecodeResult r = awkward();
    const std::string csv = decodeToCsv(r);
    const QStringList lines = QString::fromStdString(csv).split('\n');
    QCOMPARE(lines.size(), 1 + 3 + 1);  // header, 3 rows, "" after the final newline
    QVERIFY(lines.last().isEmpty());
    // Header: target\source, then the source tokens; "," and a quote-holding token quoted as RFC 4180 says.
    QCOMPARE(lines[0], QString::fromUtf8("target\\source,<sos>,\",\",\"say \"\"hi\"\"\",zebra,<eos>"));
    QVERIFY(lines[1].startsWith(QString::fromUtf8("我,0.3333333432674408,0.10000000149011612,0.5,")));
    QVERIFY(lines[2].startsWith("\"a,b\",0,0,"));
    QVERIFY(lines[3].startsWith("<eos>,"));
    // Every number reads back to the same float; each row has 1 + S fields (the quoted "a,b" counts as one).
    for (int t = 0; t < 3; ++t) {
        QString row = lines[t + 1];
        if (row.startsWith('"')) row = row.mid(row.indexOf("\",") + 1);
        const QStringList fields = row.split(',');
        QCOMPARE(fields.size(), 1 + 5);
        for (int s = 0; s < 5; ++s) {
            bool ok = false;
            const double v = fields[s + 1].toDouble(&ok);
            QVERIFY(ok);
            QVERIFY(sameBits(float(v), r.attention[size_t(t)][size_t(s)]));
        }
    }
}

// The writer (io/json_text.h) lays the object out as nlohmann does, one line and indented.
void TestDecodeJson::writerLayoutIsNlohmanns() {
    DecodeResult r = awkward();
    r.attention.push_back({});  // an empty row: "[]"
    r.target_tokens.push_back("x");
    r.target_ids.push_back(1);
    r.log_probs.push_back(0.0f);
    for (const int indent : {-1, 0, 2}) {
        const std::string text = decodeToJsonText(r, luongConfig(), indent);
        QCOMPARE(QString::fromStdString(text),
                 QString::fromStdString(nlohmann::ordered_json::parse(text).dump(indent)));
    }
}

// Every float's text laid out as nlohmann writes the equal double ("1.0", exponents from 1e-05 on), never longer,
// and read back to the same value: the digits are the shortest (to_chars), where nlohmann's Grisu2 may end on the
// other of two equally short last digits (867.9414672851562 against ...563) or, rarely, write one more.
void TestDecodeJson::doubleTextIsNlohmanns() {
    std::vector<double> values = {0.0,
                                  -0.0,
                                  1.0,
                                  -2.0,
                                  100.0,
                                  1e15,
                                  1e16,
                                  123456789012345.0,
                                  0.0001,
                                  0.00001,
                                  1.5e-7,
                                  3.4028234663852886e38,
                                  1.401298464324817e-45,
                                  0.1,
                                  1.0 / 3.0};
    std::mt19937 rng(31);
    for (int i = 0; i < 200000; ++i) {
        const uint32_t bits = uint32_t(rng());
        float f;
        std::memcpy(&f, &bits, sizeof f);
        if (std::isfinite(f)) values.push_back(double(f));
    }
    for (const double v : values) {
        std::string text;
        appendJsonDouble(text, v);
        const std::string theirs = json(v).dump();
        QVERIFY2(text.size() <= theirs.size(), (text + " against " + theirs).c_str());
        QCOMPARE(json::parse(text).get<double>(), v);
        QCOMPARE(text.find_first_of(".e"), theirs.find_first_of(".e"));
    }
}

// C0 controls as JSON escapes them, C1 (U+0080..U+009F) as \u0080..\u009f, in the writer's text and jsonText's.
void TestDecodeJson::controlsAreEscaped() {
    DecodeResult r = awkward();
    r.target_tokens[1] =
        "a\x1b[2J\xc2\x9b"
        "b\xc2\x85\xc2\xa0";  // ESC, CSI, NEL, and NBSP (not a control)
    const std::string text = decodeToJsonText(r, luongConfig());
    QVERIFY2(text.find("\"a\\u001b[2J\\u009bb\\u0085\xc2\xa0\"") != std::string::npos, text.c_str());
    QCOMPARE(json::parse(text)["target_tokens"][1].get<std::string>(), r.target_tokens[1]);
    QCOMPARE(jsonText(json{{"k", "\xc2\x80\xc2\x9f"}}), std::string("{\"k\":\"\\u0080\\u009f\"}"));
}

ATTNVIZ_TEST_MAIN(TestDecodeJson)
#include "test_decode_json.moc"
