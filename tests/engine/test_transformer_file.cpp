// Transformer model files (core/io/model_file.cpp with the tensor list of model/transformer_params.h): save → load
// gives the same bits (with and without a stored positional table, F32 and BF16), the header alone tells the sizes,
// and each kind of bad file gets a message naming what is wrong. Files are written tensor by tensor through
// safetensors::serialize so that a test can drop, reshape or add one.
#include "base/errors.h"
#include "io/model_file.h"
#include "io/safetensors.h"
#include "model/model.h"
#include "test_models.h"
#include "test_registry.h"

#include <QtTest>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstring>
#include <functional>
#include <set>

using namespace attnviz;

namespace {

ModelConfig transformerConfig(int d = 8, int nhead = 2, int enc_layers = 2, int dec_layers = 2, int F = 12) {
    ModelConfig c;
    c.decoder = DecoderKind::Transformer;
    c.score = ScoreKind::ScaledDot;
    c.transformer = {d, nhead, enc_layers, dec_layers, F, false, Activation::Relu};
    c.tokenizer.target = TokenizerKind::Char;
    return c;
}

Model describedTransformer(int maxlen = 0, bool norm_first = false, Activation act = Activation::Relu) {
    ModelConfig c = transformerConfig();
    c.transformer.norm_first = norm_first;
    c.transformer.activation = act;
    Model m =
        makeRandomTransformerModel(c, testing::smallSourceVocab(), testing::smallTargetVocab(), {7, true}, maxlen);
    m.task = "en-zh";
    m.description = "a transformer";
    return m;
}

// What a file is made of, to be edited before it is written.
struct FileParts {
    std::map<std::string, std::string> meta;
    std::vector<std::string> names;
    std::vector<std::vector<int64_t>> shapes;
    std::vector<std::vector<float>> values;
};

FileParts partsOf(Model m) {
    FileParts f;
    f.meta = {{"format", "attnviz.seq2seq"},
              {"format_version", "1"},
              {"config", configToJson(m.config).dump()},
              {"source_vocab", nlohmann::json(m.source_vocab.tokens()).dump()},
              {"target_vocab", nlohmann::json(m.target_vocab.tokens()).dump()}};
    for (const ParamRef& r : paramRefs(m)) {
        f.names.push_back(r.name);
        f.shapes.push_back(r.shape);
        f.values.emplace_back(r.data, r.data + r.size);
    }
    return f;
}

std::vector<uint8_t> bytesOf(const FileParts& f) {
    std::vector<safetensors::TensorView> views;
    for (size_t i = 0; i < f.names.size(); ++i) views.push_back({f.names[i], f.shapes[i], f.values[i].data()});
    return safetensors::serialize(f.meta, views);
}

size_t indexOf(const FileParts& f, const std::string& name) {
    for (size_t i = 0; i < f.names.size(); ++i)
        if (f.names[i] == name) return i;
    throw std::logic_error("no tensor " + name);
}

void setConfigKey(FileParts& f, const std::string& key, const nlohmann::json& value) {
    nlohmann::json c = nlohmann::json::parse(f.meta["config"]);
    if (value.is_null())
        c.erase(key);
    else
        c[key] = value;
    f.meta["config"] = c.dump();
}

QString loadError(const FileParts& f) {
    const std::vector<uint8_t> bytes = bytesOf(f);
    try {
        (void)loadModelFromBytes(bytes.data(), bytes.size(), "bad.safetensors");
    } catch (const ModelError& e) {
        return QString::fromStdString(e.what());
    }
    return QString();
}

// Every tensor of a and b has the same name, shape and bits.
void requireSameTensors(Model a, Model b) {
    const std::vector<ParamRef> ra = paramRefs(a), rb = paramRefs(b);
    QCOMPARE(ra.size(), rb.size());
    for (size_t i = 0; i < ra.size(); ++i) {
        QCOMPARE(ra[i].name, rb[i].name);
        QCOMPARE(ra[i].shape, rb[i].shape);
        QCOMPARE(ra[i].size, rb[i].size);
        QVERIFY2(std::memcmp(ra[i].data, rb[i].data, size_t(ra[i].size) * sizeof(float)) == 0, ra[i].name.c_str());
    }
}

}  // namespace

class TestTransformerFile : public QObject {
    Q_OBJECT
private slots:
    void roundTripKeepsEveryBit_data() {
        QTest::addColumn<int>("maxlen");
        QTest::addColumn<bool>("norm_first");
        QTest::addColumn<bool>("gelu");
        QTest::newRow("post-LN relu, PE computed") << 0 << false << false;
        QTest::newRow("pre-LN gelu, stored table of 40") << 40 << true << true;
    }
    void roundTripKeepsEveryBit() {
        QFETCH(int, maxlen);
        QFETCH(bool, norm_first);
        QFETCH(bool, gelu);
        const Model m = describedTransformer(maxlen, norm_first, gelu ? Activation::Gelu : Activation::Relu);
        QTemporaryDir dir;
        const std::string path = dir.filePath("t.safetensors").toStdString();
        saveModel(m, path);
        const Model back = loadModel(path);
        QVERIFY(back.config == m.config);
        QCOMPARE(back.config.transformer.norm_first, norm_first);
        QVERIFY(back.source_vocab == m.source_vocab);
        QVERIFY(back.target_vocab == m.target_vocab);
        QCOMPARE(back.task, m.task);
        QCOMPARE(back.description, m.description);
        QCOMPARE(int(back.transformer.pos_embedding.rows()), maxlen);
        QVERIFY(back.params.enc_embedding.size() == 0);  // the RNN weights stay empty
        requireSameTensors(m, back);
        QCOMPARE(serializeModel(back), serializeModel(m));
    }

    // The tensors of the file are exactly docs/transformer.md's PyTorch names, in its order.
    void fileHoldsTheSpecsTensorNames() {
        const Model m = describedTransformer(16);
        QTemporaryDir dir;
        const std::string path = dir.filePath("t.safetensors").toStdString();
        saveModel(m, path);
        const ModelHeader h = readModelHeader(path);
        QCOMPARE(h.maxlen, 16);
        QCOMPARE(h.parameterCount(), m.parameterCount());
        std::set<std::string> names;
        for (const TensorEntry& t : h.tensors) names.insert(t.name);
        const int d = 8, F = 12, Vs = m.source_vocab.size(), Vt = m.target_vocab.size();
        // 2 embeddings, 2 encoder layers of 12, the encoder norm's 2, 2 decoder layers of 18, the decoder norm's 2,
        // the generator's 2, the positional table.
        QCOMPARE(int(names.size()), 2 + 2 * 12 + 2 + 2 * 18 + 2 + 2 + 1);
        for (const char* n :
             {"src_tok_emb.embedding.weight", "tgt_tok_emb.embedding.weight",
              "transformer.encoder.layers.1.self_attn.in_proj_weight", "transformer.encoder.layers.0.linear2.bias",
              "transformer.encoder.norm.weight", "transformer.decoder.layers.1.multihead_attn.out_proj.weight",
              "transformer.decoder.layers.0.norm3.bias", "transformer.decoder.norm.bias", "generator.weight",
              "generator.bias", "positional_encoding.pos_embedding"})
            QVERIFY2(names.count(n), n);
        // Sizes counted by hand from docs/transformer.md's table.
        const int64_t attention = 3 * d * d + 3 * d + d * d + d, ff = F * d + F + d * F + d, norm = 2 * d;
        const int64_t expected = int64_t(Vs) * d + int64_t(Vt) * d + 2 * (attention + ff + 2 * norm) + norm +
                                 2 * (2 * attention + ff + 3 * norm) + norm + int64_t(Vt) * d + Vt + 16 * d;
        QCOMPARE(m.parameterCount(), expected);
    }

    // A BF16 file loads to the float32 of each rounded value: decoding it again gives the same bits.
    void bf16FileLoadsWhatItStores() {
        const Model m = describedTransformer();
        const std::vector<uint8_t> once = serializeModel(m, safetensors::DType::BF16);
        const Model back = loadModelFromBytes(once.data(), once.size(), "bf16");
        QCOMPARE(serializeModel(back, safetensors::DType::BF16), once);
        const float a = m.transformer.decoder_layers[1].ff.linear1_weight(3, 5);
        const float b = back.transformer.decoder_layers[1].ff.linear1_weight(3, 5);
        QVERIFY(a != b || a == 0.0f);  // rounded to 8 bits of mantissa
        QVERIFY(std::abs(a - b) <= std::abs(a) / 256);
    }

    void configJsonRoundTrips() {
        ModelConfig c = transformerConfig(16, 4, 1, 3, 20);
        c.transformer.activation = Activation::Gelu;
        c.transformer.norm_first = true;
        const nlohmann::json j = configToJson(c);
        QCOMPARE(j["decoder"].get<std::string>(), std::string("transformer"));
        QVERIFY(!j.contains("emb_dim"));
        QCOMPARE(j["tokenizer"]["target"].get<std::string>(), std::string("char"));
        QVERIFY(configFromJson(j) == c);
    }

    void badFileMessages_data() {
        QTest::addColumn<QString>("what");
        QTest::addColumn<QString>("expected");
        QTest::newRow("missing tensor") << "missing"
                                        << "missing tensor \"transformer.decoder.layers.1.norm3.bias\" (shape [8]";
        QTest::newRow("wrong shape") << "shape"
                                     << "tensor \"transformer.encoder.layers.0.self_attn.in_proj_weight\" has shape "
                                        "[16, 8]; the config needs [24, 8]";
        QTest::newRow("a third layer") << "extra"
                                       << "unexpected tensor \"transformer.encoder.layers.2.norm1.weight\": a model "
                                          "with decoder \"transformer\", d_model 8, nhead 2, 2 encoder and 2 decoder";
        QTest::newRow("nhead") << "nhead"
                               << "config: nhead 3 does not divide d_model 8";
        QTest::newRow("rnn key") << "emb_dim"
                                 << "config: key \"emb_dim\" does not apply to decoder \"transformer\"";
        QTest::newRow("no d_model") << "no d_model"
                                    << "config: missing required key \"d_model\"";
        QTest::newRow("score") << "score"
                               << "score \"additive\" does not apply to decoder \"transformer\"";
        QTest::newRow("table rank") << "table rank"
                                    << "tensor \"positional_encoding.pos_embedding\" has shape [10, 8]; the config "
                                       "needs [maxlen, 1, 8]";
        QTest::newRow("table width") << "table width"
                                     << "tensor \"positional_encoding.pos_embedding\" has shape [10, 1, 6]; the "
                                        "config needs [maxlen, 1, 8]";
        QTest::newRow("table of one row") << "maxlen 1"
                                          << "tensor \"positional_encoding.pos_embedding\" has maxlen 1; a sentence "
                                             "needs at least 2 positions";
        QTest::newRow("NaN") << "nan"
                             << "tensor \"transformer.decoder.layers.0.linear1.weight\" has NaN at index 13 (row 1, "
                                "column 5)";
        QTest::newRow("vocabulary") << "vocab"
                                    << "tensor \"tgt_tok_emb.embedding.weight\" has shape [" +
                                           QString::number(testing::smallTargetVocab().size()) +
                                           ", 8]; the config needs [" +
                                           QString::number(testing::smallTargetVocab().size() + 1) + ", 8]";
    }
    void badFileMessages() {
        QFETCH(QString, what);
        QFETCH(QString, expected);
        FileParts f = partsOf(describedTransformer(10));
        const size_t table = indexOf(f, "positional_encoding.pos_embedding");
        if (what == "missing") {
            const size_t i = indexOf(f, "transformer.decoder.layers.1.norm3.bias");
            f.names.erase(f.names.begin() + long(i));
            f.shapes.erase(f.shapes.begin() + long(i));
            f.values.erase(f.values.begin() + long(i));
        } else if (what == "shape") {
            const size_t i = indexOf(f, "transformer.encoder.layers.0.self_attn.in_proj_weight");
            f.shapes[i] = {16, 8};
            f.values[i].resize(16 * 8);
        } else if (what == "extra") {
            f.names.push_back("transformer.encoder.layers.2.norm1.weight");
            f.shapes.push_back({8});
            f.values.emplace_back(8, 1.0f);
        } else if (what == "nhead") {
            setConfigKey(f, "nhead", 3);
        } else if (what == "emb_dim") {
            setConfigKey(f, "emb_dim", 8);
        } else if (what == "no d_model") {
            setConfigKey(f, "d_model", nullptr);
        } else if (what == "score") {
            setConfigKey(f, "score", "additive");
        } else if (what == "table rank") {
            f.shapes[table] = {10, 8};
        } else if (what == "table width") {
            f.shapes[table] = {10, 1, 6};
            f.values[table].resize(60);
        } else if (what == "maxlen 1") {
            f.shapes[table] = {1, 1, 8};
            f.values[table].resize(8);
        } else if (what == "nan") {
            f.values[indexOf(f, "transformer.decoder.layers.0.linear1.weight")][13] = std::nanf("");
        } else if (what == "vocab") {
            std::vector<std::string> tokens = testing::smallTargetVocab().tokens();
            tokens.push_back("zz");
            f.meta["target_vocab"] = nlohmann::json(tokens).dump();
        }
        const QString message = loadError(f);
        QVERIFY2(message.startsWith("bad.safetensors: "), qPrintable(message));
        QVERIFY2(message.contains(expected), qPrintable(message));
    }

    // A model made in code with the wrong sizes is refused by the writer, not written as a broken file.
    void savingInconsistentWeightsIsRefused() {
        Model m = describedTransformer();
        m.transformer.decoder_layers[0].norm2.bias.resize(5);
        QTemporaryDir dir;
        const std::string path = dir.filePath("t.safetensors").toStdString();
        try {
            saveModel(m, path);
            QFAIL("saved");
        } catch (const ModelError& e) {
            QVERIFY2(QString(e.what()).contains("transformer.decoder.layers.0.norm2.bias"), e.what());
        }
        QVERIFY(!QFile::exists(QString::fromStdString(path)));
    }

    // An RNN model's file is read as before: its Transformer weights stay empty.
    void rnnModelsAreUntouched() {
        const Model m = testing::smallModel(testing::smallConfig(DecoderKind::Luong, ScoreKind::General), 3);
        const std::vector<uint8_t> bytes = serializeModel(m);
        const Model back = loadModelFromBytes(bytes.data(), bytes.size(), "rnn");
        QVERIFY(!back.config.isTransformer());
        QVERIFY(back.transformer.encoder_layers.empty());
        QCOMPARE(serializeModel(back), bytes);
    }
};

ATTNVIZ_TEST_MAIN(TestTransformerFile)
#include "test_transformer_file.moc"
