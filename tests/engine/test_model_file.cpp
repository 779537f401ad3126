// The model file reader and writer (core/io/model_file.cpp, core/io/safetensors.cpp): bit-exact round trips for every
// variant, F16/BF16/F64 conversion from hand-encoded bytes, a file laid out byte for byte as Python's safetensors
// writes it, and one row per kind of broken file. Saving and siblings are in test_model_file_io.cpp.
#include "base/errors.h"
#include "io/model_file.h"
#include "model/model.h"
#include "test_models.h"

#include <QtTest>
#include <nlohmann/json.hpp>

#include <cstring>
#include <fstream>
#include <functional>

using namespace attnviz;
using attnviz::testing::smallConfig;
using attnviz::testing::smallModel;

namespace {

using Bytes = std::vector<uint8_t>;
using ojson = nlohmann::ordered_json;
using Mutator = std::function<void(Bytes&)>;

uint64_t headerLength(const Bytes& f) {
    uint64_t n = 0;
    for (int i = 7; i >= 0; --i) n = (n << 8) | f[size_t(i)];
    return n;
}

// A file split into header JSON and byte buffer, for hand edits.
struct Parts {
    ojson header;
    Bytes buffer;
};
Parts split(const Bytes& f) {
    const uint64_t n = headerLength(f);
    return {ojson::parse(f.begin() + 8, f.begin() + 8 + long(n)), Bytes(f.begin() + 8 + long(n), f.end())};
}
Bytes rawFile(const std::string& header_text, const Bytes& buffer) {
    Bytes out(8);
    for (int i = 0; i < 8; ++i) out[size_t(i)] = uint8_t(uint64_t(header_text.size()) >> (8 * i));
    out.insert(out.end(), header_text.begin(), header_text.end());
    out.insert(out.end(), buffer.begin(), buffer.end());
    return out;
}
Bytes join(const Parts& p) { return rawFile(p.header.dump(), p.buffer); }

// Applies `edit` to the header/buffer of the file.
Mutator edit(std::function<void(Parts&)> f) {
    return [f](Bytes& b) {
        Parts p = split(b);
        f(p);
        b = join(p);
    };
}
Mutator editMeta(const std::string& key, std::function<void(ojson&)> f) {
    return edit([key, f](Parts& p) { f(p.header["__metadata__"][key]); });
}
Mutator editVocab(const std::string& key, std::function<void(nlohmann::json&)> f) {
    return editMeta(key, [f](ojson& v) {
        auto j = nlohmann::json::parse(v.get<std::string>());
        f(j);
        v = j.dump();
    });
}
// Takes bytes [begin, end) out of the buffer and moves the later tensors' offsets down: the buffer stays exactly the
// tensors' bytes (a gap would be refused before the edit under test is looked at).
void removeBytes(Parts& p, uint64_t begin, uint64_t end) {
    p.buffer.erase(p.buffer.begin() + long(begin), p.buffer.begin() + long(end));
    for (auto& [key, e] : p.header.items()) {
        if (key == "__metadata__") continue;
        auto& off = e["data_offsets"];
        if (off[0].get<uint64_t>() >= end)
            off = {off[0].get<uint64_t>() - (end - begin), off[1].get<uint64_t>() - (end - begin)};
    }
}
void putFloat(Bytes& buffer, uint64_t at, float x) { std::memcpy(buffer.data() + at, &x, 4); }

bool sameBits(float a, float b) { return std::memcmp(&a, &b, 4) == 0; }

void writeBytes(const QString& path, const Bytes& b) {
    std::ofstream f(path.toStdString(), std::ios::binary);
    f.write(reinterpret_cast<const char*>(b.data()), std::streamsize(b.size()));
}

const char* kBadName = "bad.safetensors";

}  // namespace

Q_DECLARE_METATYPE(Mutator)
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
    void badFile_data();
    void badFile();
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

void TestModelFile::badFile_data() {
    QTest::addColumn<Mutator>("mutate");
    QTest::addColumn<QStringList>("keywords");
    QTest::addColumn<bool>("header_level");  // readModelHeader sees it too (false: only the weights' values are wrong)

    // The base is bahdanau/additive (attention.v.weight is [1, 8]), H_e = 4, H_d = 8, V_s = V_t = 18.
    auto row = [](const char* name, Mutator m, QStringList k, bool header_level = true) {
        QTest::newRow(name) << m << k << header_level;
    };
    auto setLength = [](uint64_t n) {
        return [n](Bytes& b) {
            for (int i = 0; i < 8; ++i) b[size_t(i)] = uint8_t(n >> (8 * i));
        };
    };
    auto header = [](std::string text) { return [text](Bytes& b) { b = rawFile(text, split(b).buffer); }; };
    auto tensor = [](const char* name, std::function<void(ojson&)> f) {
        return edit([name, f](Parts& p) { f(p.header[name]); });
    };
    const char* fcb = "encoder.fc.bias";
    // container
    row("empty file", [](Bytes& b) { b.clear(); }, {"truncated", "8-byte"});
    row("7 bytes", [](Bytes& b) { b.resize(7); }, {"truncated"});
    row("header length past end of file", [=](Bytes& b) { setLength(b.size())(b); }, {"truncated", "header length"});
    row("absurd header length", setLength(uint64_t(1) << 62), {"absurd", "4611686018427387904"});
    row("file cut in the data", [](Bytes& b) { b.resize(b.size() - 3); },
        {"truncated", "decoder.fc_out.bias", "past the end"});
    row("header not UTF-8",
        [](Bytes& b) {
            Parts p = split(b);
            std::string text = p.header.dump();
            text.insert(text.find("<unk>") + 2, "\xff");  // a raw byte no UTF-8 sequence starts with, inside a token
            b = rawFile(text, p.buffer);
        },
        {"header", "UTF-8"});
    row("header not JSON", header("{\"a\": [1, 2"), {"not valid JSON"});
    row("header is an array", header("[1, 2, 3]   "), {"not a JSON object", "array"});
    row("header nested too deeply", header(std::string(40, '[') + std::string(40, ']')), {"nested too deeply"});
    row("duplicate tensor name",
        [=](Bytes& b) {
            Parts p = split(b);
            std::string text = p.header.dump();
            text.insert(1, "\"encoder.fc.bias\":" + p.header[fcb].dump() + ",");
            b = rawFile(text, p.buffer);
        },
        {"encoder.fc.bias", "twice"});
    row("__metadata__ not an object", edit([](Parts& p) { p.header["__metadata__"] = 5; }), {"__metadata__", "object"});
    row("__metadata__ value not a string", editMeta("task", [](ojson& v) { v = 3; }),
        {"__metadata__", "task", "string"});
    // tensor entries
    row("entry not an object", tensor(fcb, [](ojson& e) { e = 5; }), {fcb, "object"});
    row("missing dtype", tensor(fcb, [](ojson& e) { e.erase("dtype"); }), {fcb, "missing", "dtype"});
    row("missing shape", tensor(fcb, [](ojson& e) { e.erase("shape"); }), {fcb, "missing", "shape"});
    row("missing data_offsets", tensor(fcb, [](ojson& e) { e.erase("data_offsets"); }),
        {fcb, "missing", "data_offsets"});
    row("dtype not a string", tensor(fcb, [](ojson& e) { e["dtype"] = 32; }), {fcb, "dtype", "string"});
    row("unknown dtype", tensor(fcb, [](ojson& e) { e["dtype"] = "I8"; }), {fcb, "dtype", "I8"});
    row("shape not an array", tensor(fcb, [](ojson& e) { e["shape"] = "8"; }), {fcb, "shape", "array"});
    row("shape with a fraction", tensor(fcb, [](ojson& e) { e["shape"] = {8.5}; }), {fcb, "shape", "integer"});
    row("negative shape", tensor(fcb, [](ojson& e) { e["shape"] = {-8}; }), {fcb, "negative"});
    row("overflowing shape",
        tensor(fcb,
               [](ojson& e) {
                   e["shape"] = {int64_t(1) << 40, int64_t(1) << 40};
               }),
        {fcb, "overflows"});
    row("data_offsets not a pair", tensor(fcb, [](ojson& e) { e["data_offsets"] = {0}; }), {fcb, "data_offsets"});
    row("data_offsets begin > end",
        tensor(fcb,
               [](ojson& e) {
                   e["data_offsets"] = {e["data_offsets"][1], e["data_offsets"][0]};
               }),
        {fcb, "begin > end"});
    row("data_offsets negative", tensor(fcb, [](ojson& e) { e["data_offsets"][0] = -4; }), {fcb, "negative"});
    row("data_offsets past the buffer",
        tensor(fcb,
               [](ojson& e) {
                   e["data_offsets"] = {1u << 30, (1u << 30) + 32};
               }),
        {fcb, "past the end", "truncated"});
    row("size does not match shape",
        tensor(fcb, [](ojson& e) { e["data_offsets"][1] = e["data_offsets"][1].get<int>() - 4; }),
        {fcb, "28 bytes", "needs 32"});
    row("overlapping tensors", edit([](Parts& p) {
            p.header["encoder.rnn.bias_hh_l0"]["data_offsets"] = p.header["encoder.rnn.bias_ih_l0"]["data_offsets"];
        }),
        {"overlap", "encoder.rnn.bias_hh_l0", "encoder.rnn.bias_ih_l0"});
    // tensors against the config
    row("missing tensor", edit([](Parts& p) { p.header.erase("decoder.attention.v.weight"); }),
        {"missing tensor", "decoder.attention.v.weight", "[1, 8]"});
    row("unexpected tensor", edit([](Parts& p) {
            p.header["decoder.attention.W.weight"] = {
                {"dtype", "F32"}, {"shape", {8, 8}}, {"data_offsets", {p.buffer.size(), p.buffer.size() + 256}}};
            p.buffer.resize(p.buffer.size() + 256);
        }),
        {"unexpected tensor", "decoder.attention.W.weight", "additive"});
    row("vector stored without its leading 1", tensor("decoder.attention.v.weight", [](ojson& e) { e["shape"] = {8}; }),
        {"decoder.attention.v.weight", "shape [8]", "needs [1, 8]"});
    row("transposed matrix",
        tensor("decoder.rnn.weight_hh_l0",
               [](ojson& e) {
                   e["shape"] = {8, 24};
               }),
        {"decoder.rnn.weight_hh_l0", "[8, 24]", "[24, 8]"});
    row("config sizes disagree with tensors",
        editMeta("config",
                 [](ojson& v) {
                     auto c = nlohmann::json::parse(v.get<std::string>());
                     c["emb_dim"] = 7;
                     v = c.dump();
                 }),
        {"encoder.embedding.weight", "[18, 6]", "needs [18, 7]"});
    row("one more target token than the embedding has",
        editVocab("target_vocab", [](nlohmann::json& v) { v.push_back("新"); }),
        {"decoder.embedding.weight", "[18, 6]", "[19, 6]"});
    // metadata
    row("no __metadata__", edit([](Parts& p) { p.header.erase("__metadata__"); }),
        {"__metadata__", "not an attnviz model"});
    row("missing format", edit([](Parts& p) { p.header["__metadata__"].erase("format"); }), {"format", "missing"});
    row("wrong format", editMeta("format", [](ojson& v) { v = "pytorch"; }),
        {"format", "\"pytorch\"", "attnviz.seq2seq"});
    row("format_version 2", editMeta("format_version", [](ojson& v) { v = "2"; }),
        {"format_version", "\"2\"", "not supported"});
    row("missing format_version", edit([](Parts& p) { p.header["__metadata__"].erase("format_version"); }),
        {"format_version", "missing"});
    row("missing config", edit([](Parts& p) { p.header["__metadata__"].erase("config"); }), {"config", "missing"});
    row("config not JSON", editMeta("config", [](ojson& v) { v = "{decoder: luong}"; }), {"config", "JSON"});
    row("config with an unknown score",
        editMeta("config",
                 [](ojson& v) {
                     auto c = nlohmann::json::parse(v.get<std::string>());
                     c["score"] = "cosine";
                     v = c.dump();
                 }),
        {"config", "score", "\"cosine\""});
    row("missing source_vocab", edit([](Parts& p) { p.header["__metadata__"].erase("source_vocab"); }),
        {"source_vocab", "missing"});
    row("vocabulary not an array", editMeta("target_vocab", [](ojson& v) { v = "{\"a\": 1}"; }),
        {"target_vocab", "array"});
    row("vocabulary entry not a string", editVocab("target_vocab", [](nlohmann::json& v) { v[5] = 5; }),
        {"target_vocab", "entry 5", "string"});
    row("vocabulary without <eos>", editVocab("target_vocab", [](nlohmann::json& v) { v[3] = "eos"; }),
        {"target_vocab", "<eos>"});
    row("vocabulary with a duplicate", editVocab("source_vocab", [](nlohmann::json& v) { v[6] = v[5]; }),
        {"source_vocab", "twice"});
    row("vocabulary with an empty token", editVocab("source_vocab", [](nlohmann::json& v) { v[6] = ""; }),
        {"source_vocab", "empty"});
    // weights
    auto weight = [](const char* name, int64_t index, float x) {
        return edit([=](Parts& p) {
            putFloat(p.buffer, p.header[name]["data_offsets"][0].get<uint64_t>() + uint64_t(index) * 4, x);
        });
    };
    row("NaN weight", weight("decoder.fc_out.weight", 47, NAN),
        {"decoder.fc_out.weight", "NaN", "index 47", "row 2, column 3"}, false);
    row("Inf weight", weight("encoder.fc.bias", 2, -INFINITY), {"encoder.fc.bias", "-Inf", "index 2"}, false);
    row("F64 weight outside float range", edit([](Parts& p) {
            ojson& e = p.header["encoder.fc.bias"];  // 8 values as F64 moved to the end of the buffer
            removeBytes(p, e["data_offsets"][0].get<uint64_t>(), e["data_offsets"][1].get<uint64_t>());
            e["dtype"] = "F64";
            e["data_offsets"] = {p.buffer.size(), p.buffer.size() + 64};
            for (int i = 0; i < 8; ++i) {
                const double d = i == 4 ? 1e300 : 0.5;
                const auto* c = reinterpret_cast<const uint8_t*>(&d);
                p.buffer.insert(p.buffer.end(), c, c + 8);
            }
        }),
        {"encoder.fc.bias", "outside the float range", "index 4"}, false);
}

void TestModelFile::badFile() {
    QFETCH(Mutator, mutate);
    QFETCH(QStringList, keywords);
    QFETCH(bool, header_level);
    Bytes file = serializeModel(smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 99));
    mutate(file);
    QVERIFY(!keywords.isEmpty());

    auto check = [&](const std::function<void()>& f, const std::string& name) {
        try {
            f();
        } catch (const ModelError& e) {
            const QString msg = QString::fromUtf8(e.what());
            QVERIFY2(msg.startsWith(QString::fromStdString(name) + ": "), qPrintable(msg));
            for (const QString& k : keywords) QVERIFY2(msg.contains(k), qPrintable("no \"" + k + "\" in: " + msg));
            return;
        } catch (const std::exception& e) {
            QFAIL(qPrintable(QString("not a ModelError: ") + e.what()));
        }
        QFAIL("no error");
    };
    check([&] { loadModelFromBytes(file.data(), file.size(), kBadName); }, kBadName);
    if (QTest::currentTestFailed()) return;

    QTemporaryDir dir;
    const QString path = dir.filePath("bad.safetensors");
    writeBytes(path, file);
    check([&] { loadModel(path.toStdString()); }, path.toStdString());
    if (QTest::currentTestFailed()) return;
    if (header_level) {
        check([&] { readModelHeader(path.toStdString()); }, path.toStdString());
    } else {
        const ModelHeader h = readModelHeader(path.toStdString());  // the header itself is fine
        QCOMPARE(h.file_size, uint64_t(file.size()));
    }
}

QTEST_GUILESS_MAIN(TestModelFile)
#include "test_model_file.moc"
