// `attnviz-cli info`, `decode` and `render` on a Transformer model file: the kind and its sizes are printed, the
// decode object carries docs/transformer.md's three attention keys with the numbers of the engine in this process,
// beam width 1 equals greedy, `--hypothesis N` is the N-th of the n-best list with its layers and heads, forced
// decoding scores the reference, and `render` draws the `attention` heatmap.
#include "decode/beam_hypothesis.h"
#include "decode/decoding.h"
#include "io/decode_json.h"
#include "io/model_file.h"
#include "model/model.h"
#include "process_run.h"
#include "test_models.h"
#include "test_registry.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <nlohmann/json.hpp>

using namespace attnviz;
using testing::ProcessRun;

namespace {

Model transformerModel(int maxlen) {
    ModelConfig c;
    c.decoder = DecoderKind::Transformer;
    c.score = ScoreKind::ScaledDot;
    c.transformer = {8, 2, 2, 1, 16, false, Activation::Relu};
    Model m =
        makeRandomTransformerModel(c, testing::smallSourceVocab(), testing::smallTargetVocab(), {21, true}, maxlen);
    m.transformer.generator_weight *= 3.0f;
    m.task = "en-zh";
    return m;
}

nlohmann::json jsonOf(const ProcessRun& r) {
    try {
        return nlohmann::json::parse(r.out.constData());
    } catch (const std::exception&) {
        return nullptr;
    }
}

}  // namespace

class TestCliTransformer : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString path_;
    Model model_;

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        model_ = transformerModel(32);
        path_ = testing::saveInto(model_, dir_, "en-zh-transformer.safetensors");
    }

    void infoNamesTheKindAndSizes() {
        const ProcessRun text = attnviz::testing::runCli({"info", path_});
        QVERIFY2(text.code == 0, qPrintable(text.errText()));
        const QString out = QString::fromUtf8(text.out);
        QVERIFY2(out.contains("decoder      transformer, post-LN, activation relu, positions stored table of 32"),
                 qPrintable(out));
        QVERIFY2(out.contains("d_model 8, nhead 2, 2 encoder and 1 decoder layers, dim_feedforward 16"),
                 qPrintable(out));
        QVERIFY(out.contains("transformer.decoder.layers.0.multihead_attn.in_proj_weight"));

        const ProcessRun js = attnviz::testing::runCli({"info", "--json", path_});
        QCOMPARE(js.code, 0);
        const nlohmann::json j = jsonOf(js);
        QCOMPARE(j["config"]["decoder"].get<std::string>(), std::string("transformer"));
        QCOMPARE(j["config"]["num_decoder_layers"].get<int>(), 1);
        QCOMPARE(j["maxlen"].get<int>(), 32);
        QCOMPARE(j["parameter_count"].get<int64_t>(), model_.parameterCount());
    }

    void infoShowsEachSidesSizesWhenTheyDiffer() {
        Model m = model_;
        m.config.transformer.encoder_nhead = 4;
        m.config.transformer.decoder_dim_feedforward = 24;
        for (auto& layer : m.transformer.decoder_layers) {
            layer.ff.linear1_weight.setConstant(24, 8, 0.1f);
            layer.ff.linear1_bias.setZero(24);
            layer.ff.linear2_weight.setConstant(8, 24, 0.1f);
        }
        const QString path = testing::saveInto(m, dir_, "uneven.safetensors");
        const ProcessRun text = attnviz::testing::runCli({"info", path});
        QVERIFY2(text.code == 0, qPrintable(text.errText()));
        QVERIFY2(text.outText().contains("sizes        d_model 8, nhead 4 encoder / 2 decoder, 2 encoder and 1 decoder "
                                         "layers, dim_feedforward 16 encoder / 24 decoder\n"),
                 qPrintable(text.outText()));
        const nlohmann::json j = jsonOf(attnviz::testing::runCli({"info", "--json", path}));
        QCOMPARE(j["config"]["decoder_nhead"].get<int>(), 2);
        QCOMPARE(j["config"]["decoder_dim_feedforward"].get<int>(), 24);
    }

    // The CLI's numbers are the engine's (floats are written so that they read back bit for bit).
    void decodeJsonEqualsTheEngine() {
        const ProcessRun r = attnviz::testing::runCli({"decode", "--model", path_, "--json", "the", "cat", "sat"});
        QVERIFY2(r.code == 0, qPrintable(r.errText()));
        const nlohmann::json j = jsonOf(r);
        const DecodeResult engine = greedyDecode(model_, "the cat sat");
        const DecodeResult printed = decodeFromJson(j);
        QCOMPARE(printed.target_ids, engine.target_ids);
        QCOMPARE(printed.attention, engine.attention);
        QCOMPARE(printed.log_probs, engine.log_probs);
        const size_t T = engine.target_ids.size();
        QCOMPARE(j["cross_attention"].size(), size_t(1));
        QCOMPARE(j["cross_attention"][0].size(), size_t(2));
        QCOMPARE(j["cross_attention"][0][1].size(), T);
        QCOMPARE(j["cross_attention"][0][1][0].size(), size_t(5));
        QCOMPARE(j["encoder_self_attention"].size(), size_t(2));
        QCOMPARE(j["decoder_self_attention"][0][0].size(), T);
        QVERIFY(printed.cross_attention[0][1] == engine.cross_attention[0][1]);
        QVERIFY(printed.encoder_self_attention[1][0] == engine.encoder_self_attention[1][0]);
        QVERIFY(printed.decoder_self_attention[0][1] == engine.decoder_self_attention[0][1]);

        const ProcessRun beam =
            attnviz::testing::runCli({"decode", "--model", path_, "--json", "--beam", "1", "the", "cat", "sat"});
        QCOMPARE(beam.code, 0);
        QCOMPARE(beam.out, r.out);
    }

    // --hypothesis N: the N-th entry of the tree's n-best list, its attention rows the tree's rows at its nodes, and
    // its layers and heads those of the engine's hypothesisDecode in this process.
    void hypothesisOfTheBeamSearch() {
        const QString tree = dir_.filePath("tree.json");
        const ProcessRun r = attnviz::testing::runCli(
            {"decode", "--model", path_, "--json", "--beam", "4", "--hypothesis", "2", "--tree", tree, "the", "cat"});
        QVERIFY2(r.code == 0, qPrintable(r.errText()));
        const nlohmann::json j = jsonOf(r);
        QFile file(tree);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const nlohmann::json t = nlohmann::json::parse(file.readAll().constData());
        QCOMPARE(j["target_ids"], t["nbest"][1]["token_ids"]);
        QVERIFY(j["target_ids"] != t["nbest"][0]["token_ids"]);
        std::vector<int> path;
        for (int n = t["nbest"][1]["node"].get<int>(); n > 0; n = t["nodes"][size_t(n)]["parent"].get<int>())
            path.insert(path.begin(), n);
        QCOMPARE(j["attention"].size(), path.size());
        for (size_t i = 0; i < path.size(); ++i)
            QCOMPARE(j["attention"][i], t["rows"][t["nodes"][size_t(path[i])]["row"].get<size_t>()]);
        const BeamResult b = beamSearch(model_, "the cat", 4);
        const DecodeResult engine = hypothesisDecode(model_, b, b.finished[1]);
        const DecodeResult printed = decodeFromJson(j);
        QVERIFY(printed.cross_attention[0][1] == engine.cross_attention[0][1]);
        QVERIFY(printed.decoder_self_attention[0][0] == engine.decoder_self_attention[0][0]);
        // The text form says which; more hypotheses than found, or no --beam: errors.
        const ProcessRun text =
            attnviz::testing::runCli({"decode", "--model", path_, "--beam", "4", "--hypothesis", "2", "the", "cat"});
        QVERIFY(text.out.contains("beam search, width 4, hypothesis 2"));
        const ProcessRun many =
            attnviz::testing::runCli({"decode", "--model", path_, "--beam", "2", "--hypothesis", "9", "the", "cat"});
        QCOMPARE(many.code, 1);
        QVERIFY2(many.errText().contains("finished only"), qPrintable(many.errText()));
        const ProcessRun alone = attnviz::testing::runCli({"decode", "--model", path_, "--hypothesis", "2", "the"});
        QCOMPARE(alone.code, 2);
    }

    void forcedDecodeAndTable() {
        const ProcessRun r =
            attnviz::testing::runCli({"decode", "--model", path_, "--json", "--target", "猫 坐", "the", "cat"});
        QVERIFY2(r.code == 0, qPrintable(r.errText()));
        const DecodeResult printed = decodeFromJson(jsonOf(r));
        const DecodeResult engine = forcedDecode(model_, "the cat", "猫 坐");
        QCOMPARE(printed.target_ids, engine.target_ids);
        QCOMPARE(printed.log_probs, engine.log_probs);
        QCOMPARE(int(printed.target_ids.size()), 3);  // 猫 坐 <eos>

        const ProcessRun table = attnviz::testing::runCli({"decode", "--model", path_, "the", "cat"});
        QCOMPARE(table.code, 0);
        QVERIFY(QString::fromUtf8(table.out).contains("decoding greedy"));
    }

    void sourceBeyondTheTableIsAnInputError() {
        QStringList words;
        for (int i = 0; i < 40; ++i) words << "cat";
        const ProcessRun r = attnviz::testing::runCli(QStringList{"decode", "--model", path_} + words);
        QCOMPARE(r.code, 1);
        QVERIFY2(r.errText().contains("positional table (maxlen 32"), qPrintable(r.errText()));
    }

    void renderDrawsTheAttentionHeatmap() {
        const QString png = dir_.filePath("t.png");
        const ProcessRun r = attnviz::testing::runCli(
            {"render", "--model", path_, "--out", png, "--width", "320", "--height", "240", "the", "cat", "sat"});
        QVERIFY2(r.code == 0, qPrintable(r.errText()));
        QFile f(png);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readAll().startsWith("\x89PNG\r\n\x1a\n"));

        const QString js = dir_.filePath("t.json");
        QCOMPARE(attnviz::testing::runCli({"render", "--model", path_, "--out", js, "the", "cat", "sat"}).code, 0);
        QFile jf(js);
        QVERIFY(jf.open(QIODevice::ReadOnly));
        const nlohmann::json j = nlohmann::json::parse(jf.readAll().constData());
        QCOMPARE(decodeFromJson(j).attention, greedyDecode(model_, "the cat sat").attention);
        QVERIFY(j.contains("cross_attention"));
    }
};

ATTNVIZ_TEST_MAIN(TestCliTransformer)
#include "test_cli_transformer.moc"
