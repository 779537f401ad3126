// The real-corpus path end to end, small enough for CI: sample_models/corpora/tatoeba.py splits the shipped Tatoeba
// corpus, attnviz-cli trains a tiny word -> char model on the first lines of the training split, and the model must
// have learnt (the loss falls, and decoding its own training lines beats the same model after one epoch) and decode
// a sentence into Chinese characters with attention rows that are distributions.
#include "process_run.h"
#include "test_registry.h"

#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>

using nlohmann::json;

namespace {

constexpr int kTrainLines = 300;  // training lines taken from the head of the split
constexpr int kEpochs = 12;       // a few seconds on one core

using Run = attnviz::testing::ProcessRun;

Run run(const QString& program, const QStringList& args) { return attnviz::testing::runProcess(program, args, 120000); }

json lastJsonLine(const QByteArray& out) {
    const QList<QByteArray> lines = out.trimmed().split('\n');
    return json::parse(lines.last().toStdString());
}

}  // namespace

class TestTatoebaConvergence : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void lossFallsAndTheModelDecodes();

private:
    json train(int epochs, const QString& out);
    json eval(const QString& model);

    QTemporaryDir dir_;
    QString data_, config_;
};

void TestTatoebaConvergence::initTestCase() {
    QVERIFY(dir_.isValid());
    const QString python = QStandardPaths::findExecutable(QStringLiteral("python3"));
    QVERIFY2(!python.isEmpty(), "python3 is needed to split the corpus");
    const Run split = run(python, {QStringLiteral(ATTNVIZ_SOURCE_DIR "/sample_models/corpora/tatoeba.py"),
                                   QStringLiteral("--out"), dir_.path()});
    QVERIFY2(split.code == 0, split.err.constData());
    QVERIFY2(split.err.contains("cmn.txt.xz:29156: empty line, skipped"), split.err.constData());

    QFile train(dir_.filePath(QStringLiteral("tatoeba/train.tsv")));
    QVERIFY(train.open(QIODevice::ReadOnly));
    QByteArray head;
    for (int i = 0; i < kTrainLines && !train.atEnd(); ++i) head += train.readLine();
    QCOMPARE(head.count('\n'), kTrainLines);
    data_ = dir_.filePath(QStringLiteral("head.tsv"));
    QFile out(data_);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(head);
    out.close();

    // The tokenizers of the Tatoeba sample models (configs/tatoeba-*.json), at a size that trains in seconds.
    config_ = dir_.filePath(QStringLiteral("tiny.json"));
    QFile config(config_);
    QVERIFY(config.open(QIODevice::WriteOnly));
    config.write(R"({"decoder": "bahdanau", "score": "additive", "emb_dim": 32, "enc_hid_dim": 32, "dec_hid_dim": 64,
                     "tokenizer": {"source": "word", "target": "char", "lowercase": true}})");
}

json TestTatoebaConvergence::train(int epochs, const QString& out) {
    const Run r = attnviz::testing::runCli({"train",
                                            "--config",
                                            config_,
                                            "--data",
                                            data_,
                                            "--out",
                                            out,
                                            "--epochs",
                                            QString::number(epochs),
                                            "--batch-size",
                                            "16",
                                            "--lr",
                                            "0.01",
                                            "--clip",
                                            "1.0",
                                            "--seed",
                                            "1",
                                            "--threads",
                                            "1",
                                            "--quiet",
                                            "--json"});
    if (r.code != 0) return json{{"error", r.err.toStdString()}};
    return lastJsonLine(r.out);
}

json TestTatoebaConvergence::eval(const QString& model) {
    const Run r = attnviz::testing::runCli({"eval", "--model", model, "--data", data_, "--threads", "1", "--json"});
    if (r.code != 0) return json{{"error", r.err.toStdString()}};
    return lastJsonLine(r.out);
}

void TestTatoebaConvergence::lossFallsAndTheModelDecodes() {
    const QString early = dir_.filePath(QStringLiteral("early.safetensors"));
    const QString late = dir_.filePath(QStringLiteral("late.safetensors"));
    const json first = train(1, early);
    const json last = train(kEpochs, late);
    QVERIFY2(!first.contains("error"), first.dump().c_str());
    QVERIFY2(!last.contains("error"), last.dump().c_str());
    QCOMPARE(last["examples"].get<int>(), kTrainLines);
    // A model that guesses uniformly pays ln(V) per token; after one epoch it is near that, after kEpochs far below.
    const double uniform = std::log(last["target_vocab_size"].get<double>());
    const double loss1 = first["train_loss"].get<double>(), lossN = last["train_loss"].get<double>();
    QVERIFY2(loss1 > 0.5 * uniform, qPrintable(QString("epoch 1: %1, ln V %2").arg(loss1).arg(uniform)));
    QVERIFY2(lossN < 0.25 * loss1, qPrintable(QString("loss %1 after 1 epoch, %2 at the end").arg(loss1).arg(lossN)));

    // Greedy decoding of its own training lines: the trained model reproduces far more of the references.
    const json e1 = eval(early), eN = eval(late);
    QVERIFY2(!e1.contains("error") && !eN.contains("error"), (e1.dump() + eN.dump()).c_str());
    const double acc1 = e1["token_accuracy"].get<double>(), accN = eN["token_accuracy"].get<double>();
    QVERIFY2(accN > acc1 + 0.4,
             qPrintable(QString("token accuracy %1 after 1 epoch, %2 at the end").arg(acc1).arg(accN)));

    // A typed sentence: words and punctuation split and lowercased, Chinese out one character a token.
    const Run d = attnviz::testing::runCli({"decode", "--model", late, "--json", "I'm happy."});
    QVERIFY2(d.code == 0, d.err.constData());
    const json j = json::parse(d.out.toStdString());
    const auto source = j["source_tokens"].get<std::vector<std::string>>();
    QCOMPARE(source.size(), size_t(7));  // <sos> i ' m happy . <eos> (unknown words keep their spelling)
    QCOMPARE(source[1], std::string("i"));
    QCOMPARE(source[2], std::string("'"));
    const auto target = j["target_tokens"].get<std::vector<std::string>>();
    QVERIFY(target.size() >= 2);
    QCOMPARE(target.back(), std::string("<eos>"));
    for (size_t t = 0; t + 1 < target.size(); ++t)
        QVERIFY2(QString::fromStdString(target[t]).toUcs4().size() == 1, target[t].c_str());
    QCOMPARE(j["attention"].size(), target.size());
    for (const json& row : j["attention"]) {
        QCOMPARE(row.size(), source.size());
        double sum = 0;
        for (const json& a : row) sum += a.get<double>();
        QVERIFY(std::abs(sum - 1.0) < 1e-5);
    }
}

ATTNVIZ_TEST_MAIN(TestTatoebaConvergence)
#include "test_tatoeba_convergence.moc"
