// The model file reader and writer (core/io/model_file.cpp, core/io/safetensors.cpp): bit-exact round trips for every
// variant, F16/BF16/F64 conversion from hand-encoded bytes, a file laid out byte for byte as Python's safetensors
// writes it. Broken files: test_model_file_errors.cpp; saving and siblings: test_model_file_io.cpp.
#include "base/errors.h"
#include "io/model_file.h"
#include "model/model.h"
#include "safetensors_bytes.h"
#include "test_models.h"
#include "test_registry.h"
#include "tolerance.h"

#include <QtTest>
#include <nlohmann/json.hpp>

#include <cstring>
#include <fstream>
#include <functional>

using namespace attnviz;
using namespace attnviz::testing;

namespace {}  // namespace

Q_DECLARE_METATYPE(DecoderKind)
Q_DECLARE_METATYPE(ScoreKind)
Q_DECLARE_METATYPE(SpanKind)

class TestModelFile : public QObject {
    Q_OBJECT

private slots:
    void roundTrip_data();
    void roundTrip();
    void writerLayout();
    void convertedDtypes_data();
    void convertedDtypes();
    void pythonLayoutFile();
};

void TestModelFile::roundTrip_data() {
    QTest::addColumn<DecoderKind>("decoder");
    QTest::addColumn<ScoreKind>("score");
    QTest::addColumn<SpanKind>("span");
    QTest::addColumn<bool>("feeding");
    const ScoreKind scores[] = {ScoreKind::Additive, ScoreKind::Dot, ScoreKind::ScaledDot, ScoreKind::General};
    for (ScoreKind s : scores)
        QTest::addRow("bahdanau/%s", toString(s).data()) << DecoderKind::Bahdanau << s << SpanKind::Global << false;
    for (ScoreKind s : scores)
        for (SpanKind sp : {SpanKind::Global, SpanKind::LocalM, SpanKind::LocalP})
            for (bool feed : {false, true})
                QTest::addRow("luong/%s/%s/%s", toString(s).data(), toString(sp).data(),
                              feed ? "feeding" : "no-feeding")
                    << DecoderKind::Luong << s << sp << feed;
}

void TestModelFile::roundTrip() {
    QFETCH(DecoderKind, decoder);
    QFETCH(ScoreKind, score);
    QFETCH(SpanKind, span);
    QFETCH(bool, feeding);
    Model m = smallModel(smallConfig(decoder, score, span, feeding), 1234);
    m.config.window = 3;
    m.task = "英中 toy task";
    m.description = "a small model; 中文说明 with \"quotes\" and \\ backslash\nsecond line";
    m.training = R"({"steps": 120, "loss": 0.25})";
    m.extra_metadata = {{"author", "李雷"}, {"x-empty", ""}, {"x-json", "{\"a\": [1, 2]}"}};
    // A subnormal and a negative zero must survive bit for bit.
    m.params.fc_out_b(0) = 1e-40f;
    m.params.fc_out_b(1) = -0.0f;

    QTemporaryDir dir;
    const QString path = attnviz::testing::saveInto(m, dir, "model.safetensors");
    const Model r = loadModel(path.toStdString());

    QVERIFY(r.config == m.config);
    QVERIFY(r.source_vocab == m.source_vocab);
    QVERIFY(r.target_vocab == m.target_vocab);
    QCOMPARE(r.target_vocab.token(4), std::string("我"));
    QCOMPARE(r.task, m.task);
    QCOMPARE(r.description, m.description);
    QCOMPARE(r.training, m.training);
    QVERIFY(r.extra_metadata == m.extra_metadata);

    auto& mp = const_cast<ModelParams&>(m.params);
    auto& rp = const_cast<ModelParams&>(r.params);
    const auto a = paramRefs(mp, m.config, m.source_vocab.size(), m.target_vocab.size());
    const auto b = paramRefs(rp, r.config, r.source_vocab.size(), r.target_vocab.size());
    QCOMPARE(b.size(), a.size());
    for (size_t i = 0; i < a.size(); ++i) {
        QCOMPARE(b[i].name, a[i].name);
        QCOMPARE(b[i].size, a[i].size);
        QVERIFY2(std::memcmp(a[i].data, b[i].data, size_t(a[i].size) * 4) == 0, a[i].name.c_str());
    }
    QVERIFY(sameBits(r.params.fc_out_b(0), 1e-40f));
    QVERIFY(sameBits(r.params.fc_out_b(1), -0.0f));

    // The writer is deterministic: saving what was read gives the same bytes.
    QVERIFY(serializeModel(r) == serializeModel(m));
}

void TestModelFile::writerLayout() {
    const Model m = smallModel(smallConfig(DecoderKind::Luong, ScoreKind::Additive, SpanKind::LocalP, true), 7);
    const Bytes f = serializeModel(m);
    const uint64_t n = headerLength(f);
    QCOMPARE(n % 8, uint64_t(0));
    const std::string text(f.begin() + 8, f.begin() + 8 + long(n));
    QCOMPARE(text.front(), '{');
    const size_t close = text.find_last_of('}');
    QVERIFY(close >= n - 8);
    QVERIFY(text.find_first_not_of(' ', close + 1) == std::string::npos);  // padded with spaces only
    QVERIFY(text.starts_with("{\"__metadata__\":{"));

    const ojson h = ojson::parse(text);
    QCOMPARE(h["__metadata__"]["format"], ojson("attnviz.seq2seq"));
    QCOMPARE(h["__metadata__"]["format_version"], ojson("1"));
    QVERIFY(h["__metadata__"].size() == 6);  // format, format_version, config, vocabs, task
    const auto cfg = nlohmann::json::parse(h["__metadata__"]["config"].get<std::string>());
    QCOMPARE(cfg["span"], nlohmann::json("local_p"));
    QCOMPARE(cfg["input_feeding"], nlohmann::json(true));

    // Tensors in paramRefs order, contiguous from offset 0 to the end of the file.
    auto& mp = const_cast<ModelParams&>(m.params);
    const auto refs = paramRefs(mp, m.config, m.source_vocab.size(), m.target_vocab.size());
    QCOMPARE(h.size(), refs.size() + 1);
    uint64_t offset = 0;
    auto it = std::next(h.begin());
    for (const ParamRef& r : refs) {
        QCOMPARE(it.key(), r.name);
        QCOMPARE((*it)["dtype"], ojson("F32"));
        QVERIFY((*it)["shape"].get<std::vector<int64_t>>() == r.shape);
        QCOMPARE((*it)["data_offsets"][0].get<uint64_t>(), offset);
        offset += uint64_t(r.size) * 4;
        QCOMPARE((*it)["data_offsets"][1].get<uint64_t>(), offset);
        QVERIFY(std::memcmp(f.data() + 8 + n + (offset - uint64_t(r.size) * 4), r.data, size_t(r.size) * 4) == 0);
        ++it;
    }
    QCOMPARE(uint64_t(f.size()), 8 + n + offset);
    // A vector such as attention.v.weight is stored as [1, H_d], as PyTorch's Linear(H_d, 1) has it.
    QVERIFY(h["decoder.attention.vp.weight"]["shape"] == ojson::array({1, 8}));
}

void TestModelFile::convertedDtypes_data() {
    // Encoded little-endian patterns and the float each must become (exact bits).
    QTest::addColumn<QString>("dtype");
    QTest::addColumn<QByteArray>("encoded");  // one element after another
    QTest::addColumn<QList<float>>("expected");
    auto u16 = [](std::initializer_list<uint16_t> v) {
        QByteArray b;
        for (uint16_t x : v) b.append(char(x & 0xFF)).append(char(x >> 8));
        return b;
    };
    QTest::newRow("F16: 0.5, -2, 1/3, subnormals, max, -0")
        << "F16" << u16({0x3800, 0xC000, 0x3555, 0x0001, 0x83FF, 0x7BFF, 0x8000, 0x3C01})
        << QList<float>{0.5f, -2.0f, 0.333251953125f, 0x1p-24f, -1023 * 0x1p-24f, 65504.0f, -0.0f, 1.0009765625f};
    QTest::newRow("BF16: 0.5, -2, 1/3, subnormals, max, -0")
        << "BF16" << u16({0x3F00, 0xC000, 0x3EAB, 0x0001, 0x807F, 0x7F7F, 0x8000})
        << QList<float>{0.5f, -2.0f, 0.333984375f, 0x1p-133f, -127 * 0x1p-133f, 0x1.fep127f, -0.0f};
    QByteArray f64;
    for (double d : {0.5, -2.0, 1.0 / 3.0, 1e-40, 1e-50, -0.0, 3.4028234663852886e38})
        f64.append(reinterpret_cast<const char*>(&d), 8);
    QTest::newRow("F64: 0.5, -2, 1/3 rounded, subnormal, underflow, -0, FLT_MAX")
        << "F64" << f64 << QList<float>{0.5f, -2.0f, 0x1.555556p-2f, 71362 * 0x1p-149f, 0.0f, -0.0f, 0x1.fffffep127f};
}

void TestModelFile::convertedDtypes() {
    QFETCH(QString, dtype);
    QFETCH(QByteArray, encoded);
    QFETCH(QList<float>, expected);
    const int k = int(expected.size());
    const int esize = int(encoded.size()) / k;

    // Rewrite every tensor of a valid file in `dtype`, element i holding pattern i % k; tensors stored in reverse order.
    const Model m = smallModel(smallConfig(DecoderKind::Luong, ScoreKind::Additive, SpanKind::LocalP, true), 3);
    Parts p = split(serializeModel(m));
    Bytes buffer;
    std::vector<std::string> names;
    for (auto it = p.header.begin(); it != p.header.end(); ++it)
        if (it.key() != "__metadata__") names.insert(names.begin(), it.key());
    for (const std::string& name : names) {
        ojson& e = p.header[name];
        int64_t numel = 1;
        for (auto d : e["shape"]) numel *= d.get<int64_t>();
        e["dtype"] = dtype.toStdString();
        e["data_offsets"] = {buffer.size(), buffer.size() + uint64_t(numel * esize)};
        for (int64_t i = 0; i < numel; ++i) {
            const char* src = encoded.constData() + (i % k) * esize;
            buffer.insert(buffer.end(), src, src + esize);
        }
    }
    p.buffer = buffer;
    const Model r = loadModelFromBytes(join(p).data(), join(p).size(), "converted.safetensors");

    auto& rp = const_cast<ModelParams&>(r.params);
    int checked = 0;
    for (const ParamRef& ref : paramRefs(rp, r.config, r.source_vocab.size(), r.target_vocab.size()))
        for (int64_t i = 0; i < ref.size; ++i, ++checked)
            if (!sameBits(ref.data[i], expected[int(i % k)]))
                QFAIL(qPrintable(QString("%1[%2] = %3, expected %4")
                                     .arg(ref.name.c_str())
                                     .arg(i)
                                     .arg(double(ref.data[i]), 0, 'g', 17)
                                     .arg(double(expected[int(i % k)]), 0, 'g', 17)));
    QVERIFY(checked > 1000);
}

// A file as Python's safetensors (Rust serde_json) writes it from a state_dict saved with metadata made by json.dumps:
// compact outer JSON, __metadata__ first, tensors sorted by name with data in that order, \uXXXX escapes from
// json.dumps inside the vocabulary string, header padded with spaces to a multiple of 8. Built here by hand.
void TestModelFile::pythonLayoutFile() {
    // luong / dot, E = 2, H_e = 1, H_d = 2, V_s = V_t = 5.
    const std::vector<std::pair<std::string, std::vector<int>>> tensors = {
        {"decoder.combine.weight", {2, 4}},
        {"decoder.embedding.weight", {5, 2}},
        {"decoder.fc_out.bias", {5}},
        {"decoder.fc_out.weight", {5, 2}},
        {"decoder.rnn.bias_hh_l0", {6}},
        {"decoder.rnn.bias_ih_l0", {6}},
        {"decoder.rnn.weight_hh_l0", {6, 2}},
        {"decoder.rnn.weight_ih_l0", {6, 2}},
        {"encoder.embedding.weight", {5, 2}},
        {"encoder.fc.bias", {2}},
        {"encoder.fc.weight", {2, 2}},
        {"encoder.rnn.bias_hh_l0", {3}},
        {"encoder.rnn.bias_hh_l0_reverse", {3}},
        {"encoder.rnn.bias_ih_l0", {3}},
        {"encoder.rnn.bias_ih_l0_reverse", {3}},
        {"encoder.rnn.weight_hh_l0", {3, 1}},
        {"encoder.rnn.weight_hh_l0_reverse", {3, 1}},
        {"encoder.rnn.weight_ih_l0", {3, 2}},
        {"encoder.rnn.weight_ih_l0_reverse", {3, 2}},
    };
    std::string header =
        R"({"__metadata__":{"task":"demo","config":"{\"decoder\": \"luong\", \"score\": \"dot\", \"emb_dim\": 2, \"enc_hid_dim\": 1, \"dec_hid_dim\": 2}",)"
        R"("format_version":"1","source_vocab":"[\"<pad>\", \"<unk>\", \"<sos>\", \"<eos>\", \"cat\"]","format":"attnviz.seq2seq",)"
        R"("target_vocab":"[\"<pad>\", \"<unk>\", \"<sos>\", \"<eos>\", \"\\u732b\"]"})";
    Bytes buffer;
    for (size_t k = 0; k < tensors.size(); ++k) {
        const auto& [name, shape] = tensors[k];
        int n = 1;
        std::string dims;
        for (int d : shape) {
            n *= d;
            dims += (dims.empty() ? "" : ",") + std::to_string(d);
        }
        header += ",\"" + name + "\":{\"dtype\":\"F32\",\"shape\":[" + dims + "],\"data_offsets\":[" +
                  std::to_string(buffer.size()) + "," + std::to_string(buffer.size() + size_t(n) * 4) + "]}";
        for (int i = 0; i < n; ++i) {
            const float x = float(k) + float(i) / 64.0f;  // tensor k, element i: exact in binary
            const auto* c = reinterpret_cast<const uint8_t*>(&x);
            buffer.insert(buffer.end(), c, c + 4);
        }
    }
    header += "}";
    header.append((8 - header.size() % 8) % 8, ' ');

    const Bytes file = rawFile(header, buffer);
    QTemporaryDir dir;
    const QString path = dir.filePath("from_python.safetensors");
    writeBytes(path, file);
    const Model m = loadModel(path.toStdString());

    QVERIFY(m.config.decoder == DecoderKind::Luong);
    QVERIFY(m.config.score == ScoreKind::Dot);
    QVERIFY(m.config.span == SpanKind::Global);  // defaults filled in
    QCOMPARE(m.config.window, 5);
    QCOMPARE(m.config.input_feeding, false);
    QCOMPARE(m.task, std::string("demo"));
    QCOMPARE(m.target_vocab.token(4), std::string("猫"));
    QCOMPARE(m.source_vocab.id("cat"), 4);
    QVERIFY(m.extra_metadata.empty());
    // Row-major mapping and the right tensor in the right member (k = index in the sorted list above).
    QCOMPARE(m.params.combine_w(1, 3), 0.0f + 7 / 64.0f);
    QCOMPARE(m.params.dec_embedding(4, 1), 1.0f + 9 / 64.0f);
    QCOMPARE(m.params.fc_out_b(4), 2.0f + 4 / 64.0f);
    QCOMPARE(m.params.dec_rnn.w_hh(5, 0), 6.0f + 10 / 64.0f);
    QCOMPARE(m.params.dec_rnn.w_ih(3, 1), 7.0f + 7 / 64.0f);
    QCOMPARE(m.params.enc_embedding(2, 0), 8.0f + 4 / 64.0f);
    QCOMPARE(m.params.enc_fc_b(1), 9.0f + 1 / 64.0f);
    QCOMPARE(m.params.enc_bwd.b_hh(2), 12.0f + 2 / 64.0f);
    QCOMPARE(m.params.enc_fwd.b_ih(0), 13.0f);
    QCOMPARE(m.params.enc_fwd.w_hh(2, 0), 15.0f + 2 / 64.0f);
    QCOMPARE(m.params.enc_bwd.w_ih(1, 1), 18.0f + 3 / 64.0f);
    // Writing it back gives our layout (paramRefs order) but the same model.
    const Model again = loadModelFromBytes(serializeModel(m).data(), serializeModel(m).size(), "again");
    QVERIFY(again.params.enc_bwd.w_ih == m.params.enc_bwd.w_ih);
    QVERIFY(again.params.combine_w == m.params.combine_w);
}

ATTNVIZ_TEST_MAIN(TestModelFile)
#include "test_model_file.moc"
