// The Transformer kind's config and parameters: the config's validation messages, its JSON round trip and defaults,
// the tensor names of docs/transformer.md with a hand-counted total, and PyTorch's default initialisation.
#include "base/tensor.h"
#include "error_of.h"
#include "model/transformer_params.h"
#include "test_registry.h"

#include <QtTest>
#include <algorithm>
#include <cmath>
#include <tuple>

using namespace attnviz;
using namespace attnviz::testing;

namespace {

nlohmann::json validJson() {
    return {{"decoder", "transformer"}, {"d_model", 64},           {"nhead", 4},
            {"num_encoder_layers", 2},  {"num_decoder_layers", 3}, {"dim_feedforward", 128}};
}

}  // namespace

class TestTransformerParams : public QObject {
    Q_OBJECT

private slots:
    void configValidationMessages_data();
    void configValidationMessages();
    void sizeProblemNamesTheRuleKeyAndValue();
    void configRoundTripAndDefaults();
    void parameterListAndCount();
    void initialisationIsPyTorchDefault();
};

void TestTransformerParams::configValidationMessages_data() {
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("value");  // JSON; empty: remove the key
    QTest::addColumn<QString>("message");
    QTest::newRow("nhead") << "nhead"
                           << "3"
                           << "nhead 3 does not divide d_model 64";
    QTest::newRow("odd d_model") << "d_model"
                                 << "63"
                                 << "d_model 63 must be even";
    QTest::newRow("zero d_model") << "d_model"
                                  << "0"
                                  << "d_model 0 must be at least 1";
    QTest::newRow("zero nhead") << "nhead"
                                << "0"
                                << "nhead 0 must be at least 1";
    QTest::newRow("no encoder layer") << "num_encoder_layers"
                                      << "0"
                                      << "num_encoder_layers 0 must be at least 1";
    QTest::newRow("no decoder layer") << "num_decoder_layers"
                                      << "-2"
                                      << "num_decoder_layers -2 must be at least 1";
    QTest::newRow("feedforward") << "dim_feedforward"
                                 << "0"
                                 << "dim_feedforward 0 must be at least 1";
    QTest::newRow("missing") << "d_model"
                             << ""
                             << "missing required key \"d_model\"";
    QTest::newRow("not integer") << "nhead"
                                 << "\"4\""
                                 << "\"nhead\" must be an integer";
    QTest::newRow("activation") << "activation"
                                << "\"tanh\""
                                << "unknown activation \"tanh\"";
    QTest::newRow("norm_first") << "norm_first"
                                << "1"
                                << "\"norm_first\" must be true or false";
    QTest::newRow("score") << "score"
                           << "\"additive\""
                           << "score \"additive\" does not apply";
    QTest::newRow("emb_dim") << "emb_dim"
                             << "64"
                             << "key \"emb_dim\" does not apply to decoder \"transformer\"";
    QTest::newRow("span") << "span"
                          << "\"global\""
                          << "key \"span\" does not apply";
    QTest::newRow("input_feeding") << "input_feeding"
                                   << "false"
                                   << "key \"input_feeding\" does not apply";
    QTest::newRow("decoder") << "decoder"
                             << "\"luong\""
                             << "decoder \"luong\" is not \"transformer\"";
}

void TestTransformerParams::configValidationMessages() {
    QFETCH(QString, key);
    QFETCH(QString, value);
    QFETCH(QString, message);
    nlohmann::json j = validJson();
    if (value.isEmpty())
        j.erase(key.toStdString());
    else
        j[key.toStdString()] = nlohmann::json::parse(value.toStdString());
    const QString error = errorOf([&] { transformerConfigFromJson(j); });
    QVERIFY2(error.contains(message), qPrintable(error));
}

void TestTransformerParams::sizeProblemNamesTheRuleKeyAndValue() {
    using Rule = TransformerSizeProblem::Rule;
    const TransformerConfig good{64, 4, 2, 2, 128};
    QVERIFY(!transformerSizeProblem(good));
    auto problem = [&](auto change) {
        TransformerConfig c = good;
        change(c);
        const std::optional<TransformerSizeProblem> p = transformerSizeProblem(c);
        return p ? std::tuple{int(p->rule), QString(p->key), p->value} : std::tuple{-1, QString(), 0};
    };
    QCOMPARE(problem([](auto& c) { c.setHeads(3); }), std::tuple(int(Rule::HeadsDivideModelSize), QString("nhead"), 3));
    QCOMPARE(problem([](auto& c) { c.d_model = 63; }), std::tuple(int(Rule::EvenModelSize), QString("d_model"), 63));
    // The first rule broken, in docs/transformer.md's order: an odd d_model before heads that do not divide it.
    QCOMPARE(problem([](auto& c) { c.d_model = 63, c.setHeads(2); }),
             std::tuple(int(Rule::EvenModelSize), QString("d_model"), 63));
    QCOMPARE(problem([](auto& c) { c.setFeedForward(0); }),
             std::tuple(int(Rule::AtLeastOne), QString("dim_feedforward"), 0));
    QCOMPARE(problem([](auto& c) { c.num_decoder_layers = -1; }),
             std::tuple(int(Rule::AtLeastOne), QString("num_decoder_layers"), -1));
}

void TestTransformerParams::configRoundTripAndDefaults() {
    nlohmann::json j = validJson();
    j["score"] = "scaled_dot";  // allowed, and the only value allowed
    const TransformerConfig c = transformerConfigFromJson(j);
    QCOMPARE(c.d_model, 64);
    QCOMPARE(c.headDim(AttentionKind::Cross), 16);
    QCOMPARE(c.num_decoder_layers, 3);
    QVERIFY(!c.norm_first);
    QVERIFY(c.activation == Activation::Relu);
    TransformerConfig pre = c;
    pre.norm_first = true;
    pre.activation = Activation::Gelu;
    const nlohmann::json written = transformerConfigToJson(pre);
    QCOMPARE(QString::fromStdString(written.at("activation").get<std::string>()), QString("gelu"));
    QVERIFY(transformerConfigFromJson(written) == pre);
}

// The names of docs/transformer.md in file order, and the count a hand formula gives.
void TestTransformerParams::parameterListAndCount() {
    const int d = 8, F = 16, Vs = 11, Vt = 13, maxlen = 20;
    const TransformerShape shape{{d, 2, 1, 2, F, false, Activation::Relu}, Vs, Vt, maxlen};
    TransformerParams p;
    resizeTransformerParams(p, shape);
    std::vector<std::string> names;
    std::vector<std::vector<int64_t>> shapes;
    forEachTransformerTensor(p, shape, [&](const std::string& name, const std::vector<int64_t>& s, auto&) {
        names.push_back(name);
        shapes.push_back(s);
    });
    QCOMPARE(names.front(), std::string("src_tok_emb.embedding.weight"));
    QCOMPARE(names[2], std::string("transformer.encoder.layers.0.self_attn.in_proj_weight"));
    QVERIFY((shapes[2] == std::vector<int64_t>{3 * d, d}));
    QVERIFY(std::find(names.begin(), names.end(), "transformer.decoder.layers.1.multihead_attn.out_proj.bias") !=
            names.end());
    QVERIFY(std::find(names.begin(), names.end(), "transformer.decoder.layers.1.norm3.weight") != names.end());
    QCOMPARE(names.back(), std::string("positional_encoding.pos_embedding"));
    QVERIFY((shapes.back() == std::vector<int64_t>{maxlen, 1, d}));
    QCOMPARE(p.pos_embedding.rows(), Eigen::Index(maxlen));
    const int64_t attention = 3 * d * d + 3 * d + d * d + d, ff = 2 * d * F + F + d;
    const int64_t encoder_layer = attention + ff + 4 * d, decoder_layer = 2 * attention + ff + 6 * d;
    const int64_t expected =
        int64_t(Vs + Vt) * d + encoder_layer + 2 * decoder_layer + 4 * d + Vt * d + Vt + int64_t(maxlen) * d;
    QCOMPARE(transformerParameterCount(shape), expected);
    QCOMPARE(int64_t(names.size()), int64_t(2 + 12 + 2 + 2 * 18 + 2 + 2 + 1));
}

// xavier_uniform_ (bound √(6 / (fan_in + fan_out)), variance bound²/3), Linear biases U(±1/√fan_in), attention biases
// 0, LayerNorm 1 and 0; the same seed gives the same weights.
void TestTransformerParams::initialisationIsPyTorchDefault() {
    const TransformerShape shape{{64, 4, 1, 1, 128, false, Activation::Relu}, 50, 60, 0};
    TransformerParams a, b, c;
    initTransformerParams(a, shape, {42, false});
    initTransformerParams(b, shape, {42, false});
    initTransformerParams(c, shape, {43, false});
    QVERIFY(a.encoder_layers[0].ff.linear1_weight == b.encoder_layers[0].ff.linear1_weight);
    QVERIFY(a.generator_bias == b.generator_bias);
    QVERIFY(a.encoder_layers[0].ff.linear1_weight != c.encoder_layers[0].ff.linear1_weight);
    const Mat& w = a.encoder_layers[0].self_attn.in_proj_weight;  // (192, 64)
    const double bound = std::sqrt(6.0 / (192 + 64));
    QVERIFY(w.cwiseAbs().maxCoeff() <= bound);
    const double variance = w.squaredNorm() / double(w.size());
    QVERIFY2(std::abs(variance / (bound * bound / 3) - 1) < 0.05, qPrintable(QString::number(variance)));
    const Vec& b1 = a.encoder_layers[0].ff.linear1_bias;  // fan_in 64
    QVERIFY(b1.cwiseAbs().maxCoeff() <= 1 / 8.0 && b1.cwiseAbs().maxCoeff() > 0.1);
    const Vec& b2 = a.decoder_layers[0].ff.linear2_bias;  // fan_in 128
    QVERIFY(b2.cwiseAbs().maxCoeff() <= 1 / std::sqrt(128.0));
    QVERIFY(a.decoder_layers[0].multihead_attn.in_proj_bias.isZero(0));
    QVERIFY(a.decoder_layers[0].self_attn.out_proj_bias.isZero(0));
    QVERIFY(a.decoder_layers[0].norm3.weight.isOnes(0) && a.encoder_norm.bias.isZero(0));
    QVERIFY(a.src_embedding.cwiseAbs().maxCoeff() <= std::sqrt(6.0 / (50 + 64)));
}

ATTNVIZ_TEST_MAIN(TestTransformerParams)
#include "test_transformer_params.moc"
