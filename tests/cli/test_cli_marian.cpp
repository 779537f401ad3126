// attnviz-cli on Hugging Face Marian folders (docs/marian.md): info names the family, languages, sizes (each side's
// heads and feed-forward width when they differ), forbidden ids and weights; decode --merge shows words whose columns
// are the sums and rows the means of their pieces'; train on a Marian config writes a folder that opens again, with
// the <pad> row at 0, refuses bad sizes and an occupied --out, and a failed write leaves no folder; training goes on
// from a folder (--init), which stays a folder.
#include "io/safetensors.h"
#include "marian_folders.h"
#include "process_run.h"
#include "test_registry.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <filesystem>
#include <fstream>

using namespace attnviz;
using namespace attnviz::testing;

namespace {

QJsonObject outputObject(const ProcessRun& r) { return QJsonDocument::fromJson(r.out).object(); }

double at(const QJsonObject& o, const char* key, int i, int j) { return o[key].toArray()[i].toArray()[j].toDouble(); }

// source<TAB>target lines: the same generated sentence on both sides, reversed on the target.
void writeCorpus(const std::string& path, int lines) {
    std::ofstream out(path);
    for (const std::string& line : marianTestLines(lines)) {
        std::string reversed(line.rbegin(), line.rend());
        out << line << '\t' << reversed << '\n';
    }
}

constexpr const char* kMarianConfig =
    R"({"model_type": "marian", "d_model": 16, "encoder_layers": 1, "decoder_layers": 1, "encoder_attention_heads": 2,)"
    R"( "decoder_attention_heads": 2, "encoder_ffn_dim": 32, "decoder_ffn_dim": 32, "activation_function": "swish"})";

}  // namespace

class TestCliMarian : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString path(const char* name) const { return dir_.filePath(name); }

private slots:
    void infoNamesFamilyLanguagesForbiddenIdsAndWeights() {
        const MarianFolder f = makeMarianFolder(path("info").toStdString());
        const ProcessRun text = runCli({"info", path("info")});
        QCOMPARE(text.code, 0);
        for (const char* line : {"family       marian", "languages    en → xx", "weights      model.safetensors (F32)",
                                 "forbidden    " /* the pad */})
            QVERIFY2(text.outText().contains(QString::fromUtf8(line)), qPrintable(text.outText()));
        const ProcessRun j = runCli({"info", "--json", path("info") + "/config.json"});
        QCOMPARE(j.code, 0);
        QCOMPARE(outputObject(j)["family"].toString(), QString("marian"));
        QCOMPARE(outputObject(j)["forbidden_ids"].toArray(), QJsonArray({f.vocab - 1}));
        QCOMPARE(outputObject(j)["source_vocab_size"].toInt(), f.vocab);
    }

    void infoAndDecodeShowEachSidesHeads() {
        MarianFolderOptions o;
        o.heads = 4, o.ffn = 64, o.decoder_heads = 2, o.decoder_ffn = 96;
        makeMarianFolder(path("sides").toStdString(), o);
        const ProcessRun text = runCli({"info", path("sides")});
        QCOMPARE(text.code, 0);
        QVERIFY2(
            text.outText().contains("sizes        d_model 16, 4 encoder / 2 decoder heads, 2 encoder and 2 decoder "
                                    "layers, ffn 64 encoder / 96 decoder\n"),
            qPrintable(text.outText()));
        const ProcessRun decoded = runCli({"decode", "--model", path("sides"), "--json", "the old bridge"});
        QCOMPARE(decoded.code, 0);
        const QJsonObject j = outputObject(decoded);
        QCOMPARE(j["cross_attention"].toArray()[1].toArray().size(), 2);
        QCOMPARE(j["decoder_self_attention"].toArray()[1].toArray().size(), 2);
        QCOMPARE(j["encoder_self_attention"].toArray()[1].toArray().size(), 4);
    }

    void mergedWordsSumColumnsAndAverageRows() {
        makeMarianFolder(path("merge").toStdString());
        const QString sentence = "the bright morning market";
        const ProcessRun pieces =
            runCli({"decode", "--model", path("merge"), "--json", "--target", "the old bridge", sentence});
        const ProcessRun words = runCli(
            {"decode", "--model", path("merge"), "--json", "--merge", "both", "--target", "the old bridge", sentence});
        QCOMPARE(pieces.code, 0);
        QCOMPARE(words.code, 0);
        const QJsonObject p = outputObject(pieces), w = outputObject(words);
        const QJsonArray src = p["source_words"].toArray(), tgt = p["target_words"].toArray();
        QCOMPARE(w["source_tokens"].toArray().size(), src.size());
        QCOMPARE(w["target_tokens"].toArray().size(), tgt.size());
        for (int r = 0; r < tgt.size(); ++r)
            for (int c = 0; c < src.size(); ++c) {
                const int r0 = tgt[r].toArray()[0].toInt(), r1 = tgt[r].toArray()[1].toInt();
                const int c0 = src[c].toArray()[0].toInt(), c1 = src[c].toArray()[1].toInt();
                double sum = 0;
                for (int i = r0; i < r1; ++i)
                    for (int j = c0; j < c1; ++j) sum += at(p, "attention", i, j);
                QVERIFY(std::abs(at(w, "attention", r, c) - sum / (r1 - r0)) < 1e-5);
            }
        QVERIFY(!w["source_tokens"].toArray()[0].toString().contains(QString::fromUtf8("▁")));
        QCOMPARE(w["text"].toString(), p["text"].toString());
        const ProcessRun bad = runCli({"decode", "--model", path("merge"), "--merge", "sideways", sentence});
        QCOMPARE(bad.code, 2);
        QVERIFY(bad.errText().contains("--merge"));
    }

    void explanationsAreMergedOnTheSameSpans() {
        makeMarianFolder(path("explain").toStdString());
        const QStringList args{"explain",  "--model",        path("explain"),
                               "--json",   "--method",       "grad_input",
                               "--target", "the old bridge", "the bright morning market"};
        const ProcessRun pieces = runCli(args), words = runCli(args + QStringList{"--merge", "source"});
        QCOMPARE(pieces.code, 0);
        QCOMPARE(words.code, 0);
        const QJsonObject p = outputObject(pieces), w = outputObject(words);
        const QJsonArray src = p["source_words"].toArray();
        const QJsonArray rp = p["explanations"].toObject()["grad_input"].toArray();
        const QJsonArray rw = w["explanations"].toObject()["grad_input"].toArray();
        QCOMPARE(rw.size(), rp.size());  // the target stays in pieces
        for (int t = 0; t < rp.size(); ++t) {
            QCOMPARE(rw[t].toArray().size(), src.size());
            for (int c = 0; c < src.size(); ++c) {
                double sum = 0;
                for (int j = src[c].toArray()[0].toInt(); j < src[c].toArray()[1].toInt(); ++j)
                    sum += rp[t].toArray()[j].toDouble();
                QVERIFY(std::abs(rw[t].toArray()[c].toDouble() - sum) < 1e-5 * (1 + std::abs(sum)));
            }
        }
    }

    void trainWritesAFolderThatOpensAgain() {
        writeCorpus(path("train.tsv").toStdString(), 300);
        std::ofstream(path("marian.json").toStdString()) << kMarianConfig;
        const QStringList base{"train", "--config", path("marian.json"), "--data", path("train.tsv"), "--steps",
                               "20",    "--quiet",  "--source-lang",     "en",     "--target-lang",   "xx"};
        const ProcessRun run = runCli(base + QStringList{"--spm-vocab", "50", "--out", path("trained")});
        QCOMPARE(run.code, 0);
        for (const char* file : {"config.json", "generation_config.json", "tokenizer_config.json", "vocab.json",
                                 "source.spm", "target.spm", "model.safetensors"})
            QVERIFY2(std::filesystem::exists(path("trained").toStdString() + "/" + file), file);
        const ProcessRun decode = runCli({"decode", "--model", path("trained"), "--json", "the cat sat"});
        QCOMPARE(decode.code, 0);
        QCOMPARE(outputObject(decode)["model"].toObject()["family"].toString(), QString("marian"));
        // the <pad> row (the decoder's first input) and its logits bias stay exactly 0
        const std::vector<uint8_t> bytes = safetensors::readFile(path("trained").toStdString() + "/model.safetensors");
        const safetensors::Header h = safetensors::parseFile(bytes.data(), bytes.size(), "model.safetensors");
        for (const safetensors::TensorInfo& t : h.tensors) {
            if (t.name != "model.shared.weight" && t.name != "final_logits_bias") continue;
            std::vector<float> v(size_t(t.numel));
            safetensors::toFloat(t, bytes.data() + h.dataStart(), v.data());
            const int64_t width = t.shape[1], pad = t.numel / width - 1;
            if (t.name == "final_logits_bias") {
                QCOMPARE(v[size_t(t.numel - 1)], 0.0f);
            } else {
                for (int64_t k = 0; k < width; ++k) QCOMPARE(v[size_t(pad * width + k)], 0.0f);
                QVERIFY(v[0] != 0.0f);
            }
        }
        // an occupied --out needs --force
        const ProcessRun again = runCli(base + QStringList{"--spm-vocab", "50", "--out", path("trained")});
        QVERIFY(again.code != 0);
        QVERIFY2(again.errText().contains("exists and is not empty (use --force"), qPrintable(again.errText()));
        QCOMPARE(runCli(base + QStringList{"--spm-vocab", "50", "--out", path("trained"), "--force"}).code, 0);
    }

    // 200 lines, each target the same 8 characters and one of its own: at coverage 1 the target's 172 pieces cannot
    // hold its 211 characters; at 0.98 the rarest 2 % (by count) are left to <unk> and the same size trains.
    void aLowerCharacterCoverageLeavesRareCharactersOut() {
        auto rare = [](int i) { return QString(QChar(char16_t(0x4E00 + 7 * i))); };
        {
            std::ofstream out(path("rare.tsv").toStdString());
            for (int i = 0; i < 200; ++i)
                out << "the cat sat on the mat\t"
                    << "猫坐在垫子上了。" << rare(i).toStdString() << '\n';
        }
        std::ofstream(path("m.json").toStdString()) << kMarianConfig;
        const QStringList base{"train",   "--config", path("m.json"), "--data",      path("rare.tsv"),
                               "--steps", "1",        "--quiet",      "--spm-vocab", "14,172"};
        const ProcessRun every = runCli(base + QStringList{"--out", path("every")});
        QCOMPARE(every.code, 1);
        QVERIFY2(every.errText().contains("the target side: a vocabulary of 172 pieces cannot hold the corpus's "
                                          "characters: it needs at least 212"),
                 qPrintable(every.errText()));
        const ProcessRun lower = runCli(base + QStringList{"--character-coverage", "1,0.98", "--out", path("lower")});
        QCOMPARE(lower.code, 0);
        QFile file(path("lower") + "/vocab.json");
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject vocab = QJsonDocument::fromJson(file.readAll()).object();
        int kept = 0;
        for (int i = 0; i < 200; ++i) kept += vocab.contains(rare(i));
        QVERIFY2(kept > 100 && kept < 200, qPrintable(QString::number(kept)));
        for (const char* coverage : {"0.97", "1.01", "x", "1,"}) {
            const ProcessRun r = runCli(base + QStringList{"--character-coverage", coverage, "--out", path("never")});
            QCOMPARE(r.code, 2);
            QVERIFY2(r.errText().contains("--character-coverage: expected a number"), qPrintable(r.errText()));
        }
    }

    // --spm-normalization: the default NFKC (as opus-mt models) turns the target's "，" and "？" into "," and "?"
    // before the pieces are learnt; "identity" on the target keeps them, so the vocabulary has them as pieces. A rule
    // SentencePiece does not have, or a third side, is a usage error and writes nothing.
    void theTargetsNormalizationDecidesWhetherFullWidthPunctuationStays() {
        {
            std::ofstream out(path("punct.tsv").toStdString());
            for (int i = 0; i < 200; ++i)
                out << "the cat sat on the mat, didn't it?\t猫坐在垫子上了，不是吗？\n"
                    << "where is the dog?\t狗在哪儿？\n";
        }
        std::ofstream(path("m.json").toStdString()) << kMarianConfig;
        const QStringList base{"train",   "--config", path("m.json"), "--data",      path("punct.tsv"),
                               "--steps", "1",        "--quiet",      "--spm-vocab", "30,19"};
        auto vocabOf = [&](const QString& folder) {
            QFile file(folder + "/vocab.json");
            if (!file.open(QIODevice::ReadOnly)) return QJsonObject();
            return QJsonDocument::fromJson(file.readAll()).object();
        };
        QCOMPARE(runCli(base + QStringList{"--out", path("nfkc")}).code, 0);
        const QJsonObject nfkc = vocabOf(path("nfkc"));
        QVERIFY(nfkc.contains(QStringLiteral("?")) && !nfkc.contains(QStringLiteral("？")));
        QVERIFY(!nfkc.contains(QStringLiteral("，")));
        QCOMPARE(runCli(base + QStringList{"--spm-normalization", "nmt_nfkc,identity", "--out", path("identity")}).code,
                 0);
        const QJsonObject identity = vocabOf(path("identity"));
        QVERIFY(identity.contains(QStringLiteral("，")) && identity.contains(QStringLiteral("？")));
        for (const char* rule : {"NFKC", "identity,", "nfkc,nfkc,nfkc", "\x1b[31m"}) {
            const ProcessRun r = runCli(base + QStringList{"--spm-normalization", rule, "--out", path("never")});
            QCOMPARE(r.code, 2);
            QVERIFY2(r.errText().contains("--spm-normalization: \"") &&
                         r.errText().contains("is not one of nmt_nfkc, nfkc, nmt_nfkc_cf, nfkc_cf, identity"),
                     qPrintable(r.errText()));
            QVERIFY(!r.errText().contains('\x1b'));
        }
        QVERIFY(!std::filesystem::exists(path("never").toStdString()));
    }

    void badVocabularySizesAreRefused() {
        writeCorpus(path("small.tsv").toStdString(), 300);
        std::ofstream(path("m.json").toStdString()) << kMarianConfig;
        const QStringList base{"train",   "--config", path("m.json"), "--data", path("small.tsv"),
                               "--steps", "2",        "--quiet",      "--out",  path("never")};
        for (const char* size : {"0", "1000000000", "12,x", " 40", "40,", "4000,3000,2"}) {
            const ProcessRun r = runCli(base + QStringList{"--spm-vocab", size});
            QCOMPARE(r.code, 2);
            QVERIFY2(r.errText().contains("--spm-vocab"), qPrintable(r.errText()));
        }
        const ProcessRun big = runCli(base + QStringList{"--spm-vocab", "5000"});
        QCOMPARE(big.code, 1);
        QVERIFY2(big.errText().contains("at most"), qPrintable(big.errText()));
        QVERIFY(!std::filesystem::exists(path("never").toStdString()));
    }

    // A model too large to train is refused before SentencePiece trains (seconds to minutes on a real corpus) and
    // before a weight is allocated: the message is the memory one, not the corpus's (5,000 pieces do not fit it).
    void aTooLargeModelIsRefusedBeforeThePiecesAreTrained() {
        writeCorpus(path("l.tsv").toStdString(), 300);
        std::ofstream(path("large.json").toStdString())
            << R"({"model_type": "marian", "d_model": 2048, "encoder_layers": 6, "decoder_layers": 6,)"
               R"( "encoder_attention_heads": 8, "decoder_attention_heads": 8, "encoder_ffn_dim": 8192,)"
               R"( "decoder_ffn_dim": 8192, "activation_function": "swish"})";
        const ProcessRun r = runCli({"train", "--config", path("large.json"), "--data", path("l.tsv"), "--steps", "2",
                                     "--quiet", "--spm-vocab", "5000", "--out", path("large")});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.errText().contains("training this model needs"), qPrintable(r.errText()));
        QVERIFY2(!r.errText().contains("at most"), qPrintable(r.errText()));
        QVERIFY2(r.errText().contains("use a smaller --spm-vocab"), qPrintable(r.errText()));
        QVERIFY(!std::filesystem::exists(path("large").toStdString()));
    }

    void aFailedWriteLeavesNoFolder() {
        writeCorpus(path("w.tsv").toStdString(), 300);
        std::ofstream(path("w.json").toStdString()) << kMarianConfig;
        const ProcessRun r = runCli({"train", "--config", path("w.json"), "--data", path("w.tsv"), "--steps", "2",
                                     "--quiet", "--spm-vocab", "50", "--out", path("half")},
                                    withEnv("ATTNVIZ_TEST_WRITE_FAULT", "ENOSPC:200"));
        QCOMPARE(r.code, 1);
        QVERIFY2(r.errText().contains("No space left on device"), qPrintable(r.errText()));
        QVERIFY(!std::filesystem::exists(path("half").toStdString()));
        for (const auto& entry : std::filesystem::directory_iterator(dir_.path().toStdString()))
            QVERIFY2(entry.path().filename().string().rfind(".half", 0) != 0, "a temporary folder was left");
    }

    void trainingGoesOnFromAFolder() {
        // --init FOLDER: the folder's pieces, vocabulary and sizes are kept, its weights are the start (so the first
        // validation loss is the folder's own), and the result is a folder again; in place only with --force
        writeCorpus(path("go.tsv").toStdString(), 300);
        writeCorpus(path("go-valid.tsv").toStdString(), 40);
        std::ofstream(path("go.json").toStdString()) << kMarianConfig;
        const QStringList valid{"--valid", path("go-valid.tsv"), "--quiet", "--json", "--seed", "4"};
        const ProcessRun first = runCli(QStringList{"train", "--config", path("go.json"), "--data", path("go.tsv"),
                                                    "--steps", "60", "--spm-vocab", "50", "--out", path("go1")} +
                                        valid);
        QCOMPARE(first.code, 0);
        const ProcessRun eval1 = runCli({"eval", "--model", path("go1"), "--data", path("go-valid.tsv"), "--json"});
        QCOMPARE(eval1.code, 0);
        const ProcessRun more = runCli(QStringList{"train", "--init", path("go1"), "--data", path("go.tsv"), "--steps",
                                                   "60", "--lr", "0.0005", "--out", path("go2")} +
                                       valid);
        QVERIFY2(more.code == 0, more.err.constData());
        const double before = outputObject(first)["valid_loss"].toDouble();
        const double after = outputObject(more)["valid_loss"].toDouble();
        QVERIFY2(after < before, qPrintable(QString("valid loss %1 then %2").arg(before).arg(after)));
        for (const char* file : {"source.spm", "target.spm", "vocab.json"}) {
            const std::string a = path("go1").toStdString() + "/" + file, b = path("go2").toStdString() + "/" + file;
            QVERIFY2(safetensors::readFile(a) == safetensors::readFile(b), file);
        }
        const ProcessRun decode = runCli({"decode", "--model", path("go2"), "--json", "the cat sat"});
        QCOMPARE(decode.code, 0);
        QCOMPARE(outputObject(decode)["model"].toObject()["family"].toString(), QString("marian"));
        // in place: refused without --force (the folder is kept), done with it
        const QStringList in_place{"train",   "--init", path("go2"), "--data", path("go.tsv"),
                                   "--steps", "1",      "--quiet",   "--out",  path("go2")};
        const ProcessRun refused = runCli(in_place);
        QVERIFY2(refused.code == 2 && refused.errText().contains("use --force"), qPrintable(refused.errText()));
        QVERIFY(std::filesystem::exists(path("go2").toStdString() + "/model.safetensors"));
        QCOMPARE(runCli(in_place + QStringList{"--force"}).code, 0);
        QCOMPARE(runCli({"decode", "--model", path("go2"), "the cat sat"}).code, 0);
        // a folder of random weights (a Hugging Face one in form) trains too
        makeMarianFolder(path("hf").toStdString());
        const ProcessRun hf = runCli(
            {"train", "--init", path("hf"), "--data", path("go.tsv"), "--steps", "2", "--quiet", "--out", path("hf2")});
        QVERIFY2(hf.code == 0, hf.err.constData());
    }
};

ATTNVIZ_TEST_MAIN(TestCliMarian)
#include "test_cli_marian.moc"
