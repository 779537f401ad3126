// The window's training and `attnviz-cli train` start a run through one core function (train/training_start.h):
// the same oversized Transformer is refused by both, before it is allocated, with the parameter count transformer.md's
// tensor table gives; and the window, like the CLI, says when a continued model does not know the data's words.
#include "process_run.h"
#include "test_files.h"
#include "test_registry.h"
#include "training_fixtures.h"

#include "base/errors.h"
#include "io/model_file.h"
#include "model/config.h"
#include "training/training_form.h"
#include "training/training_job.h"
#include "training/training_window.h"

#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace attnviz;
using namespace attnviz::ui;

namespace {

// d_model 2048, 8 heads, 2 + 2 layers, F 8192: about 0.9 GiB of weights, which validateConfig accepts, and a
// training state (weights, gradients, Adam's moments, the previous weights) past the 4 GiB limit.
ModelConfig oversizedTransformer() {
    ModelConfig c;
    c.decoder = DecoderKind::Transformer;
    c.score = ScoreKind::ScaledDot;
    c.transformer = {2048, 8, 2, 2, 8192, true, Activation::Relu};
    return c;
}

// The parameter count by docs/transformer.md's tensor table, written out here independently of the engine's list.
int64_t transformerParametersBySpec(int64_t d, int64_t F, int64_t layers_e, int64_t layers_d, int64_t V_s,
                                    int64_t V_t) {
    const int64_t attention = 3 * d * d + 3 * d + d * d + d;  // in_proj weight and bias, out_proj weight and bias
    const int64_t feed_forward = F * d + F + d * F + d;       // linear1, linear2
    const int64_t encoder_layer = attention + feed_forward + 2 * 2 * d;
    const int64_t decoder_layer = 2 * attention + feed_forward + 3 * 2 * d;
    return V_s * d + V_t * d + layers_e * encoder_layer + 2 * d + layers_d * decoder_layer + 2 * d + V_t * d + V_t;
}

}  // namespace

class TestTrainingStart : public QObject {
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }
    void windowAndCliRefuseTheSameOversizedTransformer();
    void windowWarnsWhenTheDataIsMostlyUnknownToTheStartingModel();

private:
    QTemporaryDir dir_;
};

void TestTrainingStart::windowAndCliRefuseTheSameOversizedTransformer() {
    const QString corpus = dir_.filePath("big.tsv");
    attnviz::testing::writeFile(corpus, "a b c\tx y z\nb c a\ty z x\n");
    // 3 words + the four specials on each side.
    const int64_t parameters = transformerParametersBySpec(2048, 8192, 2, 2, 7, 7);
    // Both front ends word core's facts the same way (TrainingTooLarge::sizesText), then add their own advice.
    const QString count =
        QStringLiteral(" with d_model 2048, dim_feedforward 8192, 2 + 2 layers make %1 parameters").arg(parameters);

    TrainingSettings s;
    s.corpus = corpus;
    s.config = oversizedTransformer();
    s.options.optimizer = OptimizerKind::Adam;
    s.options.threads = 1;
    QString window_error;
    try {
        prepareTrainingJob(s);
    } catch (const InputError& e) {
        window_error = QString::fromStdString(e.what());
    }
    QVERIFY2(window_error.startsWith(QStringLiteral("training this model needs ")) && window_error.contains(count),
             qPrintable(window_error));

    const QString config = dir_.filePath("big.json");
    attnviz::testing::writeFile(config, QByteArray::fromStdString(configToJson(s.config).dump()));
    const QString out = dir_.filePath("big.safetensors");
    const auto run = attnviz::testing::runCli({"train", "--config", config, "--data", corpus, "--out", out,
                                               "--optimizer", "adam", "--threads", "1", "--epochs", "1"});
    QCOMPARE(run.code, 1);
    QVERIFY2(run.errText().contains(QStringLiteral("training this model needs ")) && run.errText().contains(count),
             qPrintable(run.errText()));
    QVERIFY(!QFile::exists(out));
}

void TestTrainingStart::windowWarnsWhenTheDataIsMostlyUnknownToTheStartingModel() {
    const QString init = dir_.filePath("reverse.safetensors");
    saveModel(attnviz::testing::reverseModel(5), init.toStdString());
    const QString corpus = dir_.filePath("other.tsv");
    // Source: 2 of 3 words unknown to a..j; target: every word unknown.
    QByteArray lines;
    for (int i = 0; i < 16; ++i) lines += "a foo bar\tqq rr ss\n";
    attnviz::testing::writeFile(corpus, lines);

    TrainingWindow w;
    TrainingSettings s;
    s.corpus = corpus;
    s.init = init;
    s.options.batch_size = 8;
    s.options.epochs = 1;
    s.options.threads = 1;
    s.out = dir_.filePath("continued.safetensors");
    QSignalSpy done(&w, &TrainingWindow::trainingFinished);
    w.form()->applySettings(s);
    QVERIFY2(w.start(), qPrintable(w.lastError()));
    const QString shown = w.statusLabel()->text();
    QVERIFY(done.wait(60000));
    QVERIFY2(shown.contains(QStringLiteral("67% of the source tokens and 100% of the target tokens are unknown")),
             qPrintable(shown));
}

ATTNVIZ_TEST_MAIN(TestTrainingStart)
#include "test_training_start.moc"
