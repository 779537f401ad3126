// `attnviz-cli train --config` with a "decoder": "transformer" config: a short run on the reverse task lowers the
// validation loss, writes --warmup and the other options into the training metadata, and the written model decodes
// and evaluates (600 steps learn the task: `eval` finds nearly every token right); guided alignment lowers the AER.
#include "io/model_file.h"
#include "process_run.h"
#include "test_registry.h"
#include "training_fixtures.h"

#include <QElapsedTimer>
#include <QJsonArray>
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

constexpr const char* kConfig = R"({"decoder": "transformer", "d_model": 32, "nhead": 2, "num_encoder_layers": 1, )"
                                R"("num_decoder_layers": 1, "dim_feedforward": 64})";

// `dir`'s cfg.json (kConfig), TRAIN (`lines` lines of the reverse task, drawn with `seed`) and valid.tsv (40 lines,
// seed + 1); `aligned`: with gold links.
void writeTaskFiles(const QTemporaryDir& dir, const QString& train, int lines, int seed, bool aligned = false) {
    std::ofstream(dir.filePath("cfg.json").toStdString()) << kConfig;
    writeReverseTask(dir.filePath(train), lines, seed, aligned);
    writeReverseTask(dir.filePath("valid.tsv"), 40, seed + 1, aligned);
}

// `train` on writeTaskFiles' train.tsv, valid.tsv and cfg.json into OUT, batch 16, rate 0.005 after 20 warm-up
// updates; `more`: the test's own flags.
QStringList trainArgs(const QTemporaryDir& dir, const QString& out, const QStringList& more) {
    return QStringList{"train",
                       "--data",
                       dir.filePath("train.tsv"),
                       "--valid",
                       dir.filePath("valid.tsv"),
                       "--config",
                       dir.filePath("cfg.json"),
                       "--out",
                       out,
                       "--batch-size",
                       "16",
                       "--lr",
                       "0.005",
                       "--warmup",
                       "20"} +
           more;
}

QJsonObject lastJsonObject(const QByteArray& out) {
    return QJsonDocument::fromJson(out.trimmed().split('\n').last()).object();
}

}  // namespace

class TestCliTrainTransformer : public QObject {
    Q_OBJECT

private slots:
    void trainsDecodesAndEvaluates() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        writeTaskFiles(dir, "train.tsv", 400, 21);
        const auto train = [&](const QString& out, const QString& steps, const QString& dropout,
                               const QStringList& extra = {}) {
            return runCli(trainArgs(dir, out,
                                    QStringList{"--steps", steps, "--dropout", dropout, "--seed", "2", "--threads", "2",
                                                "--json", "--quiet"} +
                                        extra),
                          120000);
        };
        const QString first = dir.filePath("first.safetensors"), out = dir.filePath("m.safetensors");
        const ProcessRun r1 = train(first, "1", "0.1", {"--label-smoothing", "0.1", "--lr-decay", "inverse_sqrt"});
        QVERIFY2(r1.code == 0, r1.err.constData());
        const ProcessRun r = train(out, "600", "0");
        QVERIFY2(r.code == 0, r.err.constData());
        const double loss1 = lastJsonObject(r1.out)["valid_loss"].toDouble();
        const double loss = lastJsonObject(r.out)["valid_loss"].toDouble();
        QVERIFY2(loss < 0.2 * loss1,
                 qPrintable(QString("valid loss %1 after 1 step, %2 after 600").arg(loss1).arg(loss)));

        const Model m = loadModel(out.toStdString());
        QVERIFY(m.config.isTransformer());
        QCOMPARE(m.config.transformer.d_model, 32);
        const QJsonObject t = QJsonDocument::fromJson(QByteArray::fromStdString(m.training)).object();
        QCOMPARE(t["warmup"].toInt(), 20);
        QCOMPARE(t["steps"].toInt(), 600);
        QCOMPARE(t["lr"].toDouble(), 0.005);
        const QJsonObject t1 =
            QJsonDocument::fromJson(QByteArray::fromStdString(loadModel(first.toStdString()).training)).object();
        QCOMPARE(t1["dropout"].toDouble(), 0.1);
        QCOMPARE(t1["warmup"].toInt(), 20);
        QCOMPARE(t1["label_smoothing"].toDouble(), 0.1);
        QCOMPARE(t1["lr_decay"].toString(), QString("inverse_sqrt"));
        QVERIFY(!t.contains("label_smoothing") && !t.contains("lr_decay"));  // written only when used
        for (const QStringList& bad : {QStringList{"--label-smoothing", "1"}, QStringList{"--label-smoothing", "-0.1"},
                                       QStringList{"--lr-decay", "cosine"}}) {
            const ProcessRun refused = train(dir.filePath("never.safetensors"), "1", "0", bad);
            QVERIFY2(refused.code == 2 && refused.err.contains(bad[0].toUtf8()), refused.err.constData());
            QVERIFY(!QFile::exists(dir.filePath("never.safetensors")));
        }
        QCOMPARE(t["status"].toString(), QString("completed"));

        const ProcessRun d = runCli({"decode", "--model", out, "--json", "a", "b", "c", "d", "e"}, 30000);
        QVERIFY2(d.code == 0, d.err.constData());
        const QJsonArray tokens = lastJsonObject(d.out)["target_tokens"].toArray();
        QStringList words;
        for (const QJsonValue& v : tokens) words << v.toString();
        QCOMPARE(words.join(' '), QString("e d c b a <eos>"));

        const ProcessRun e = runCli({"eval", "--model", out, "--data", dir.filePath("valid.tsv"), "--json"}, 30000);
        QVERIFY2(e.code == 0, e.err.constData());
        QVERIFY2(lastJsonObject(e.out)["token_accuracy"].toDouble() > 0.9, e.out.constData());
    }

    void checkpointLeavesTheBestModelOfAKilledRun() {
        // --checkpoint: killed (SIGKILL, no chance to write) after its second validation, the run has left the model
        // of its best validation loss so far in --out, whole, its metadata saying so; without --valid it is refused
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        writeTaskFiles(dir, "train.tsv", 400, 31);
        const QString out = dir.filePath("m.safetensors");
        QStringList args = trainArgs(dir, out, {"--epochs", "1000", "--threads", "1", "--checkpoint"});
        QProcess p;
        p.start(QStringLiteral(ATTNVIZ_CLI_PATH), args);
        QVERIFY(p.waitForStarted(30000));
        QByteArray err;
        QElapsedTimer clock;
        clock.start();
        while (err.count("wrote the best model so far") < 2 && clock.elapsed() < 120000) {
            p.waitForReadyRead(100);
            err += p.readAllStandardError();
        }
        ::kill(pid_t(p.processId()), SIGKILL);
        QVERIFY(p.waitForFinished(30000));
        err += p.readAllStandardError();
        QVERIFY2(err.count("wrote the best model so far") >= 2, err.constData());
        // the valid losses of the epochs, and that of the last checkpoint announced ("…, valid loss X) to OUT")
        QList<double> epochs;
        double announced = 0;
        for (const QByteArray& line : err.split('\n')) {
            const int at = line.indexOf("valid loss ");
            if (at < 0) continue;
            const double loss = line.mid(at + 11, 6).toDouble();
            if (line.startsWith("epoch ")) epochs << loss;
            if (line.contains("wrote the best model so far")) announced = loss;
        }
        // the file is whole and holds a checkpoint at least as good as the last one announced (the kill may land
        // after a later one was written), one of the validated models
        const Model m = loadModel(out.toStdString());
        const QJsonObject t = QJsonDocument::fromJson(QByteArray::fromStdString(m.training)).object();
        QCOMPARE(t["status"].toString(), QString("interrupted"));
        const double recorded = t["valid_loss"].toDouble();
        QVERIFY2(recorded <= announced + 1e-4,
                 qPrintable(QString("%1 recorded, %2 announced").arg(recorded).arg(announced)));
        QVERIFY(std::any_of(epochs.begin(), epochs.end(), [&](double e) { return std::abs(e - recorded) < 1e-4; }));
        QVERIFY(t["steps"].toInt() > 0);

        args.removeAt(args.indexOf("--valid") + 1);
        args.removeAt(args.indexOf("--valid"));
        const ProcessRun refused = runCli(args, 30000);
        QVERIFY2(refused.code == 2 && refused.errText().contains("--checkpoint needs --valid"),
                 qPrintable(refused.errText()));
    }

    void guidedAlignmentLowersTheAer() {
        // --align-weight supervises the averaged cross-attention (docs/transformer.md): the same short run with and
        // without it, then `eval`'s AER against the held-out gold links; the weight is recorded in the metadata
        // and the alignment loss reported.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        writeTaskFiles(dir, "aligned.tsv", 300, 23, true);
        double aer[2] = {0, 0};
        for (int guided = 0; guided < 2; ++guided) {
            const QString out = dir.filePath(QString("m%1.safetensors").arg(guided));
            const ProcessRun r = runCli({"train",
                                         "--data",
                                         dir.filePath("aligned.tsv"),
                                         "--config",
                                         dir.filePath("cfg.json"),
                                         "--out",
                                         out,
                                         "--steps",
                                         "400",
                                         "--batch-size",
                                         "16",
                                         "--lr",
                                         "0.005",
                                         "--warmup",
                                         "10",
                                         "--seed",
                                         "3",
                                         "--align-weight",
                                         guided ? "1" : "0",
                                         "--json",
                                         "--quiet"},
                                        120000);
            QVERIFY2(r.code == 0, r.err.constData());
            QCOMPARE(lastJsonObject(r.out).contains("train_align_loss"), bool(guided));
            const QJsonObject t =
                QJsonDocument::fromJson(QByteArray::fromStdString(loadModel(out.toStdString()).training)).object();
            QCOMPARE(t["align_weight"].toDouble(), double(guided));
            const ProcessRun e = runCli({"eval", "--model", out, "--data", dir.filePath("valid.tsv"), "--json"}, 30000);
            QVERIFY2(e.code == 0, e.err.constData());
            aer[guided] = lastJsonObject(e.out)["aer"].toDouble(-1);
        }
        QVERIFY2(aer[1] >= 0 && aer[1] < 0.15 && aer[1] < 0.7 * aer[0],  // 0.08 and 0.21 when written
                 qPrintable(QString("AER unguided %1, guided %2").arg(aer[0]).arg(aer[1])));
    }
};

ATTNVIZ_TEST_MAIN(TestCliTrainTransformer)
#include "test_cli_train_transformer.moc"
