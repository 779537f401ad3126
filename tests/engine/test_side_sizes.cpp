// An encoder and a decoder of different sizes (docs/marian.md's encoder_attention_heads / decoder_attention_heads,
// encoder_ffn_dim / decoder_ffn_dim; docs/model-format.md's encoder_nhead ... keys): a Marian folder with 4 encoder
// heads and F_enc 64, 2 decoder heads and F_dec 96 decodes as the independent double reference does on every layer
// and head of the three attentions; it is written back with transformers' keys and reads back the same; an attnviz
// file keeps each side's sizes, writes the per-side keys only when the sides differ and reads files without them;
// each side's heads must divide d_model; head interventions and head importance count each side's heads; stored
// encoder and decoder position tables that differ are each read and used as stored.
#include "decode/decoding.h"
#include "error_of.h"
#include "eval/head_importance.h"
#include "io/marian_writer.h"
#include "io/model_file.h"
#include "marian_folders.h"
#include "model/interventions.h"
#include "model/model.h"
#include "reference_transformer.h"
#include "test_models.h"
#include "test_registry.h"
#include "text/tokenizer.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>

using namespace attnviz;
using attnviz::testing::errorOf;

namespace {

testing::MarianFolderOptions unevenSides() {
    testing::MarianFolderOptions o;
    o.heads = 4;
    o.ffn = 64;
    o.decoder_heads = 2;
    o.decoder_ffn = 96;
    return o;
}

// d 8; the encoder 4 heads and F 12, the decoder 2 heads and F 20.
Model unevenTransformer() {
    ModelConfig c;
    c.decoder = DecoderKind::Transformer;
    c.score = ScoreKind::ScaledDot;
    c.transformer = {8, 4, 2, 2, 12, false, Activation::Relu};
    c.transformer.decoder_nhead = 2;
    c.transformer.decoder_dim_feedforward = 20;
    return makeRandomTransformerModel(c, testing::smallSourceVocab(), testing::smallTargetVocab(), {5, true});
}

bool sameTransformerBits(Model a, Model b) {
    const std::vector<ParamRef> x = paramRefs(a), y = paramRefs(b);
    if (x.size() != y.size()) return false;
    for (size_t i = 0; i < x.size(); ++i)
        if (x[i].name != y[i].name || x[i].size != y[i].size ||
            !std::equal(x[i].data, x[i].data + x[i].size, y[i].data))
            return false;
    return true;
}

bool closeMatrices(const Mat& a, const testing::DMat& b, double tolerance) {
    return a.rows() == b.rows() && a.cols() == b.cols() && (a.cast<double>() - b).cwiseAbs().maxCoeff() < tolerance;
}

nlohmann::json jsonOfFile(const std::string& path) {
    std::ifstream in(path);
    return nlohmann::json::parse(in);
}

// A greedy decode of m (a Marian folder of `vocab` pieces) against the double reference: the tokens, the
// log-probabilities and every head of every layer of the three attentions, each with its side's head count.
void expectTheReferenceDecode(const Model& m, int vocab) {
    const TransformerConfig& c = m.config.transformer;
    const TokenizedText src = tokenizeSource(m, "the cat sat on the old bridge");
    DecodeOptions o;
    o.max_len = 8;
    const DecodeResult r = greedyDecode(m, src, o);
    const TransformerParamsT<double> p = castTransformerParams<double>(m.transformer, m.transformerShape());
    const auto ref = testing::referenceTransformerGreedy(c, p, src.ids, 8, {}, {vocab - 1, 0, {vocab - 1}});
    QCOMPARE(r.target_ids, ref.tokens);
    const testing::RefTransformerDecoding& last = ref.steps.back();
    for (size_t t = 0; t < r.target_ids.size(); ++t)
        QVERIFY(std::abs(r.log_probs[t] - last.log_probs(Eigen::Index(t), r.target_ids[t])) < 2e-4);
    const auto enc = testing::referenceTransformerEncode(c, p, src.ids);
    for (int l = 0; l < c.num_encoder_layers; ++l) {
        QCOMPARE(int(r.encoder_self_attention[l].size()), c.encoder_nhead);
        for (int h = 0; h < c.encoder_nhead; ++h)
            QVERIFY(closeMatrices(r.encoder_self_attention[l][h], enc.self_attention[l][h], 2e-5));
    }
    const Eigen::Index T = Eigen::Index(r.target_ids.size());
    for (int l = 0; l < c.num_decoder_layers; ++l) {
        QCOMPARE(int(r.cross_attention[l].size()), c.decoder_nhead);
        QCOMPARE(int(r.decoder_self_attention[l].size()), c.decoder_nhead);
        for (int h = 0; h < c.decoder_nhead; ++h) {
            QVERIFY(closeMatrices(r.cross_attention[l][h], last.cross[l][h].topRows(T), 2e-5));
            QVERIFY(closeMatrices(r.decoder_self_attention[l][h], last.self_attention[l][h].topLeftCorner(T, T), 2e-5));
        }
    }
}

}  // namespace

class TestSideSizes : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string path(const char* name) const { return (std::filesystem::path(dir_.path().toStdString()) / name); }

private slots:
    void aMarianFolderWithUnevenSidesDecodesAsTheReference() {
        const testing::MarianFolder f = testing::makeMarianFolder(path("uneven"), unevenSides());
        const Model m = loadModel(f.path);
        const TransformerConfig& c = m.config.transformer;
        QCOMPARE(c, f.config);
        QCOMPARE(std::tuple(c.encoder_nhead, c.decoder_nhead), std::tuple(4, 2));
        QCOMPARE(std::tuple(c.encoder_dim_feedforward, c.decoder_dim_feedforward), std::tuple(64, 96));
        QCOMPARE(m.transformer.decoder_layers[0].ff.linear1_weight.rows(), 96);
        expectTheReferenceDecode(m, f.vocab);
    }

    void aMarianFolderIsWrittenBackWithEachSidesKeys() {
        const Model m = loadModel(testing::makeMarianFolder(path("source"), unevenSides()).path);
        saveMarianFolder(m, path("written"));
        const nlohmann::json config = jsonOfFile(path("written") + "/config.json");
        QCOMPARE(config["encoder_attention_heads"].get<int>(), 4);
        QCOMPARE(config["decoder_attention_heads"].get<int>(), 2);
        QCOMPARE(config["encoder_ffn_dim"].get<int>(), 64);
        QCOMPARE(config["decoder_ffn_dim"].get<int>(), 96);
        const Model back = loadModel(path("written"));
        QCOMPARE(back.config.transformer, m.config.transformer);
        QVERIFY(sameTransformerBits(back, m));
    }

    void eachSideReadsItsOwnStoredPositions() {
        testing::MarianFolderOptions o = unevenSides();
        o.write_positions = o.distinct_positions = true;
        const testing::MarianFolder f = testing::makeMarianFolder(path("positions"), o);
        const Model m = loadModel(f.path);
        QVERIFY(m.transformer.pos_embedding == f.params.pos_embedding);
        QVERIFY(m.transformer.decoder_pos_embedding == f.params.decoder_pos_embedding);
        QVERIFY(!(m.transformer.decoder_pos_embedding == m.transformer.pos_embedding));
        expectTheReferenceDecode(m, f.vocab);
        if (QTest::currentTestFailed()) return;
        // written back with both tables, and read back the same
        saveMarianFolder(m, path("positions-written"));
        const Model back = loadModel(path("positions-written"));
        QVERIFY(sameTransformerBits(back, m));
        // the decoder's table alone: the encoder computes the sinusoid
        testing::rewriteMarianWeights(f.path,
                                      [](testing::TensorTable& t) { t.erase("model.encoder.embed_positions.weight"); });
        const Model decoder_only = loadModel(f.path);
        QVERIFY(decoder_only.transformer.pos_embedding ==
                sinusoidalPositions<float>(64, 16, 0, PositionLayout::Halves));
        QVERIFY(decoder_only.transformer.decoder_pos_embedding == f.params.decoder_pos_embedding);
        expectTheReferenceDecode(decoder_only, f.vocab);
    }

    void anAttnvizFileKeepsEachSidesSizes() {
        const Model m = unevenTransformer();
        saveModel(m, path("uneven.safetensors"));
        const ModelHeader h = readModelHeader(path("uneven.safetensors"));
        QCOMPARE(h.config.transformer, m.config.transformer);
        for (const TensorEntry& t : h.tensors) {
            if (t.name == "transformer.encoder.layers.1.linear1.weight")
                QCOMPARE(t.shape, std::vector<int64_t>({12, 8}));
            if (t.name == "transformer.decoder.layers.1.linear2.weight")
                QCOMPARE(t.shape, std::vector<int64_t>({8, 20}));
        }
        const Model back = loadModel(path("uneven.safetensors"));
        QVERIFY(sameTransformerBits(back, m));
        QCOMPARE(greedyDecode(back, "hello world", {}).target_ids, greedyDecode(m, "hello world", {}).target_ids);
    }

    void perSideKeysAreWrittenOnlyWhenTheSidesDiffer() {
        TransformerConfig c{8, 2, 1, 1, 16};
        nlohmann::json j = transformerConfigToJson(c);
        for (const char* key : {"encoder_nhead", "decoder_nhead", "encoder_dim_feedforward", "decoder_dim_feedforward"})
            QVERIFY2(!j.contains(key), key);
        c.decoder_nhead = 4;
        j = transformerConfigToJson(c);
        QCOMPARE(std::tuple(j["nhead"].get<int>(), j["encoder_nhead"].get<int>(), j["decoder_nhead"].get<int>()),
                 std::tuple(2, 2, 4));
        QVERIFY(!j.contains("decoder_dim_feedforward"));
        QCOMPARE(transformerConfigFromJson(j), c);
        // a file without them (every file before this key existed): both sides take nhead and dim_feedforward
        j = {{"decoder", "transformer"}, {"d_model", 8},         {"nhead", 2}, {"num_encoder_layers", 1},
             {"num_decoder_layers", 1},  {"dim_feedforward", 16}};
        QCOMPARE(transformerConfigFromJson(j), (TransformerConfig{8, 2, 1, 1, 16}));
        j["decoder_dim_feedforward"] = 40;  // one side given: the other keeps the shared value
        const TransformerConfig one = transformerConfigFromJson(j);
        QCOMPARE(std::tuple(one.encoder_dim_feedforward, one.decoder_dim_feedforward), std::tuple(16, 40));
    }

    void eachSidesHeadsMustDivideTheModelSize() {
        nlohmann::json j = transformerConfigToJson({8, 2, 1, 1, 16});
        j["decoder_nhead"] = 3;
        QCOMPARE(errorOf([&] { transformerConfigFromJson(j); }),
                 QString("config: decoder_nhead 3 does not divide d_model 8"));
        j["decoder_nhead"] = 4;
        j["encoder_dim_feedforward"] = 0;
        QCOMPARE(errorOf([&] { transformerConfigFromJson(j); }),
                 QString("config: encoder_dim_feedforward 0 must be at least 1"));
        const testing::MarianFolder f = testing::makeMarianFolder(path("bad"), unevenSides());
        nlohmann::json config = jsonOfFile(f.path + "/config.json");
        config["decoder_attention_heads"] = 3;
        std::filesystem::remove(f.path + "/config.json");
        std::ofstream(f.path + "/config.json") << config.dump();
        const QString e = errorOf([&] { loadModel(f.path); });
        QVERIFY2(e.contains("\"decoder_attention_heads\" = 3 does not divide d_model 16"), qPrintable(e));
    }

    void headsOffAndHeadImportanceCountEachSidesHeads() {
        const Model m = unevenTransformer();  // 4 encoder heads, 2 decoder heads
        checkInterventionKinds(m, {{}, {}, {{AttentionKind::EncoderSelf, 1, 3}}});
        QCOMPARE(errorOf([&] {
                     checkInterventionKinds(m, {{}, {}, {{AttentionKind::Cross, 1, 3}}});
                 }),
                 QString("head off cross: head 3 is out of range (the model has 2 decoder heads: 0..1)"));
        QCOMPARE(errorOf([&] {
                     checkInterventionKinds(m, {{}, {}, {{AttentionKind::DecoderSelf, 0, 2}}});
                 }),
                 QString("head off decoder: head 2 is out of range (the model has 2 decoder heads: 0..1)"));
        const std::vector<HeadRef> heads = allHeads(m.config.transformer);
        QCOMPARE(int(heads.size()), 2 * 2 + 2 * 4 + 2 * 2);  // cross, encoder, decoder
        QCOMPARE(heads[4], (HeadRef{AttentionKind::EncoderSelf, 0, 0}));
        QCOMPARE(heads[11], (HeadRef{AttentionKind::EncoderSelf, 1, 3}));
        // an encoder head off changes the decode as zeroing its columns of out_proj does
        DecodeOptions o;
        o.interventions.heads_off = {{AttentionKind::EncoderSelf, 0, 3}};
        const DecodeResult off = greedyDecode(m, "hello world", o);
        const DecodeResult zeroed =
            greedyDecode(testing::withHeadZeroed(m, {AttentionKind::EncoderSelf, 0, 3}), "hello world", {});
        QCOMPARE(off.target_ids, zeroed.target_ids);
        for (size_t t = 0; t < off.log_probs.size(); ++t)
            QVERIFY(std::abs(off.log_probs[t] - zeroed.log_probs[t]) < 1e-5);
    }
};

ATTNVIZ_TEST_MAIN(TestSideSizes)
#include "test_side_sizes.moc"
