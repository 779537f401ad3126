// The training window with the Transformer kind (docs/transformer.md), driven as a user would: the form's
// Transformer rows give the ModelConfig and TrainOptions typed into them (the RNN rows hidden), an nhead that does not
// divide d_model keeps Start off with core's message under the field, and a tiny Transformer trained through the
// window's job and worker writes a model file that loads as the Transformer kind, whose snapshots are the engine's
// decodes (checked by another route: core trains the same run without the window, and the decode's `attention` is
// recomputed here as the mean over the last layer's heads), and whose settings are offered again next session.
#include "main_window_fixture.h"
#include "test_files.h"
#include "training_fixtures.h"

#include "heatmap/heatmap_view.h"
#include "io/corpus.h"
#include "io/model_file.h"
#include "test_registry.h"
#include "train/corpus_training.h"
#include "training/training_form.h"
#include "training/training_window.h"
#include "training/transformer_fields.h"
#include "training_window_fixture.h"
#include "window/language.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>
#include <nlohmann/json.hpp>

using namespace attnviz;
using attnviz::testing::kProbe;
using attnviz::testing::trainedByCore;
using namespace attnviz::ui;
using attnviz::testing::writeReverseTask;

namespace {

// Types `value` into a spin box as a user does: select all, type, Enter.
void typeInto(QAbstractSpinBox* box, const QString& value) {
    box->setFocus();
    box->selectAll();
    QTest::keyClicks(box, value);
    QTest::keyClick(box, Qt::Key_Return);
}

void choose(QComboBox* box, const QString& data) {
    const int index = box->findData(data);
    QVERIFY2(index >= 0, qPrintable(data));
    box->setCurrentIndex(index);
}

// 120 lines of the reverse task in batches of 8 (15 updates an epoch), a Transformer small enough to train in well
// under a second: d_model 16, 2 heads, 1 + 1 layers, F 32, pre-LN, gelu, 5 warm-up updates.
TrainingSettings tinyTransformer(const QString& dir, int epochs) {
    TrainingSettings s;
    s.corpus = dir + "/train.tsv";
    s.valid = dir + "/valid.tsv";
    s.task = QStringLiteral("reverse");
    s.config.decoder = DecoderKind::Transformer;
    s.config.score = ScoreKind::ScaledDot;
    s.config.transformer = {16, 2, 1, 1, 32, true, Activation::Gelu};
    s.options.lr = 0.005;
    s.options.warmup = 5;
    s.options.batch_size = 8;
    s.options.epochs = epochs;
    s.options.clip = 1.0;
    s.options.dropout = 0.1f;
    s.options.seed = 3;
    s.options.threads = 2;
    s.snapshot_every = 10;
    s.probe = kProbe;
    s.out = dir + "/out/reverse-transformer.safetensors";
    return s;
}

// Core alone: the same corpus, vocabularies, seeded model and options, `steps` updates, no validation.
}  // namespace

class TestTrainingTransformer : public QObject, attnviz::testing::MainWindowFixture {
    Q_OBJECT
private slots:
    void initTestCase();
    void formGivesTheTypedConfig();
    void nheadNotDividingDisablesStart();
    void tinyTransformerTrainsAndLoads();
    void settingsAreOfferedAgain();

private:
    QTemporaryDir dir_;
};

void TestTrainingTransformer::initTestCase() {
    setUpWindowTests(QStringLiteral("attnviz-test-training-transformer"));
    QVERIFY(dir_.isValid());
    writeReverseTask(dir_.filePath("train.tsv"), 120, 1, true);
    writeReverseTask(dir_.filePath("valid.tsv"), 30, 2, true);
}

// The kind "transformer" shows its rows and hides the RNN ones; what is typed is what settings() returns; the
// schedule becomes the Transformer's (lr 0.001 after 100 warm-up updates) and the four siblings are off.
void TestTrainingTransformer::formGivesTheTypedConfig() {
    TrainingWindow w;
    w.show();
    TrainingForm* f = w.form();
    f->setCorpusFile(dir_.filePath("train.tsv"));
    QVERIFY(f->isRowShown(f->scoreBox()) && !f->isRowShown(f->transformerFields()->dModelBox()));
    choose(f->decoderBox(), QStringLiteral("transformer"));
    TransformerFields* t = f->transformerFields();
    QVERIFY(f->isRowShown(t->dModelBox()) && f->isRowShown(t->nheadBox()) && f->isRowShown(t->activationBox()));
    QVERIFY(!f->isRowShown(f->scoreBox()) && f->isRowShown(f->guidanceBox()));
    QCOMPARE(f->learningRateBox()->value(), 0.001);
    QCOMPARE(f->warmupBox()->value(), 100);
    QVERIFY(!w.siblingsButton()->isEnabled());
    QVERIFY(w.siblingsButton()->toolTip().contains(QStringLiteral("Transformer")));
    QVERIFY(f->outEdit()->text().endsWith(QStringLiteral("-transformer-trained.safetensors")));

    typeInto(t->dModelBox(), QStringLiteral("48"));
    typeInto(t->nheadBox(), QStringLiteral("6"));
    typeInto(t->encoderLayersBox(), QStringLiteral("3"));
    typeInto(t->decoderLayersBox(), QStringLiteral("2"));
    typeInto(t->feedForwardBox(), QStringLiteral("96"));
    t->normBox()->setCurrentIndex(0);  // post-LN
    choose(t->activationBox(), QStringLiteral("gelu"));
    typeInto(f->warmupBox(), QStringLiteral("37"));
    typeInto(f->dropoutBox(), QStringLiteral("0.25"));
    QCOMPARE(f->lrDecayBox()->currentIndex(), 0);  // off unless asked
    QCOMPARE(f->smoothingBox()->value(), 0.0);
    f->lrDecayBox()->setCurrentIndex(1);
    typeInto(f->smoothingBox(), QStringLiteral("0.1"));
    f->guidanceBox()->setValue(2.0);  // guides the last layer's cross-attention averaged over heads

    const TrainingSettings s = f->settings();
    QCOMPARE(int(s.config.decoder), int(DecoderKind::Transformer));
    QCOMPARE(int(s.config.score), int(ScoreKind::ScaledDot));
    const TransformerConfig want{48, 6, 3, 2, 96, false, Activation::Gelu};
    QVERIFY(s.config.transformer == want);
    QCOMPARE(s.options.warmup, int64_t(37));
    QCOMPARE(s.options.dropout, 0.25f);
    QCOMPARE(int(s.options.lr_decay), int(LrDecay::InverseSqrt));
    QCOMPARE(s.options.label_smoothing, 0.1);
    QCOMPARE(s.options.align_weight, 2.0);
    QCOMPARE(s.options.lr, 0.001);
    validateConfig(s.config);  // core accepts what the form made
    QVERIFY(f->problem().isEmpty() && w.startButton()->isEnabled());

    choose(f->decoderBox(), QStringLiteral("bahdanau"));  // back: the RNN rows and schedule, the siblings on
    QVERIFY(f->isRowShown(f->scoreBox()) && !f->isRowShown(t->dModelBox()));
    QCOMPARE(f->learningRateBox()->value(), 0.002);
    QCOMPARE(f->warmupBox()->value(), 0);
    QVERIFY(w.siblingsButton()->isEnabled());
    QVERIFY(!f->settings().config.isTransformer());
}

// nhead 5 with d_model 64: Start off, core's message right under the field; a dividing nhead clears both; an odd
// d_model is refused the same way.
void TestTrainingTransformer::nheadNotDividingDisablesStart() {
    TrainingWindow w;
    w.show();
    TrainingForm* f = w.form();
    f->setCorpusFile(dir_.filePath("train.tsv"));
    choose(f->decoderBox(), QStringLiteral("transformer"));
    TransformerFields* t = f->transformerFields();
    typeInto(t->dModelBox(), QStringLiteral("64"));
    typeInto(t->nheadBox(), QStringLiteral("5"));
    QVERIFY(!w.startButton()->isEnabled());
    QCOMPARE(t->problemLabel()->text(),
             QStringLiteral("Cannot train this Transformer: 5 heads do not divide the model size 64 (each head takes "
                            "d_model / heads numbers)"));
    QVERIFY(f->isRowShown(t->problemLabel()) && t->problemLabel()->isVisible());
    QCOMPARE(w.startButton()->toolTip(), t->problemLabel()->text());
    QCoreApplication::processEvents();  // the layout runs: every row shown keeps its height under the message
    for (QWidget* field : std::initializer_list<QWidget*>{t->dModelBox(), t->nheadBox(), t->feedForwardBox(),
                                                          t->activationBox(), f->dropoutBox(), f->warmupBox()})
        QVERIFY2(field->height() >= field->minimumSizeHint().height(), field->metaObject()->className());
    typeInto(t->nheadBox(), QStringLiteral("8"));
    QVERIFY(w.startButton()->isEnabled());
    QVERIFY(f->problem().isEmpty() && !f->isRowShown(t->problemLabel()));
    typeInto(t->dModelBox(), QStringLiteral("63"));
    QVERIFY(!w.startButton()->isEnabled());
    QVERIFY2(t->problemLabel()->text().contains(QStringLiteral("must be even")), qPrintable(t->problemLabel()->text()));
    // In Chinese, the message follows the language switch: Chinese words around the number, not core's English.
    QVERIFY(setLanguage(QStringLiteral("zh_CN")));
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LanguageChange);
    const QString zh = t->problemLabel()->text();
    QVERIFY2(zh.contains(QStringLiteral("63")) && zh.contains(QChar(0x5076)) && !zh.contains(QStringLiteral("even")),
             qPrintable(zh));  // 偶 (even)
    QCOMPARE(w.startButton()->toolTip(), zh);
    QCOMPARE(w.statusLabel()->text(), QStringLiteral("选择语料和模型设置，然后开始训练。"));  // the window's prompt too
    QVERIFY(setLanguage(QStringLiteral("en")));
    QCoreApplication::sendPostedEvents(nullptr, QEvent::LanguageChange);
    QVERIFY2(t->problemLabel()->text().contains(QStringLiteral("must be even: 63 is odd")),
             qPrintable(t->problemLabel()->text()));
    QCOMPARE(w.statusLabel()->text(), QStringLiteral("Choose a corpus and the model's settings, then start."));
    // Sizes whose weights alone pass core's memory limit.
    typeInto(t->dModelBox(), QStringLiteral("4096"));
    typeInto(t->nheadBox(), QStringLiteral("8"));
    typeInto(t->feedForwardBox(), QStringLiteral("65536"));
    QVERIFY(!w.startButton()->isEnabled());
    QVERIFY2(t->problemLabel()->text().contains(QStringLiteral("GiB for the weights alone; the limit is 4.0 GiB")),
             qPrintable(t->problemLabel()->text()));
    choose(f->decoderBox(), QStringLiteral("luong"));  // the Transformer's sizes no longer apply
    QVERIFY(w.startButton()->isEnabled());
    QVERIFY(!t->problemLabel()->isVisible());
}

// Two epochs (30 updates) of the tiny Transformer through the window: every snapshot is the forced decode by the
// model core trains that many updates, its `attention` the mean of the last layer's heads and the heatmap's; the
// file loads as the Transformer typed, with the warm-up in its training record, and opens in the main window.
void TestTrainingTransformer::tinyTransformerTrainsAndLoads() {
    TrainingWindow w;
    TrainingSettings s = tinyTransformer(dir_.path(), 2);
    s.probe_reference = QStringLiteral("e d c b a");
    w.form()->applySettings(s);
    QVERIFY(w.form()->settings().config == s.config);
    QSignalSpy done(&w, &TrainingWindow::trainingFinished);
    QVERIFY2(w.start(), qPrintable(w.lastError()));
    QVERIFY(done.wait(60000));
    QVERIFY2(w.lastError().isEmpty(), qPrintable(w.lastError()));
    QCOMPARE(int(w.lastReport().status), int(TrainStatus::Completed));
    QCOMPARE(w.lastReport().steps, int64_t(30));

    const auto& snaps = w.history().snapshots;
    QCOMPARE(snaps.size(), size_t(4));  // updates 0, 10, 20, 30
    for (size_t i = 0; i < snaps.size(); ++i) {
        const DecodeResult& got = snaps[i].decode;
        QCOMPARE(snaps[i].progress.step, int64_t(10 * i));
        const DecodeResult want = forcedDecode(trainedByCore(s, int64_t(10 * i)), kProbe.toStdString(), "e d c b a");
        QVERIFY2(got.attention == want.attention, qPrintable(QString("update %1").arg(10 * i)));
        QCOMPARE(got.cross_attention.size(), size_t(1));
        QCOMPARE(got.cross_attention.back().size(), size_t(2));
        for (size_t r = 0; r < got.attention.size(); ++r)
            for (size_t c = 0; c < got.attention[r].size(); ++c) {
                const float mean = (got.cross_attention.back()[0](Eigen::Index(r), Eigen::Index(c)) +
                                    got.cross_attention.back()[1](Eigen::Index(r), Eigen::Index(c))) /
                                   2;
                QVERIFY(std::abs(got.attention[r][c] - mean) <= 1e-6f);
            }
    }
    QVERIFY(snaps.front().decode.attention != snaps.back().decode.attention);  // it learnt
    w.showSnapshot(3);
    QVERIFY(w.heatmap()->data().weights == snaps.back().decode.attention);
    QCOMPARE(w.history().metrics.size(), size_t(2));  // BLEU and AER after each epoch

    const Model saved = loadModel(w.modelPath().toStdString());
    QVERIFY(saved.config.isTransformer());
    QVERIFY(saved.config.transformer == s.config.transformer);
    const auto meta = nlohmann::json::parse(saved.training);
    QCOMPARE(meta.at("warmup").get<int64_t>(), int64_t(5));
    QCOMPARE(meta.at("steps").get<int64_t>(), int64_t(30));

    openWindow();
    QVERIFY(w_->openModel(w.modelPath()));
    QVERIFY(w_->model() && w_->model()->config.isTransformer());
    closeWindow();
}

// A started run's settings come back in the training window of the next session's main window.
void TestTrainingTransformer::settingsAreOfferedAgain() {
    openWindow();  // cleared settings
    TrainingSettings s = tinyTransformer(dir_.path(), 1);
    s.config.transformer = {24, 3, 2, 1, 40, false, Activation::Relu};
    s.options.warmup = 7;
    s.options.lr_decay = LrDecay::InverseSqrt;
    s.options.label_smoothing = 0.15;
    {
        TrainingWindow w;
        w.form()->applySettings(s);
        QSignalSpy done(&w, &TrainingWindow::trainingFinished);
        QVERIFY2(w.start(), qPrintable(w.lastError()));
        QVERIFY(done.wait(60000));
    }
    TrainingWindow* t = w_->showTrainingWindow();
    const TrainingSettings back = t->form()->settings();
    QVERIFY(back.config == s.config);
    QCOMPARE(back.options.warmup, int64_t(7));
    QCOMPARE(int(back.options.lr_decay), int(LrDecay::InverseSqrt));
    QCOMPARE(back.options.label_smoothing, 0.15);
    // and the run recorded them in the model it wrote
    const auto training = nlohmann::json::parse(loadModel(s.out.toStdString()).training);
    QCOMPARE(training.at("lr_decay").get<std::string>(), std::string("inverse_sqrt"));
    QCOMPARE(training.at("label_smoothing").get<double>(), 0.15);
    QCOMPARE(back.options.lr, s.options.lr);
    QCOMPARE(back.out, s.out);
    closeWindow();
}

ATTNVIZ_TEST_MAIN(TestTrainingTransformer)
#include "test_training_transformer.moc"
