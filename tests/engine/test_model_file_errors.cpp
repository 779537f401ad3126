// One row per kind of broken model file: the reader (from bytes and from a file) and readModelHeader refuse it with
// a ModelError that starts with the file's name and names what is wrong.
#include "base/errors.h"
#include "io/model_file.h"
#include "model/model.h"
#include "safetensors_bytes.h"
#include "test_models.h"
#include "test_registry.h"

#include <QtTest>
#include <nlohmann/json.hpp>

#include <cstring>
#include <functional>

using namespace attnviz;
using namespace attnviz::testing;

namespace {

using Mutator = std::function<void(Bytes&)>;

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

const char* kBadName = "bad.safetensors";

}  // namespace

Q_DECLARE_METATYPE(Mutator)

class TestModelFileErrors : public QObject {
    Q_OBJECT

private slots:
    void badFile_data();
    void badFile();
};

void TestModelFileErrors::badFile_data() {
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

void TestModelFileErrors::badFile() {
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

ATTNVIZ_TEST_MAIN(TestModelFileErrors)
#include "test_model_file_errors.moc"
