// The "Train a model…" window driven as a user would, on a tiny corpus (the reverse task, tests/support/
// training_fixtures.h) of a few dozen updates. Checked against core by another route (the corpus read, the model
// built and trained by core's functions as `attnviz-cli train` does, without the window): every snapshot's attention
// is the greedy decode of the model trained that many updates, the curves' points are the engine's progress reports,
// a pause and a stop leave a model file that loads and holds the trained parameters, the exports have the expected
// size and numbers.
#include "main_window_fixture.h"
#include "test_files.h"
#include "training_fixtures.h"

#include "eval/corpus_scores.h"
#include "heatmap/heatmap_view.h"
#include "io/corpus.h"
#include "io/model_file.h"
#include "test_registry.h"
#include "train/corpus_training.h"
#include "training/epoch_metrics_table.h"
#include "training/loss_plot.h"
#include "training/training_form.h"
#include "training/training_window.h"
#include "training_window_fixture.h"
#include "views/export_prompt.h"

#include <qcustomplot.h>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QLabel>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>
#include <nlohmann/json.hpp>

using namespace attnviz;
using attnviz::testing::kProbe;
using attnviz::testing::trainedByCore;
using namespace attnviz::ui;
using attnviz::testing::maxAbsDiff;
using attnviz::testing::readFile;
using attnviz::testing::writeReverseTask;

namespace {

// 120 lines in batches of 8: 15 updates an epoch.
TrainingSettings tinySettings(const QString& dir, int epochs) {
    TrainingSettings s;
    s.corpus = dir + "/train.tsv";
    s.valid = dir + "/valid.tsv";
    s.task = QStringLiteral("reverse");
    s.config.emb_dim = 16;
    s.config.enc_hid_dim = 24;
    s.config.dec_hid_dim = 48;
    s.options.lr = 0.01;
    s.options.batch_size = 8;
    s.options.epochs = epochs;
    s.options.clip = 1.0;
    s.options.dropout = 0.1f;
    s.options.seed = 3;
    s.options.threads = 2;
    s.snapshot_every = 5;
    s.probe = kProbe;
    s.out = dir + "/out/reverse.safetensors";
    return s;
}

// Core alone: the corpus read with the tokenizer, the vocabularies and a seeded model, `steps` updates of the same
// options with no callback and no validation (validation changes no parameter, it only picks the returned ones).
}  // namespace

class TestTrainingWindow : public QObject, attnviz::testing::MainWindowFixture {
    Q_OBJECT
private slots:
    void initTestCase();
    void snapshotsAreTheEnginesDecodes();
    void curvesAreTheProgressReports();
    void epochMetricsAreCoresEvaluation();
    void timelineScrubsBack();
    void pauseAndStopKeepTheModel();
    void stopInsideAnEpochNamesTheTablesLastRow();
    void trainedModelsGoToTheProgramsDataFolder();
    void closingStopsAndWrites();
    void exportsHaveTheirSize();
    void continuesFromASavedModel();
    void badSettingsSayWhy();
    void fileMenuOpensTheWindow();
    void sampleCorporaAreListedWithAProbeThatShowsSomething();
    void exportDialogsStartInTheLastExportFolder();

private:
    // Runs `s` in a new window to its end.
    void runToEnd(TrainingWindow& w, const TrainingSettings& s);
    QTemporaryDir dir_;
};

void TestTrainingWindow::initTestCase() {
    setUpWindowTests(QStringLiteral("attnviz-test-training-window"));
    QVERIFY(dir_.isValid());
    writeReverseTask(dir_.filePath("train.tsv"), 120, 1, true);
    writeReverseTask(dir_.filePath("valid.tsv"), 30, 2, true);
    writeReverseTask(dir_.filePath("long.tsv"), 2000, 3);
    writeReverseTask(dir_.filePath("plain.tsv"), 50, 4, false);
}

void TestTrainingWindow::runToEnd(TrainingWindow& w, const TrainingSettings& s) {
    w.form()->applySettings(s);
    QSignalSpy done(&w, &TrainingWindow::trainingFinished);
    QVERIFY2(w.start(), qPrintable(w.lastError()));
    QVERIFY(done.wait(120000));
    QVERIFY2(w.lastError().isEmpty(), qPrintable(w.lastError()));
}

// Snapshots at updates 0, 5, ..., 30; each the greedy decode of the probe by the model core trains that many
// updates, bit for bit; the model file holds the returned (best validated) parameters.
void TestTrainingWindow::snapshotsAreTheEnginesDecodes() {
    TrainingWindow w;
    const TrainingSettings s = tinySettings(dir_.path(), 2);
    runToEnd(w, s);
    QCOMPARE(int(w.lastReport().status), int(TrainStatus::Completed));
    QCOMPARE(w.lastReport().steps, int64_t(30));
    const auto& snaps = w.history().snapshots;
    QCOMPARE(snaps.size(), size_t(7));
    for (size_t i = 0; i < snaps.size(); ++i) {
        QCOMPARE(snaps[i].progress.step, int64_t(5 * i));
        const DecodeResult expected = greedyDecode(trainedByCore(s, int64_t(5 * i)), kProbe.toStdString());
        QCOMPARE(snaps[i].decode.target_ids, expected.target_ids);
        QVERIFY2(snaps[i].decode.attention == expected.attention, qPrintable(QString("update %1").arg(5 * i)));
    }
    QVERIFY(snaps.front().decode.attention != snaps.back().decode.attention);
    const Model saved = loadModel(w.modelPath().toStdString());
    QVERIFY(maxAbsDiff(saved.params, w.trainedModel()->params) == 0);
    const auto meta = nlohmann::json::parse(saved.training);
    QCOMPARE(meta.at("status").get<std::string>(), std::string("completed"));
    QCOMPARE(meta.at("steps").get<int64_t>(), int64_t(30));
    QCOMPARE(meta.at("dropout").get<double>(), 0.1);  // as the form shows it, not the float's 0.10000000149
    QCOMPARE(meta.at("clip").get<double>(), 1.0);
    QCOMPARE(meta.at("optimizer").get<std::string>(), std::string("adam"));
    QCOMPARE(saved.task, std::string("reverse"));
}

// One training point per update, the engine's batch loss; one validation point per epoch.
void TestTrainingWindow::curvesAreTheProgressReports() {
    TrainingWindow w;
    const TrainingSettings s = tinySettings(dir_.path(), 2);
    runToEnd(w, s);
    std::vector<TrainProgress> core_reports;
    trainedByCore(s, 30, &core_reports);
    QCPGraph* train = w.lossPlot()->trainingGraph();
    QCOMPARE(train->dataCount(), 30);
    QCOMPARE(core_reports.size(), size_t(30));
    for (int i = 0; i < 30; ++i) {
        QCOMPARE(train->data()->at(i)->key, double(i + 1));
        QCOMPARE(train->data()->at(i)->value, core_reports[size_t(i)].loss);  // exactly the engine's number
    }
    QCPGraph* valid = w.lossPlot()->validationGraph();
    QCOMPARE(valid->dataCount(), 2);  // after epochs 1 and 2
    int seen = 0;
    for (const TrainProgress& p : w.history().reports) {
        if (!p.after_validation) continue;
        QCOMPARE(valid->data()->at(seen)->key, double(p.step));
        QCOMPARE(valid->data()->at(seen)->value, p.valid_loss);
        ++seen;
    }
    QCOMPARE(w.lastReport().best_valid_loss, std::min(valid->data()->at(0)->value, valid->data()->at(1)->value));
    w.lossPlot()->setLogScale(true);
    QCOMPARE(w.lossPlot()->plot()->yAxis->scaleType(), QCPAxis::stLogarithmic);
}

// After each epoch the validation corpus's BLEU and AER: core's evaluateCorpus of the model core trains as many
// updates, shown in the table and written into the curves CSV; a validation corpus without gold links has no AER.
void TestTrainingWindow::epochMetricsAreCoresEvaluation() {
    TrainingWindow w;
    const TrainingSettings s = tinySettings(dir_.path(), 2);
    runToEnd(w, s);
    const Corpus valid = readCorpus(s.valid.toStdString(), CorpusOptions{true, s.config.tokenizer});
    const auto& metrics = w.history().metrics;
    QCOMPARE(metrics.size(), size_t(2));
    EpochMetricsTable* table = w.metricsTable();
    QCOMPARE(table->rowCount(), 2);
    QString error;
    QVERIFY2(w.exportCurves(dir_.filePath("metrics.csv"), &error), qPrintable(error));
    QFile csv(dir_.filePath("metrics.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = csv.readAll().trimmed().split('\n');
    QVERIFY(lines.front().endsWith("elapsed_seconds,valid_bleu,valid_aer"));
    int csv_rows = 0;
    for (int k = 0; k < 2; ++k) {
        const EpochMetrics& m = metrics[size_t(k)];
        QCOMPARE(m.progress.step, int64_t(15 * (k + 1)));
        const EvalReport want = evaluateCorpus(trainedByCore(s, m.progress.step), valid.examples);
        QCOMPARE(m.report.bleu, want.bleu);
        QVERIFY(m.report.aer && want.aer);
        QCOMPARE(*m.report.aer, *want.aer);
        QCOMPARE(table->item(k, EpochMetricsTable::Update)->text(), QString::number(15 * (k + 1)));
        QCOMPARE(table->item(k, EpochMetricsTable::Bleu)->text(), QString::number(want.bleu, 'f', 2));
        QCOMPARE(table->item(k, EpochMetricsTable::Aer)->text(), QString::number(*want.aer, 'f', 3));
        QCOMPARE(table->item(k, EpochMetricsTable::ValidLoss)->text(), QString::number(m.progress.valid_loss, 'f', 4));
        for (const QByteArray& line : lines) {
            const QList<QByteArray> f = line.split(',');
            if (f.size() != 9 || f[0] != QByteArray::number(m.progress.step) || f[4].isEmpty()) continue;
            QCOMPARE(f[7].toDouble(), want.bleu);  // %.9g
            QVERIFY(std::abs(f[8].toDouble() - *want.aer) < 1e-8);
            ++csv_rows;
        }
    }
    QCOMPARE(csv_rows, 2);
    QVERIFY(metrics[1].report.aer != metrics[0].report.aer);  // the attention moved between the epochs

    TrainingSettings plain = tinySettings(dir_.path(), 1);
    plain.valid = dir_.filePath("plain.tsv");
    TrainingWindow w2;
    runToEnd(w2, plain);
    QCOMPARE(w2.history().metrics.size(), size_t(1));
    QVERIFY(!w2.history().metrics.front().report.aer);
    QCOMPARE(w2.metricsTable()->item(0, EpochMetricsTable::Aer)->text(), QStringLiteral("–"));
}

// With the probe's translation given, every snapshot is the model forced onto it (the same rows each time); the
// slider shows any of them.
void TestTrainingWindow::timelineScrubsBack() {
    TrainingWindow w;
    TrainingSettings s = tinySettings(dir_.path(), 2);
    s.probe_reference = QStringLiteral("e d c b a");
    runToEnd(w, s);
    for (const TrainingSnapshot& snap : w.history().snapshots) {
        const DecodeResult expected =
            forcedDecode(trainedByCore(s, snap.progress.step), kProbe.toStdString(), "e d c b a");
        QCOMPARE(snap.decode.target_tokens, (std::vector<std::string>{"e", "d", "c", "b", "a", "<eos>"}));
        QVERIFY(snap.decode.attention == expected.attention);
    }
    QCOMPARE(w.timeline()->maximum(), 6);
    QCOMPARE(w.timeline()->value(), 6);  // followed the run to its last snapshot
    QCOMPARE(w.heatmap()->data().weights, w.history().snapshots.back().decode.attention);
    w.timeline()->setValue(1);
    QCOMPARE(w.heatmap()->data().weights, w.history().snapshots[1].decode.attention);
    QVERIFY(w.heatmap()->data().weights != w.history().snapshots.back().decode.attention);
}

// Paused after a few snapshots: the file holds the parameters of that update (core trained as many); stopped while
// paused: the run ends there, and the file holds the parameters the run returned, marked "interrupted".
void TestTrainingWindow::pauseAndStopKeepTheModel() {
    TrainingWindow w;
    TrainingSettings s = tinySettings(dir_.path(), 200);  // 3000 updates: far longer than the test
    w.form()->applySettings(s);
    QSignalSpy snapshots(&w, &TrainingWindow::snapshotAdded);
    QSignalSpy paused(&w, &TrainingWindow::paused);
    QSignalSpy done(&w, &TrainingWindow::trainingFinished);
    QVERIFY(w.start());
    QTRY_VERIFY_WITH_TIMEOUT(snapshots.count() >= 3, 60000);
    w.pause();
    QVERIFY(paused.wait(60000));
    QVERIFY(w.isPaused());
    const int64_t step = paused.takeFirst().at(0).toLongLong();
    QVERIFY(step >= 10);
    const Model at_pause = loadModel(w.modelPath().toStdString());
    QVERIFY(maxAbsDiff(at_pause.params, trainedByCore(s, step).params) == 0);
    QCOMPARE(nlohmann::json::parse(at_pause.training).at("steps").get<int64_t>(), step);
    w.stop();
    QVERIFY(done.wait(60000));
    QCOMPARE(int(w.lastReport().status), int(TrainStatus::Cancelled));
    QCOMPARE(w.lastReport().steps, step);
    const Model at_stop = loadModel(w.modelPath().toStdString());
    QVERIFY(maxAbsDiff(at_stop.params, w.trainedModel()->params) == 0);
    QCOMPARE(nlohmann::json::parse(at_stop.training).at("status").get<std::string>(), std::string("interrupted"));
    // The message says which weights were written: with validation data, the best validation loss's update.
    const QString said = w.statusLabel()->text();
    QVERIFY2(said.contains(QStringLiteral("the weights of update %1, the best validation loss (%2)")
                               .arg(w.lastReport().best_step)
                               .arg(w.lastReport().best_valid_loss, 0, 'f', 4)),
             qPrintable(said));
}

// Stopped inside an epoch, core validates where it stopped and keeps those weights when they are its best (here the
// only validation: the stop comes inside the first, 250-update epoch). The epoch table gains that row, marked as part
// of an epoch, and the closing message, the table and the curves name the same update and loss (issue 44: the message
// said "update 301, 0.0031" while the table ended at update 252).
void TestTrainingWindow::stopInsideAnEpochNamesTheTablesLastRow() {
    TrainingWindow w;
    TrainingSettings s = tinySettings(dir_.path(), 2);
    s.corpus = dir_.filePath("long.tsv");  // 2,000 lines in batches of 8: 250 updates an epoch
    w.form()->applySettings(s);
    QSignalSpy paused(&w, &TrainingWindow::paused);
    QSignalSpy done(&w, &TrainingWindow::trainingFinished);
    QVERIFY(w.start());
    // Paused at once, so the run stops inside its first epoch however fast the machine is; the stop then ends the
    // run at a known update.
    w.pause();
    QVERIFY(paused.wait(60000));
    const int64_t step = paused.takeFirst().at(0).toLongLong();
    QVERIFY(step >= 0 && step < 250);
    w.stop();
    QVERIFY(done.wait(60000));
    const TrainReport& report = w.lastReport();
    QCOMPARE(report.best_step, step);
    EpochMetricsTable* table = w.metricsTable();
    QTRY_COMPARE_WITH_TIMEOUT(table->rowCount(), 1, 20000);
    const QString loss = QString::number(report.best_valid_loss, 'f', 4);
    QCOMPARE(table->item(0, EpochMetricsTable::Update)->text(), QString::number(step));
    QCOMPARE(table->item(0, EpochMetricsTable::ValidLoss)->text(), loss);
    QCOMPARE(table->item(0, EpochMetricsTable::Epoch)->text(), QStringLiteral("1 (part)"));
    const QString said = w.statusLabel()->text();
    QVERIFY2(
        said.contains(QStringLiteral("the weights of update %1, the best validation loss (%2)").arg(step).arg(loss)),
        qPrintable(said));
    QCPGraph* valid = w.lossPlot()->validationGraph();
    QCOMPARE(valid->dataCount(), 1);
    QCOMPARE(valid->data()->at(0)->key, double(step));
}

// The default model file is in attnviz's own data folder, .../attnviz/trained/, not in Qt's application data folder,
// which is organisation/application: attnviz/attnviz/trained for the program (issue 44).
void TestTrainingWindow::trainedModelsGoToTheProgramsDataFolder() {
    const QString organisation = QCoreApplication::organizationName(),
                  application = QCoreApplication::applicationName();
    QCoreApplication::setOrganizationName(QStringLiteral("attnviz"));  // as the program names itself (gui_main)
    QCoreApplication::setApplicationName(QStringLiteral("attnviz"));
    const QString path = defaultModelPath(QStringLiteral("dates"), ModelConfig());
    QCoreApplication::setOrganizationName(organisation);
    QCoreApplication::setApplicationName(application);
    const QString data = QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation);
    QCOMPARE(QFileInfo(path).absolutePath(), QDir(data).filePath(QStringLiteral("attnviz/trained")));
    QVERIFY2(!path.contains(QStringLiteral("attnviz/attnviz")), qPrintable(path));
}

void TestTrainingWindow::closingStopsAndWrites() {
    TrainingWindow w;
    TrainingSettings s = tinySettings(dir_.path(), 200);
    s.out = dir_.filePath("closed/reverse.safetensors");
    w.form()->applySettings(s);
    w.show();
    QSignalSpy snapshots(&w, &TrainingWindow::snapshotAdded);
    QVERIFY(w.start());
    QTRY_VERIFY_WITH_TIMEOUT(snapshots.count() >= 2, 60000);
    w.close();
    QVERIFY(!w.isRunning());
    const Model saved = loadModel(s.out.toStdString());
    QVERIFY(maxAbsDiff(saved.params, w.trainedModel()->params) == 0);
}

void TestTrainingWindow::exportsHaveTheirSize() {
    TrainingWindow w;
    runToEnd(w, tinySettings(dir_.path(), 2));
    QString error;
    // 7 snapshots: a 3 x 3 grid of 480 x 400 cells
    QVERIFY2(w.exportFilmstrip(dir_.filePath("film.png"), &error), qPrintable(error));
    const QImage film(dir_.filePath("film.png"));
    QCOMPARE(film.size(), QSize(3 * 480, 3 * 400));
    for (const char* ext : {"svg", "pdf"}) {
        const QString path = dir_.filePath(QStringLiteral("film.%1").arg(QLatin1String(ext)));
        QVERIFY2(w.exportFilmstrip(path, &error), qPrintable(error));
        QVERIFY(QFileInfo(path).size() > 1000);
    }
    QFile svg(dir_.filePath("film.svg"));
    QVERIFY(svg.open(QIODevice::ReadOnly));
    const QByteArray svg_text = svg.readAll();
    QVERIFY(svg_text.contains("update 0") && svg_text.contains("update 30"));
    QVERIFY(!w.exportFilmstrip(dir_.filePath("film.txt"), &error));
    QVERIFY2(error.contains("film.txt"), qPrintable(error));

    QVERIFY2(w.exportCurves(dir_.filePath("loss.csv"), &error), qPrintable(error));
    QFile csv(dir_.filePath("loss.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = csv.readAll().trimmed().split('\n');
    QCOMPARE(lines.size(), int(w.history().reports.size()) + 1);
    QVERIFY(lines.front().startsWith("step,epoch,loss"));
    QVERIFY(lines[1].startsWith("1,1,"));
    QVERIFY2(w.exportCurves(dir_.filePath("loss.png"), &error), qPrintable(error));
    QCOMPARE(QImage(dir_.filePath("loss.png")).size(), QSize(1200, 700));
    // As vector drawings too, with the axis title as text; an unknown format is refused by name and writes nothing.
    QVERIFY2(w.exportCurves(dir_.filePath("loss.svg"), &error), qPrintable(error));
    const QByteArray loss_svg = readFile(dir_.filePath("loss.svg"));
    QVERIFY(loss_svg.contains("<svg") && loss_svg.contains(w.lossPlot()->plot()->xAxis->label().toUtf8()));
    QVERIFY2(w.exportCurves(dir_.filePath("loss.pdf"), &error), qPrintable(error));
    QVERIFY(readFile(dir_.filePath("loss.pdf")).startsWith("%PDF"));
    QVERIFY(!w.exportCurves(dir_.filePath("loss.json"), &error));
    QVERIFY2(error.contains("loss.json"), qPrintable(error));
    QVERIFY(!QFile::exists(dir_.filePath("loss.json")));

    const QString sibling = dir_.filePath("reverse-bahdanau-additive-trained.safetensors");
    QVERIFY(w.siblingPath().endsWith("reverse-bahdanau-additive-trained.safetensors"));
    QVERIFY2(w.saveAsSibling(sibling, &error), qPrintable(error));
    QVERIFY(maxAbsDiff(loadModel(sibling.toStdString()).params, w.trainedModel()->params) == 0);
}

// "Continue from": the run starts from the file's weights and vocabularies (its first snapshot is that model's
// decode) and goes on learning from there.
void TestTrainingWindow::continuesFromASavedModel() {
    TrainingSettings s = tinySettings(dir_.path(), 1);
    s.out = dir_.filePath("first.safetensors");
    {
        TrainingWindow first;
        runToEnd(first, s);
    }
    const Model start = loadModel(s.out.toStdString());
    TrainingWindow w;
    s.init = s.out;
    s.out = dir_.filePath("second.safetensors");
    runToEnd(w, s);
    const auto& snaps = w.history().snapshots;
    QVERIFY(snaps.front().decode.attention == greedyDecode(start, kProbe.toStdString()).attention);
    QCOMPARE(w.trainedModel()->source_vocab.size(), start.source_vocab.size());
    QVERIFY(maxAbsDiff(w.trainedModel()->params, start.params) > 0);
    QCOMPARE(nlohmann::json::parse(loadModel(s.out.toStdString()).training).at("init").get<std::string>(),
             std::string("first.safetensors"));
}

void TestTrainingWindow::badSettingsSayWhy() {
    TrainingWindow w;
    TrainingSettings s = tinySettings(dir_.path(), 1);
    s.corpus = dir_.filePath("missing.tsv");
    w.form()->applySettings(s);
    QVERIFY(!w.start());
    QVERIFY2(w.lastError().contains("missing.tsv"), qPrintable(w.lastError()));
    QVERIFY(w.statusLabel()->text().contains("missing.tsv"));
    s = tinySettings(dir_.path(), 1);
    s.corpus = dir_.filePath("plain.tsv");
    s.options.align_weight = 1;
    w.form()->applySettings(s);
    QVERIFY(!w.start());
    QVERIFY2(w.lastError().contains("gold links"), qPrintable(w.lastError()));
    QVERIFY(!w.isRunning());
}

void TestTrainingWindow::fileMenuOpensTheWindow() {
    openWindow();
    QVERIFY(w_->trainAction());
    w_->trainAction()->trigger();
    TrainingWindow* t = w_->findChild<TrainingWindow*>();
    QVERIFY(t && t->isVisible());
    closeWindow();
}

// Out of the box: the build generates the sample corpora, so the form lists each task once, Tatoeba's included, with
// no folder set by the user; choosing Tatoeba (whose train split starts with "Hi.") suggests a probe of 6 to 8 words
// and its own translation, a line of that split.
void TestTrainingWindow::sampleCorporaAreListedWithAProbeThatShowsSomething() {
    qunsetenv("ATTNVIZ_CORPORA");
    TrainingForm form;
    QStringList tasks;
    for (int i = 0; i < form.corpusBox()->count(); ++i) tasks << form.corpusBox()->itemText(i);
    for (const char* task : {"dates", "en_fr", "en_zh", "tatoeba"}) QCOMPARE(tasks.count(QLatin1String(task)), 1);
    const int tatoeba = form.corpusBox()->findText(QStringLiteral("tatoeba"));
    form.corpusBox()->setCurrentIndex(tatoeba);
    const QString train = form.corpusBox()->itemData(tatoeba).toString();
    QFile file(train);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QString first = QString::fromUtf8(file.readLine()).trimmed();
    QVERIFY2(first.startsWith(QStringLiteral("Hi.\t")), qPrintable(first));  // what the old probe was
    const QString probe = form.probeEdit()->text();
    const qsizetype words = probe.split(QLatin1Char(' '), Qt::SkipEmptyParts).size();
    QVERIFY2(words >= 6 && words <= 8, qPrintable(probe));
    const QString line = probe + QLatin1Char('\t') + form.probeReferenceEdit()->text();
    bool found = false;
    file.seek(0);
    while (!found && !file.atEnd()) found = QString::fromUtf8(file.readLine()).trimmed() == line;
    QVERIFY2(found, qPrintable(line));
}

// The filmstrip, animation and curves dialogs start where the user last exported (from any view), else in Pictures,
// never in the working folder.
void TestTrainingWindow::exportDialogsStartInTheLastExportFolder() {
    QSettings().remove(QStringLiteral("Export/lastPath"));
    TrainingWindow w;
    const QString pictures = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
    QVERIFY(!pictures.isEmpty());
    QCOMPARE(QFileInfo(w.suggestedExportFile(QStringLiteral("filmstrip.png"))).absolutePath(),
             QDir(pictures).absolutePath());
    QVERIFY(QFileInfo(pictures).isDir());
    // An export of the heatmap elsewhere (MainWindow's and the views' dialogs remember it the same way).
    QTemporaryDir slides;
    rememberExport(QDir(slides.path()).filePath(QStringLiteral("attention.svg")));
    QCOMPARE(w.suggestedExportFile(QStringLiteral("training.png")),
             QDir(slides.path()).filePath(QStringLiteral("training.png")));
    // A folder that has gone is not proposed.
    const QString gone = QDir(slides.path()).filePath(QStringLiteral("gone"));
    rememberExport(QDir(gone).filePath(QStringLiteral("x.png")));
    QCOMPARE(QFileInfo(w.suggestedExportFile(QStringLiteral("loss.csv"))).absolutePath(),
             QDir(pictures).absolutePath());
    QVERIFY(QFileInfo(w.suggestedExportFile(QStringLiteral("loss.csv"))).absolutePath() != QDir::currentPath());
}

ATTNVIZ_TEST_MAIN(TestTrainingWindow)
#include "test_training_window.moc"
