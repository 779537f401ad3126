// `attnviz-cli train` refuses, before allocating the model, a training whose weights, gradients and optimizer state
// would pass 4 GiB (docs/robustness.md). The size comes from the config AND the vocabularies built from the data
// after --min-freq: the same config is refused on a corpus of 20,000 distinct words and accepted when --min-freq
// leaves a handful. The refusal runs with an address-space limit below the size a model would need, so a check that
// came after the allocation would end in "out of memory" instead.
#include "model/params.h"
#include "process_run.h"
#include "test_registry.h"
#include "train/trainer.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace attnviz;

namespace {

constexpr int kDistinct = 20000;  // distinct words on each side, each seen once
constexpr int kEmbDim = 4096;

using Run = attnviz::testing::ProcessRun;

// Runs attnviz-cli with at most `address_space` bytes of virtual memory (none under AddressSanitizer).
Run cliLimited(const QStringList& args, rlim_t address_space) {
    attnviz::testing::RunOptions limited;
    limited.address_space_bytes = address_space;
    limited.timeout_ms = 120000;
    return attnviz::testing::runCli(args, limited);
}

QString gib(uint64_t bytes) { return QString::number(double(bytes) / double(uint64_t(1) << 30), 'f', 1) + " GiB"; }

}  // namespace

class TestCliTrainMemory : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void vocabularyTooBigIsRefused();
    void minFreqMakesItFit();

private:
    QTemporaryDir dir_;
    QString data_, config_;
    ModelConfig config_values_;
};

void TestCliTrainMemory::initTestCase() {
    QVERIFY(dir_.isValid());
    // Every line: two common words and one of its own on each side.
    QByteArray tsv;
    for (int i = 0; i < kDistinct; ++i)
        tsv += "the cat w" + QByteArray::number(i) + "\tle chat m" + QByteArray::number(i) + "\n";
    data_ = dir_.filePath("distinct.tsv");
    QFile d(data_);
    QVERIFY(d.open(QIODevice::WriteOnly));
    d.write(tsv);
    d.close();
    config_ = dir_.filePath("wide.json");
    QFile c(config_);
    QVERIFY(c.open(QIODevice::WriteOnly));
    c.write(R"({"decoder": "bahdanau", "score": "additive", "emb_dim": 4096, "enc_hid_dim": 16, "dec_hid_dim": 16})");
    c.close();
    config_values_.emb_dim = kEmbDim;
    config_values_.enc_hid_dim = 16;
    config_values_.dec_hid_dim = 16;
}

void TestCliTrainMemory::vocabularyTooBigIsRefused() {
    const Run r = cliLimited({"train", "--config", config_, "--data", data_, "--out",
                              dir_.filePath("never.safetensors"), "--threads", "1", "--steps", "1"},
                             rlim_t(2) << 30);
    QCOMPARE(r.code, 1);
    const QString err = QString::fromUtf8(r.err);
    // The vocabularies: the four specials, the two common words and the 20,000 words of their own.
    const int vocab = 4 + 2 + kDistinct;
    // The weights (docs/model-format.md): the embeddings (V x E), the output layer (V x (H_d + 2H_e + E) + V),
    // the GRUs, the attention and the bridge; training keeps them, the gradient, the previous weights and Adam's
    // two moments: 5 copies of float32 with one thread and no validation.
    const int64_t parameters = parameterCount(config_values_, vocab, vocab);
    const int64_t embeddings_and_output = int64_t(vocab) * kEmbDim * 2 + int64_t(vocab) * (16 + 32 + kEmbDim + 1);
    QVERIFY(parameters > embeddings_and_output && parameters < embeddings_and_output + 1'000'000);
    const uint64_t total = 5 * 4 * uint64_t(parameters);
    QVERIFY(total > (uint64_t(4) << 30));
    QVERIFY2(
        err.contains("training this model needs " + gib(total) + " (the limit is 4.0 GiB): vocabularies of " +
                     QString::number(vocab) + " source and " + QString::number(vocab) +
                     " target tokens (after --min-freq 1) with emb_dim 4096, enc_hid_dim 16, dec_hid_dim 16 "
                     "make " +
                     QString::number(parameters) + " parameters: " + gib(4 * uint64_t(parameters)) + " of weights"),
        r.err.constData());
    QVERIFY2(err.contains("use a larger --min-freq"), r.err.constData());
    QVERIFY(!QFile::exists(dir_.filePath("never.safetensors")));
}

void TestCliTrainMemory::minFreqMakesItFit() {
    // Only the common words are seen twice: vocabularies of 6 tokens, a small model that trains.
    const QString out = dir_.filePath("small.safetensors");
    const Run r = cliLimited({"train", "--config", config_, "--data", data_, "--out", out, "--threads", "1", "--steps",
                              "1", "--batch-size", "4", "--min-freq", "2", "--quiet", "--json"},
                             rlim_t(2) << 30);
    QVERIFY2(r.code == 0, r.err.constData());
    const QJsonObject j = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(j.value("source_vocab_size").toInt(), 6);
    QCOMPARE(j.value("target_vocab_size").toInt(), 6);
    QVERIFY(QFile::exists(out));
}

ATTNVIZ_TEST_MAIN(TestCliTrainMemory)
#include "test_cli_train_memory.moc"
