// attnviz-cli convert and train --dtype, driven as a user would (the built binary with QProcess): the written file
// stores every tensor in the asked type, keeps config, vocabularies and metadata, holds the engine's own rounding
// of each weight, and decodes as the float32 model does to within the rounding; bad usage names the flag.
#include "decode/decoding.h"
#include "io/model_file.h"
#include "io/safetensors.h"
#include "model/params.h"
#include "process_run.h"
#include "test_models.h"
#include "test_registry.h"

#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <bit>
#include <cmath>

using namespace attnviz;
using namespace attnviz::testing;
namespace st = attnviz::safetensors;

namespace {

using Run = ProcessRun;

float widen(uint16_t v, st::DType type) {
    if (type == st::DType::BF16) return std::bit_cast<float>(uint32_t(v) << 16);
    // IEEE half: sign, 5 exponent bits (bias 15), 10 mantissa bits; exponent 0 = subnormal (mantissa * 2^-24).
    const int exponent = (v >> 10) & 0x1F, mantissa = v & 0x3FF;
    const float magnitude =
        exponent == 0 ? std::ldexp(float(mantissa), -24) : std::ldexp(float(1024 + mantissa), exponent - 25);
    return (v & 0x8000) ? -magnitude : magnitude;
}

}  // namespace

class TestCliConvert : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void convertWritesTheType_data();
    void convertWritesTheType();
    void convertInPlaceAndBack();
    void trainWritesTheType();
    void badUsage_data();
    void badUsage();

private:
    QTemporaryDir dir_;
    QString f32_;
    Model model_;
};

void TestCliConvert::initTestCase() {
    QVERIFY(dir_.isValid());
    model_ = smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 21, 2.0f);
    model_.task = "convert-test";
    model_.training = R"({"note":"kept"})";
    f32_ = saveInto(model_, dir_, QStringLiteral("model.safetensors"));
}

void TestCliConvert::convertWritesTheType_data() {
    QTest::addColumn<QString>("flag");
    QTest::addColumn<int>("type");
    QTest::addColumn<double>("tolerance");  // largest attention difference allowed against float32
    QTest::newRow("f16") << "f16" << int(st::DType::F16) << 1e-2;
    QTest::newRow("bf16") << "bf16" << int(st::DType::BF16) << 5e-2;
    QTest::newRow("f32") << "f32" << int(st::DType::F32) << 0.0;
}

void TestCliConvert::convertWritesTheType() {
    QFETCH(QString, flag);
    QFETCH(int, type);
    QFETCH(double, tolerance);
    const auto dtype = st::DType(type);
    const QString out = dir_.filePath("model-" + flag + ".safetensors");
    const Run r = runCli({"convert", "--dtype", flag, f32_, out});
    QVERIFY2(r.code == 0, r.err.constData());

    const ModelHeader h = readModelHeader(out.toStdString());
    for (const TensorEntry& t : h.tensors) {
        QCOMPARE(t.dtype, std::string(st::dtypeName(dtype)));
        int64_t numel = 1;
        for (int64_t d : t.shape) numel *= d;
        QCOMPARE(t.end - t.begin, uint64_t(numel * st::dtypeSize(dtype)));
    }
    Model loaded = loadModel(out.toStdString());
    QCOMPARE(loaded.config, model_.config);
    QCOMPARE(loaded.task, model_.task);
    QCOMPARE(loaded.training, model_.training);
    QCOMPARE(loaded.source_vocab.tokens(), model_.source_vocab.tokens());

    // Every weight is the narrow type's rounding of the original, widened back.
    Model original = model_;
    const auto want =
        paramRefs(original.params, original.config, original.source_vocab.size(), original.target_vocab.size());
    const auto got = paramRefs(loaded.params, loaded.config, loaded.source_vocab.size(), loaded.target_vocab.size());
    for (size_t p = 0; p < want.size(); ++p)
        for (int64_t i = 0; i < want[p].size; ++i) {
            const float w = want[p].data[i];
            const float expected = dtype == st::DType::F16    ? widen(st::floatToHalf(w), dtype)
                                   : dtype == st::DType::BF16 ? widen(st::floatToBFloat16(w), dtype)
                                                              : w;
            QCOMPARE(got[p].data[i], expected);
        }

    // The decode barely moves: the same tokens, attention within the rounding's reach.
    const std::string sentence = "i love you";
    const DecodeResult a = greedyDecode(model_, sentence), b = greedyDecode(loaded, sentence);
    QCOMPARE(b.target_tokens, a.target_tokens);
    double largest = 0;
    for (size_t t = 0; t < a.attention.size(); ++t)
        for (size_t s = 0; s < a.attention[t].size(); ++s)
            largest = std::max(largest, double(std::fabs(a.attention[t][s] - b.attention[t][s])));
    QVERIFY2(largest <= tolerance, qPrintable(QString::number(largest)));
    if (dtype != st::DType::F32) QVERIFY(largest > 0);  // the rounding did happen
}

void TestCliConvert::convertInPlaceAndBack() {
    const QString path = dir_.filePath("in-place.safetensors");
    QVERIFY(QFile::copy(f32_, path));
    QVERIFY2(runCli({"convert", "--dtype", "f16", path, path}).code == 0, "in place");
    const Model half = loadModel(path.toStdString());
    QCOMPARE(readModelHeader(path.toStdString()).tensors.front().dtype, std::string("F16"));
    // Widening is exact: back to f32 and to f16 again gives the same bytes.
    const QString wide = dir_.filePath("wide.safetensors"), again = dir_.filePath("again.safetensors");
    QVERIFY(runCli({"convert", "--dtype", "f32", path, wide}).code == 0);
    QVERIFY(runCli({"convert", "--dtype", "f16", wide, again}).code == 0);
    QCOMPARE(st::readFile(again.toStdString()), st::readFile(path.toStdString()));
    QVERIFY(loadModel(wide.toStdString()).params.fc_out_w == half.params.fc_out_w);
}

void TestCliConvert::trainWritesTheType() {
    const QString data = dir_.filePath("tiny.tsv"), config = dir_.filePath("tiny.json");
    QFile d(data), c(config);
    QVERIFY(d.open(QIODevice::WriteOnly) && c.open(QIODevice::WriteOnly));
    d.write("i love you\t我 爱 你\nyou love me\t你 爱 我\n");
    c.write(R"({"decoder": "bahdanau", "score": "dot", "emb_dim": 4, "enc_hid_dim": 4, "dec_hid_dim": 8})");
    d.close();
    c.close();
    const QString out = dir_.filePath("trained.safetensors");
    const Run r = runCli({"train", "--config", config, "--data", data, "--out", out, "--steps", "2", "--dtype", "bf16",
                          "--quiet", "--threads", "1"});
    QVERIFY2(r.code == 0, r.err.constData());
    for (const TensorEntry& t : readModelHeader(out.toStdString()).tensors) QCOMPARE(t.dtype, std::string("BF16"));
}

void TestCliConvert::badUsage_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<int>("code");
    QTest::addColumn<QString>("message");
    const QString out = QDir::temp().filePath("attnviz-convert-never-written.safetensors");
    QTest::newRow("no --dtype") << QStringList{"convert", "IN", out} << 2 << "--dtype";
    QTest::newRow("f64") << QStringList{"convert", "--dtype", "f64", "IN", out} << 2 << "--dtype";
    QTest::newRow("one path") << QStringList{"convert", "--dtype", "f16", "IN"} << 2 << "OUT";
    QTest::newRow("missing model") << QStringList{"convert", "--dtype", "f16", "/nonexistent/m.safetensors", out} << 1
                                   << "/nonexistent/m.safetensors";
}

void TestCliConvert::badUsage() {
    QFETCH(QStringList, args);
    QFETCH(int, code);
    QFETCH(QString, message);
    for (QString& a : args)
        if (a == "IN") a = f32_;
    const Run r = runCli(args);
    QCOMPARE(r.code, code);
    QVERIFY2(QString::fromUtf8(r.err).contains(message), r.err.constData());
    QVERIFY(!QFile::exists(QDir::temp().filePath("attnviz-convert-never-written.safetensors")));
}

ATTNVIZ_TEST_MAIN(TestCliConvert)
#include "test_cli_convert.moc"
