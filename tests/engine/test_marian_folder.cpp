// Hugging Face Marian folders (docs/marian.md) made by the tests: the folder loads into the configured Transformer
// and decodes as the spec's maths says (against the independent double reference, every layer and head); every
// weights form gives the same model; pieces are grouped into words; bad folders get messages naming the file and
// what is wrong; a Hugging Face cache laid out with symbolic links into blobs/ opens.
#include "base/errors.h"
#include "decode/decoding.h"
#include "error_of.h"
#include "io/model_file.h"
#include "marian_folders.h"
#include "model/model.h"
#include "reference_transformer.h"
#include "test_registry.h"
#include "text/tokenizer.h"

#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <fstream>

using namespace attnviz;
using attnviz::testing::errorOf;
namespace fs = std::filesystem;

namespace {

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}
void spit(const std::string& path, const std::string& text) {
    fs::remove(path);
    std::ofstream(path, std::ios::binary) << text;
}

bool sameParams(const Model& m, const testing::MarianFolder& f) {
    bool same = true;
    const TransformerShape shape{f.config, f.vocab, f.vocab, 0};
    std::vector<const float*> expected;
    forEachTransformerTensor(f.params, shape, [&](const std::string&, const std::vector<int64_t>&, const auto& t) {
        expected.push_back(t.data());
    });
    size_t i = 0;
    forEachTransformerTensor(m.transformer, shape, [&](const std::string&, const std::vector<int64_t>&, const auto& t) {
        for (Eigen::Index k = 0; k < t.size(); ++k) same = same && t.data()[k] == expected[i][k];
        ++i;
    });
    return same;
}

}  // namespace

class TestMarianFolder : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::string folder(const char* name) const { return (fs::path(dir_.path().toStdString()) / name).string(); }

private slots:
    void aFolderLoadsAsTheConfiguredTransformer() {
        const testing::MarianFolder f = testing::makeMarianFolder(folder("plain"));
        const Model m = loadModel(f.path);
        QVERIFY(m.marian.has_value());
        QCOMPARE(m.config.transformer, f.config);
        QCOMPARE(m.source_vocab.size(), f.vocab);
        QCOMPARE(m.target_vocab.specials().pad, f.vocab - 1);
        QCOMPARE(m.target_vocab.specials().eos, 0);
        QCOMPARE(m.target_vocab.specials().start, f.vocab - 1);
        QCOMPARE(m.source_vocab.specials().sos, -1);
        QVERIFY(sameParams(m, f));
        QCOMPARE(m.marian->source_lang, std::string("en"));
        QCOMPARE(m.marian->weights_file, std::string("model.safetensors"));
        // its config.json names the folder too
        QVERIFY(loadModel(f.path + "/config.json").config == m.config);
    }

    void greedyDecodingIsTheSpecsMathsOnEveryLayerAndHead() {
        const testing::MarianFolder f = testing::makeMarianFolder(folder("maths"));
        const Model m = loadModel(f.path);
        const TokenizedText src = tokenizeSource(m, "the cat sat on the old bridge");
        QCOMPARE(src.ids.back(), 0);                     // </s> appended
        QVERIFY(src.tokens.front().rfind("▁", 0) == 0);  // no <sos>: the first piece starts a word
        DecodeOptions o;
        o.max_len = 8;
        const DecodeResult r = greedyDecode(m, src, o);
        const TransformerParamsT<double> p = castTransformerParams<double>(m.transformer, m.transformerShape());
        testing::RefIds ids{f.vocab - 1, 0, {f.vocab - 1}};
        const auto ref = testing::referenceTransformerGreedy(f.config, p, src.ids, 8, {}, ids);
        QCOMPARE(r.target_ids, ref.tokens);
        const testing::RefTransformerDecoding& last = ref.steps.back();
        for (size_t t = 0; t < r.target_ids.size(); ++t) {
            QVERIFY(std::abs(r.log_probs[t] - last.log_probs(Eigen::Index(t), r.target_ids[t])) < 2e-4);
            for (int l = 0; l < f.config.num_decoder_layers; ++l)
                for (int h = 0; h < f.config.decoder_nhead; ++h)
                    for (size_t s = 0; s < src.ids.size(); ++s)
                        QVERIFY(std::abs(r.cross_attention[l][h](Eigen::Index(t), Eigen::Index(s)) -
                                         last.cross[l][h](Eigen::Index(t), Eigen::Index(s))) < 2e-5);
        }
        // the pad (the decoder start) is never a candidate, whatever its logit
        Model boosted = m;
        boosted.transformer.generator_bias[f.vocab - 1] = 1000.0f;
        o.top_k = f.vocab;
        DecodingSession session(std::make_shared<const Model>(boosted), src, o);
        QVERIFY(session.forward());
        QCOMPARE(int(session.steps()[0].top_k.size()), f.vocab - 1);
        for (const Candidate& c : session.steps()[0].top_k) QVERIFY(c.id != f.vocab - 1);
        QVERIFY(session.steps()[0].token != f.vocab - 1);
    }

    void everyWeightsFormGivesTheSameModel() {
        for (const char* dtype : {"F16", "BF16"}) {
            testing::MarianFolderOptions o;
            o.dtype = dtype;
            const testing::MarianFolder f = testing::makeMarianFolder(folder(dtype), o);
            QVERIFY2(sameParams(loadModel(f.path), f), dtype);
        }
        for (const char* name : {"model.encoder.embed_tokens.weight", "model.decoder.embed_tokens.weight"}) {
            testing::MarianFolderOptions o;
            o.table_name = name;
            o.write_lm_head = true;
            const testing::MarianFolder f = testing::makeMarianFolder(folder("tied"), o);
            QVERIFY2(sameParams(loadModel(f.path), f), name);
        }
        testing::MarianFolderOptions o;
        o.write_logits_bias = false;  // zeros when absent
        const testing::MarianFolder f = testing::makeMarianFolder(folder("nobias"), o);
        QVERIFY(sameParams(loadModel(f.path), f));
    }

    void piecesAreGroupedIntoWordsAndTheTranslationIsText() {
        const testing::MarianFolder f = testing::makeMarianFolder(folder("words"));
        const Model m = loadModel(f.path);
        const DecodeResult r = forcedDecode(m, "the cat sat", "the market");
        QVERIFY(!r.source_words.empty());
        QCOMPARE(r.source_words.front().first, 0);
        QCOMPARE(r.source_words.back().end, int(r.source_tokens.size()));
        QCOMPARE(r.source_words.back().end - r.source_words.back().first, 1);  // </s> is a word of its own
        QCOMPARE(r.text, std::string("the market"));
    }

    void badFoldersAreNamed() {
        const testing::MarianFolder f = testing::makeMarianFolder(folder("bad"));
        const std::string config = slurp(f.path + "/config.json"), vocab = slurp(f.path + "/vocab.json");
        auto expect = [&](const char* what, const QString& needle) {
            const QString e = errorOf([&] { loadModel(f.path); });
            QVERIFY2(e.contains(needle), qPrintable(QString(what) + ": " + e));
        };
        nlohmann::json c = nlohmann::json::parse(config);
        c["encoder_layers"] = 1000000000;
        spit(f.path + "/config.json", c.dump());
        expect("layers", "\"encoder_layers\" = 1000000000 is out of range");
        c = nlohmann::json::parse(config);
        c["encoder_attention_heads"] = c["decoder_attention_heads"] = 3;
        spit(f.path + "/config.json", c.dump());
        expect("heads", "does not divide d_model");
        c = nlohmann::json::parse(config);
        c["model_type"] = "bart";
        spit(f.path + "/config.json", c.dump());
        expect("type", "model_type \"bart\" is not \"marian\"");
        spit(f.path + "/config.json", config);

        nlohmann::json v = nlohmann::json::parse(vocab);
        v["▁cat"] = 100000;
        spit(f.path + "/vocab.json", v.dump());
        expect("range", "has id 100000, outside");
        v = nlohmann::json::parse(vocab);
        v["</s>"] = 1;
        spit(f.path + "/vocab.json", v.dump());
        expect("duplicate", "id 1 is given to both");
        spit(f.path + "/vocab.json", vocab);

        spit(f.path + "/source.spm", "not a sentencepiece model");
        expect("spm", "source.spm: not a SentencePiece model");
        spit(f.path + "/source.spm", slurp(f.path + "/target.spm"));

        testing::rewriteMarianWeights(f.path,
                                      [](testing::TensorTable& t) { t.erase("model.decoder.layers.0.fc1.bias"); });
        expect("missing", "missing tensor \"model.decoder.layers.0.fc1.bias\"");
        testing::rewriteMarianWeights(f.path, [](testing::TensorTable& t) {
            t["model.decoder.layers.0.fc1.bias"] = {{5}, std::vector<float>(5, 0.0f)};
        });
        expect("shape", "tensor \"model.decoder.layers.0.fc1.bias\" has shape [5]");
        testing::rewriteMarianWeights(f.path, [](testing::TensorTable& t) {
            t["model.decoder.layers.0.fc1.bias"] = {{32}, std::vector<float>(32, 0.0f)};
            t["model.extra.weight"] = {{1}, {0.0f}};
        });
        expect("unknown", "unexpected tensor \"model.extra.weight\"");
        fs::remove(f.path + "/model.safetensors");
        expect("none", "no weights (expected model.safetensors or pytorch_model.bin)");
    }

    void aSymlinkLoopIsNamed() {
        const std::string loop = folder("loop");
        fs::create_symlink(loop, loop);
        const QString e = errorOf([&] { loadModel(loop); });
        QVERIFY2(e.contains("symbolic link loop") || e.contains("Too many levels"), qPrintable(e));
    }

    void aHubCacheSnapshotOfLinksIntoBlobsOpens() {
        // models--ORG--NAME/blobs/<hash> files, snapshots/<rev>/<file> symbolic links to ../../blobs/<hash>
        const testing::MarianFolder f = testing::makeMarianFolder(folder("source"));
        const fs::path repo = fs::path(folder("hub")) / "models--Helsinki-NLP--opus-mt-en-xx";
        const fs::path snapshot = repo / "snapshots" / "0123abcd";
        fs::create_directories(repo / "blobs");
        fs::create_directories(snapshot);
        int n = 0;
        for (const auto& entry : fs::directory_iterator(f.path)) {
            const std::string blob = "blob" + std::to_string(n++);
            fs::copy_file(entry.path(), repo / "blobs" / blob);
            fs::create_symlink(fs::path("../../blobs") / blob, snapshot / entry.path().filename());
        }
        const Model m = loadModel(snapshot.string());
        QCOMPARE(m.marian->repository, std::string("Helsinki-NLP/opus-mt-en-xx"));
        QVERIFY(sameParams(m, f));
    }
};

ATTNVIZ_TEST_MAIN(TestMarianFolder)
#include "test_marian_folder.moc"
