// Writing weights as F16 and BF16 (io/safetensors.h floatToHalf / floatToBFloat16, saveModel's dtype): the bits of
// IEEE 754 values worked out by hand, ties rounded to even, and a model written narrow and loaded again holds, for
// every weight, the value an independent reference rounding (nearbyint on the value's quantum) gives.
#include "base/errors.h"
#include "io/model_file.h"
#include "io/safetensors.h"
#include "model/params.h"
#include "test_models.h"
#include "test_registry.h"

#include <QFileInfo>
#include <QtTest>

#include <bit>
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <random>

using namespace attnviz;
using namespace attnviz::testing;
namespace st = attnviz::safetensors;

namespace {

float bits(uint32_t b) { return std::bit_cast<float>(b); }

// x rounded to the nearest value with `mantissa_bits` explicit mantissa bits (ties to even, the default rounding
// mode of nearbyint), subnormals below 2^min_exp; overflow past `max` gives Inf. The quantum of |x| in [2^e, 2^e+1)
// is 2^(e - mantissa_bits).
float referenceRound(float x, int mantissa_bits, int min_exp, float max) {
    if (x == 0 || !std::isfinite(x)) return x;
    const int e = std::max(std::ilogb(x), min_exp);
    const double quantum = std::ldexp(1.0, e - mantissa_bits);
    const double r = std::nearbyint(double(x) / quantum) * quantum;
    if (std::fabs(r) > max) return std::copysign(INFINITY, x);
    return float(r);
}
float referenceHalf(float x) { return referenceRound(x, 10, -14, 65504.0f); }
float referenceBFloat16(float x) { return referenceRound(x, 7, -126, bits(0x7F7F0000u)); }

Model modelWithWeights(uint64_t seed) {
    Model m = smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::General), seed, 2.0f);
    // Spread the weights over many binades (subnormal halves included) and put exact ties in the first ones.
    std::mt19937 rng{uint32_t(seed)};
    std::uniform_real_distribution<float> exponent(-27.0f, 15.0f);
    int k = 0;
    for (const ParamRef& r : paramRefs(m.params, m.config, m.source_vocab.size(), m.target_vocab.size()))
        for (int64_t i = 0; i < r.size; ++i, ++k) {
            const float sign = (k % 2) ? -1.0f : 1.0f;
            if (k < 4)
                r.data[i] = sign * (1.0f + std::ldexp(1.0f, -11) * float(2 * k + 1));  // F16 ties
            else if (k < 8)
                r.data[i] = sign * bits(0x3F808000u + uint32_t(k - 4) * 0x10000u);  // BF16 ties
            else
                r.data[i] = sign * std::exp2(exponent(rng));
        }
    return m;
}

}  // namespace

class TestWeightTypes : public QObject {
    Q_OBJECT
private slots:
    void halfBits_data();
    void halfBits();
    void bfloat16Bits_data();
    void bfloat16Bits();
    void modelRoundTrip_data();
    void modelRoundTrip();
    void halfOverflowIsRefusedNamingTheTensor();
};

void TestWeightTypes::halfBits_data() {
    QTest::addColumn<float>("value");
    QTest::addColumn<int>("expected");
    QTest::newRow("zero") << 0.0f << 0x0000;
    QTest::newRow("negative zero") << -0.0f << 0x8000;
    QTest::newRow("one") << 1.0f << 0x3C00;
    QTest::newRow("minus two") << -2.0f << 0xC000;
    QTest::newRow("0.1") << 0.1f << 0x2E66;
    QTest::newRow("largest") << 65504.0f << 0x7BFF;
    QTest::newRow("just below the tie to Inf") << bits(0x477FEFFFu) << 0x7BFF;
    QTest::newRow("tie to Inf (even)") << 65520.0f << 0x7C00;
    QTest::newRow("overflow") << 1e6f << 0x7C00;
    QTest::newRow("Inf") << -INFINITY << 0xFC00;
    QTest::newRow("1 + 2^-11: tie, down to even") << 1.0f + 0x1p-11f << 0x3C00;
    QTest::newRow("1 + 3 * 2^-11: tie, up to even") << 1.0f + 3 * 0x1p-11f << 0x3C02;
    QTest::newRow("just above a tie") << 1.0f + 0x1p-11f + 0x1p-20f << 0x3C01;
    QTest::newRow("smallest normal") << 0x1p-14f << 0x0400;
    QTest::newRow("largest subnormal") << 0x1p-14f - 0x1p-24f << 0x03FF;
    QTest::newRow("smallest subnormal") << 0x1p-24f << 0x0001;
    QTest::newRow("2^-25: tie, to zero") << 0x1p-25f << 0x0000;
    QTest::newRow("3 * 2^-25: tie, to 2") << 3 * 0x1p-25f << 0x0002;
    QTest::newRow("subnormal rounding up into normal") << 0x1p-14f - 0x1p-26f << 0x0400;
}

void TestWeightTypes::halfBits() {
    QFETCH(float, value);
    QFETCH(int, expected);
    QCOMPARE(int(st::floatToHalf(value)), expected);
}

void TestWeightTypes::bfloat16Bits_data() {
    QTest::addColumn<float>("value");
    QTest::addColumn<int>("expected");
    QTest::newRow("one") << 1.0f << 0x3F80;
    QTest::newRow("pi") << bits(0x40490FDBu) << 0x4049;
    QTest::newRow("tie, down to even") << bits(0x3F808000u) << 0x3F80;
    QTest::newRow("tie, up to even") << bits(0x3F818000u) << 0x3F82;
    QTest::newRow("just above a tie") << bits(0x3F808001u) << 0x3F81;
    QTest::newRow("negative") << bits(0xC0490FDBu) << 0xC049;
    QTest::newRow("largest float rounds to Inf") << bits(0x7F7FFFFFu) << 0x7F80;
    QTest::newRow("Inf") << INFINITY << 0x7F80;
}

void TestWeightTypes::bfloat16Bits() {
    QFETCH(float, value);
    QFETCH(int, expected);
    QCOMPARE(int(st::floatToBFloat16(value)), expected);
}

void TestWeightTypes::modelRoundTrip_data() {
    QTest::addColumn<int>("dtype");
    QTest::newRow("F16") << int(st::DType::F16);
    QTest::newRow("BF16") << int(st::DType::BF16);
    QTest::newRow("F32") << int(st::DType::F32);
}

void TestWeightTypes::modelRoundTrip() {
    QFETCH(int, dtype);
    const auto type = st::DType(dtype);
    QCOMPARE(std::fegetround(), FE_TONEAREST);
    QTemporaryDir dir;
    const Model original = modelWithWeights(5);
    const std::string path = dir.filePath("narrow.safetensors").toStdString();
    saveModel(original, path, type);

    const ModelHeader header = readModelHeader(path);
    for (const TensorEntry& t : header.tensors) QCOMPARE(t.dtype, std::string(st::dtypeName(type)));
    uint64_t data_bytes = 0;
    for (const TensorEntry& t : header.tensors) data_bytes += t.end - t.begin;
    QCOMPARE(data_bytes, uint64_t(original.parameterCount() * st::dtypeSize(type)));

    Model loaded = loadModel(path);
    QCOMPARE(loaded.config, original.config);
    QCOMPARE(loaded.training, original.training);
    QCOMPARE(loaded.target_vocab.tokens(), original.target_vocab.tokens());
    Model copy = original;
    const auto want = paramRefs(copy.params, copy.config, copy.source_vocab.size(), copy.target_vocab.size());
    const auto got = paramRefs(loaded.params, loaded.config, loaded.source_vocab.size(), loaded.target_vocab.size());
    QCOMPARE(got.size(), want.size());
    for (size_t p = 0; p < want.size(); ++p)
        for (int64_t i = 0; i < want[p].size; ++i) {
            const float w = want[p].data[i];
            const float expected = type == st::DType::F16    ? referenceHalf(w)
                                   : type == st::DType::BF16 ? referenceBFloat16(w)
                                                             : w;
            if (got[p].data[i] != expected)
                QFAIL(qPrintable(QString("%1[%2]: %3 written as %4, expected %5")
                                     .arg(QString::fromStdString(want[p].name))
                                     .arg(i)
                                     .arg(double(w), 0, 'g', 9)
                                     .arg(double(got[p].data[i]), 0, 'g', 9)
                                     .arg(double(expected), 0, 'g', 9)));
        }

    // Narrow values are exact in the narrow type: writing the loaded model again gives the same bytes.
    const std::string again = dir.filePath("again.safetensors").toStdString();
    saveModel(loaded, again, type);
    QCOMPARE(st::readFile(again), st::readFile(path));
}

void TestWeightTypes::halfOverflowIsRefusedNamingTheTensor() {
    QTemporaryDir dir;
    Model m = smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 3);
    m.params.fc_out_b[2] = 70000.0f;
    const std::string path = dir.filePath("big.safetensors").toStdString();
    try {
        saveModel(m, path, st::DType::F16);
        QFAIL("saved a weight beyond F16's range");
    } catch (const ModelError& e) {
        const QString msg = QString::fromUtf8(e.what());
        QVERIFY2(msg.startsWith(QString::fromStdString(path)) && msg.contains("decoder.fc_out.bias") &&
                     msg.contains("70000") && msg.contains("F16"),
                 qPrintable(msg));
    }
    QVERIFY(!QFileInfo::exists(QString::fromStdString(path)));
    saveModel(m, path, st::DType::BF16);                     // BF16 has float's range
    QCOMPARE(loadModel(path).params.fc_out_b[2], 70144.0f);  // 70000 = 0x4788B800 -> 0x4789 = 70144
}

ATTNVIZ_TEST_MAIN(TestWeightTypes)
#include "test_weight_types.moc"
