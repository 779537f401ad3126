// `attnviz-cli train`: a run writes the model and its metrics (the same seed gives the same model whatever the
// thread count), --align-weight, a non-finite loss leaves the last good model, Ctrl-C writes the model trained so far.
#include "io/model_file.h"
#include "model/params_ops.h"
#include "process_run.h"
#include "test_models.h"
#include "test_registry.h"
#include "training_fixtures.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <csignal>
#include <fstream>

using namespace attnviz;
using namespace attnviz::testing;

namespace {

using Run = ProcessRun;

QString cliPath() { return QString::fromUtf8(ATTNVIZ_CLI_PATH); }

// The folder of one training by the CLI, with how its model starts: from a config (cfg.json, --config) or from an
// initial model (init.safetensors, --init). The test writes the corpus into it.
class TrainFolder {
public:
    explicit TrainFolder(const char* config_json) {
        std::ofstream(path("cfg.json").toStdString()) << config_json;
        start_ = {"--config", path("cfg.json")};
    }
    explicit TrainFolder(const Model& init) { start_ = {"--init", saveInto(init, dir_, "init.safetensors")}; }

    bool valid() const { return dir_.isValid(); }
    QString path(const QString& name) const { return dir_.filePath(name); }
    // train --data DATA --config|--init ... --out OUT, then `extra`.
    QStringList trainArgs(const QString& data, const QString& out, const QStringList& extra = {}) const {
        return QStringList{"train", "--data", data} + start_ + QStringList{"--out", out} + extra;
    }

private:
    QTemporaryDir dir_;
    QStringList start_;
};

}  // namespace

class TestCliTrain : public QObject {
    Q_OBJECT
private slots:
    void cliTrainWritesModelAndMetrics();
    void cliAlignWeight();
    void cliNanLeavesLastGoodModel();
    void cliCtrlCWritesModel();
};

void TestCliTrain::cliTrainWritesModelAndMetrics() {
    const TrainFolder f(R"({"decoder": "luong", "score": "general", "span": "local_p", "window": 2, "input_feeding": )"
                        R"(true, "emb_dim": 8, "enc_hid_dim": 8, "dec_hid_dim": 16})");
    QVERIFY(f.valid());
    writeReverseTask(f.path("train.tsv"), 300, 5);
    writeReverseTask(f.path("valid.tsv"), 40, 6);
    // 25 steps of 16 lines with seed 4 and dropout 0.1, validated on valid.tsv, on `threads` threads
    const auto seeded = [&](const QString& out, int threads, const QStringList& extra) {
        return f.trainArgs(f.path("train.tsv"), out,
                           QStringList{"--valid", f.path("valid.tsv"), "--steps", "25", "--batch-size", "16", "--seed",
                                       "4", "--threads", QString::number(threads), "--dropout", "0.1"} +
                               extra);
    };
    const QString out = f.path("m.safetensors");
    const Run r = runCli(seeded(out, 2, {"--json", "--task", "reverse", "--description", "test"}), 120000);
    QCOMPARE(r.code, 0);
    const QJsonObject j = QJsonDocument::fromJson(r.out.trimmed()).object();
    QCOMPARE(j["status"].toString(), QString("completed"));
    QCOMPARE(j["steps"].toInt(), 25);
    QVERIFY(j["valid_loss"].isDouble() && j["train_loss"].isDouble() && j["tokens_per_second"].toDouble() > 0);
    const Model m = loadModel(out.toStdString());
    QCOMPARE(m.task, std::string("reverse"));
    QCOMPARE(m.description, std::string("test"));
    QCOMPARE(m.source_vocab.size(), 14);
    QVERIFY(m.config.span == SpanKind::LocalP);
    const QJsonObject t = QJsonDocument::fromJson(QByteArray::fromStdString(m.training)).object();
    QCOMPARE(t["data"].toString(), QString("train.tsv"));
    QCOMPARE(t["lines"].toInt(), 300);
    QCOMPARE(t["steps"].toInt(), 25);
    QCOMPARE(t["batch_size"].toInt(), 16);
    QCOMPARE(t["optimizer"].toString(), QString("adam"));
    QCOMPARE(t["seed"].toInt(), 4);
    QVERIFY(t["valid_loss"].isDouble());
    // the same seed gives the same model, whatever the thread count
    const QString out2 = f.path("m2.safetensors");
    QCOMPARE(runCli(seeded(out2, 1, {"--quiet"}), 120000).code, 0);
    Model m2 = loadModel(out2.toStdString());
    double scale = 0;
    QVERIFY(maxAbsDiff(m2.params, m.params, &scale) < 1e-3 * std::max(1.0, scale));
    // an unwritable --out fails before training, naming the path
    const QString bad_out = f.path("no/such/dir/m.safetensors");
    const Run unwritable = runCli(f.trainArgs(f.path("train.tsv"), bad_out, {"--steps", "1000000", "--quiet"}), 30000);
    QCOMPARE(unwritable.code, 1);
    QVERIFY(unwritable.err.contains("no/such/dir/m.safetensors"));
    // bad usage: exit 2, naming the flag
    const Run usage = runCli({"train", "--data", f.path("train.tsv"), "--out", out}, 30000);
    QCOMPARE(usage.code, 2);
    QVERIFY(usage.err.contains("--init"));
}

// --align-weight: recorded in the metadata, the alignment loss reported; usage errors for a negative weight and for
// data without an alignment column.
void TestCliTrain::cliAlignWeight() {
    const TrainFolder f(
        R"({"decoder": "bahdanau", "score": "additive", "emb_dim": 8, "enc_hid_dim": 8, "dec_hid_dim": 16})");
    QVERIFY(f.valid());
    writeReverseTask(f.path("aligned.tsv"), 200, 9, true);
    writeReverseTask(f.path("plain.tsv"), 50, 10);
    const QString out = f.path("m.safetensors");
    const Run r =
        runCli(f.trainArgs(f.path("aligned.tsv"), out,
                           {"--steps", "8", "--batch-size", "16", "--align-weight", "0.5", "--json", "--quiet"}),
               120000);
    QVERIFY2(r.code == 0, r.err.constData());
    const QJsonObject j = QJsonDocument::fromJson(r.out.trimmed()).object();
    QVERIFY(j["train_align_loss"].toDouble() > 0);
    const Model m = loadModel(out.toStdString());
    const QJsonObject t = QJsonDocument::fromJson(QByteArray::fromStdString(m.training)).object();
    QCOMPARE(t["align_weight"].toDouble(), 0.5);
    QVERIFY(t["train_align_loss"].toDouble() > 0);
    // off by default: recorded as 0
    QCOMPARE(runCli(f.trainArgs(f.path("aligned.tsv"), out, {"--steps", "2", "--quiet"}), 120000).code, 0);
    QCOMPARE(QJsonDocument::fromJson(QByteArray::fromStdString(loadModel(out.toStdString()).training))
                 .object()["align_weight"]
                 .toDouble(-1),
             0.0);
    // usage errors: exit 2 naming the flag
    const QStringList bad[] = {
        f.trainArgs(f.path("plain.tsv"), out, {"--align-weight", "1"}),
        f.trainArgs(f.path("aligned.tsv"), out, {"--align-weight", "-0.5"}),
    };
    for (const QStringList& args : bad) {
        const Run e = runCli(args, 30000);
        QCOMPARE(e.code, 2);
        QVERIFY2(e.err.contains("--align-weight"), e.err.constData());
    }
}

void TestCliTrain::cliNanLeavesLastGoodModel() {
    const TrainFolder f(reverseModel(4));
    writeReverseTask(f.path("train.tsv"), 64, 7);
    const QString out = f.path("out.safetensors");
    const Run r =
        runCli(f.trainArgs(f.path("train.tsv"), out,
                           {"--optimizer", "sgd", "--lr", "1e30", "--batch-size", "16", "--epochs", "3", "--quiet"}),
               60000);
    QCOMPARE(r.code, 1);
    QVERIFY2(r.err.contains("NaN") || r.err.contains("infinite") || r.err.contains("non-finite"), r.err.constData());
    QVERIFY2(r.err.contains("last good model"), r.err.constData());
    const Model m = loadModel(out.toStdString());
    QVERIFY(allFinite(m.params));
}

void TestCliTrain::cliCtrlCWritesModel() {
    const Model init = reverseModel(5);
    const TrainFolder f(init);
    writeReverseTask(f.path("train.tsv"), 2000, 8);
    const QString out = f.path("out.safetensors");
    QProcess proc;
    proc.start(cliPath(),
               f.trainArgs(f.path("train.tsv"), out, {"--batch-size", "8", "--epochs", "1000", "--threads", "1"}));
    QVERIFY(proc.waitForStarted());
    // wait for the first progress line (training has started), then Ctrl-C
    QByteArray err;
    for (int i = 0; i < 600 && !err.contains("step"); ++i) {
        proc.waitForReadyRead(100);
        err += proc.readAllStandardError();
    }
    QVERIFY2(err.contains("step"), err.constData());
    ::kill(pid_t(proc.processId()), SIGINT);
    QVERIFY(proc.waitForFinished(60000));
    err += proc.readAllStandardError();
    QCOMPARE(proc.exitStatus(), QProcess::NormalExit);
    QCOMPARE(proc.exitCode(), 1);
    QVERIFY2(err.contains("interrupted"), err.constData());
    const Model m = loadModel(out.toStdString());
    QVERIFY(allFinite(m.params));
    QVERIFY(maxAbsDiff(m.params, init.params) > 0);  // trained, not the initial weights
    QVERIFY(QByteArray::fromStdString(m.training).contains("\"status\":\"interrupted\""));
}

ATTNVIZ_TEST_MAIN(TestCliTrain)
#include "test_cli_train.moc"
