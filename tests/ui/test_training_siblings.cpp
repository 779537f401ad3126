// "Train four siblings" in the training window (training/sibling_runs.h, training_window_siblings.cpp), on a tiny
// corpus: four files written, each with its scoring and otherwise the same config, vocabularies and training
// settings; the main window then opens the first and the compare view has the second as B and the others among
// its choices. A stop during the second run ends the sequence and keeps the first model.
#include "main_window_fixture.h"
#include "training_fixtures.h"

#include "io/model_file.h"
#include "test_registry.h"
#include "training/sibling_runs.h"
#include "training/training_form.h"
#include "training/training_window.h"
#include "views/compare_view.h"

#include <QComboBox>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>
#include <nlohmann/json.hpp>

using namespace attnviz;
using namespace attnviz::ui;
using attnviz::testing::writeReverseTask;

namespace {

const char* const kScores[] = {"additive", "dot", "scaled_dot", "general"};

// 120 lines in batches of 8: 15 updates an epoch.
TrainingSettings siblingSettings(const QString& dir, int epochs) {
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
    s.options.seed = 3;
    s.options.threads = 2;
    s.snapshot_every = 5;
    s.probe = QStringLiteral("a b c d e");
    return s;
}

// The training metadata without what differs from run to run (the losses).
nlohmann::json settingsOf(const Model& m) {
    nlohmann::json meta = nlohmann::json::parse(m.training);
    for (const char* key : {"train_loss", "valid_loss"}) meta.erase(key);
    return meta;
}

}  // namespace

class TestTrainingSiblings : public QObject, attnviz::testing::MainWindowFixture {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanup() { closeWindow(); }
    void fourSiblingsReachTheCompareView();
    void stopKeepsTheFinishedOnes();
    void settingsThatCannotBeSiblings();

private:
    QTemporaryDir dir_;
};

void TestTrainingSiblings::initTestCase() {
    setUpWindowTests(QStringLiteral("attnviz-test-training-siblings"));
    QVERIFY(dir_.isValid());
    writeReverseTask(dir_.filePath("train.tsv"), 120, 1, true);
    writeReverseTask(dir_.filePath("valid.tsv"), 30, 2, true);
}

void TestTrainingSiblings::fourSiblingsReachTheCompareView() {
    openWindow();
    TrainingWindow* t = w_->showTrainingWindow();
    t->form()->applySettings(siblingSettings(dir_.path(), 1));
    const QString folder = dir_.filePath("four");
    QSignalSpy ended(t, &TrainingWindow::siblingsEnded);
    QSignalSpy each(t, &TrainingWindow::siblingTrained);
    QVERIFY2(t->startSiblings(folder), qPrintable(t->lastError()));
    QVERIFY(t->isTrainingSiblings());
    QVERIFY(t->statusLabel()->text().startsWith(QStringLiteral("sibling 1 of 4 (additive)")));
    QVERIFY(ended.wait(240000));
    QCOMPARE(ended.first().at(1).toBool(), true);
    const QStringList paths = ended.first().at(0).toStringList();
    QCOMPARE(paths.size(), 4);
    QCOMPARE(each.size(), 4);
    QVERIFY(!t->isTrainingSiblings() && !t->isRunning());
    const Model first = loadModel(paths[0].toStdString());
    for (int k = 0; k < 4; ++k) {
        QCOMPARE(paths[k],
                 QDir(folder).filePath(
                     QStringLiteral("reverse-bahdanau-%1-trained.safetensors").arg(QLatin1String(kScores[k]))));
        const Model m = loadModel(paths[k].toStdString());
        QCOMPARE(std::string(toString(m.config.score)), std::string(kScores[k]));
        ModelConfig same = m.config;
        same.score = first.config.score;
        QVERIFY(same == first.config);  // every other setting identical
        QCOMPARE(m.task, std::string("reverse"));
        QCOMPARE(m.source_vocab.size(), first.source_vocab.size());
        QCOMPARE(m.target_vocab.size(), first.target_vocab.size());
        QCOMPARE(settingsOf(m), settingsOf(first));  // lr, batch, seed, steps ... and "completed"
        QCOMPARE(nlohmann::json::parse(m.training).at("status").get<std::string>(), std::string("completed"));
    }
    // the main window: A the additive sibling, B the dot one, the others among B's choices
    QTRY_COMPARE_WITH_TIMEOUT(QFileInfo(w_->modelPath()).absoluteFilePath(), QFileInfo(paths[0]).absoluteFilePath(),
                              10000);
    QVERIFY(w_->compareShown());
    QCOMPARE(QFileInfo(w_->compareView()->modelBPath()).absoluteFilePath(), QFileInfo(paths[1]).absoluteFilePath());
    QComboBox* box = w_->compareView()->modelBox();
    QStringList choices;
    for (int i = 0; i < box->count(); ++i) choices << box->itemText(i);
    for (int k = 1; k < 4; ++k)
        QVERIFY2(choices.join('|').contains(QFileInfo(paths[k]).fileName()), qPrintable(choices.join('|')));
    w_->compareView()->waitForDone();
}

// Stopped during the second run: the sequence ends; the first model stays, the second is its stopped run's model,
// the last two are never written.
void TestTrainingSiblings::stopKeepsTheFinishedOnes() {
    TrainingWindow t;
    t.form()->applySettings(siblingSettings(dir_.path(), 40));  // 600 updates a run: the stop comes well before its end
    const QString folder = dir_.filePath("stopped");
    QSignalSpy ended(&t, &TrainingWindow::siblingsEnded);
    QSignalSpy each(&t, &TrainingWindow::siblingTrained);
    bool stopped = false;
    // Stop in the second (dot) run, once it has taken its snapshot after update 5.
    connect(&t, &TrainingWindow::snapshotAdded, &t, [&](int count) {
        if (each.size() == 1 && count >= 2 && !stopped) {
            stopped = true;
            t.stop();
        }
    });
    QVERIFY(t.startSiblings(folder));
    QVERIFY(ended.wait(120000));
    QVERIFY(stopped);
    QCOMPARE(ended.first().at(1).toBool(), false);
    const QStringList written = ended.first().at(0).toStringList();
    QCOMPARE(written.size(), 1);
    QVERIFY(written[0].endsWith("reverse-bahdanau-additive-trained.safetensors"));
    QCOMPARE(each.size(), 1);
    QVERIFY(!t.isRunning() && !t.isTrainingSiblings());
    QVERIFY(t.statusLabel()->text().contains(QStringLiteral("dot")));
    QCOMPARE(std::string(toString(loadModel(written[0].toStdString()).config.score)), std::string("additive"));
    const Model dot = loadModel(QDir(folder).filePath("reverse-bahdanau-dot-trained.safetensors").toStdString());
    QCOMPARE(nlohmann::json::parse(dot.training).at("status").get<std::string>(), std::string("interrupted"));
    QVERIFY(!QFileInfo::exists(QDir(folder).filePath("reverse-bahdanau-scaled_dot-trained.safetensors")));
    QVERIFY(!QFileInfo::exists(QDir(folder).filePath("reverse-bahdanau-general-trained.safetensors")));
}

void TestTrainingSiblings::settingsThatCannotBeSiblings() {
    TrainingSettings s = siblingSettings(dir_.path(), 1);
    s.config.dec_hid_dim = 40;  // dot needs 2 x 24
    QVERIFY_THROWS_EXCEPTION(std::exception, siblingSettings(s, dir_.path()));
    TrainingWindow t;
    t.form()->applySettings(s);
    QVERIFY(!t.startSiblings(dir_.filePath("bad")));
    QVERIFY2(t.lastError().contains(QStringLiteral("dot")), qPrintable(t.lastError()));
    QVERIFY(!t.isRunning() && !t.isTrainingSiblings());
    s = siblingSettings(dir_.path(), 1);
    s.init = dir_.filePath("some.safetensors");
    t.form()->applySettings(s);
    QVERIFY(!t.startSiblings(dir_.filePath("bad")));
    QVERIFY2(t.lastError().contains(QStringLiteral("Continue from")), qPrintable(t.lastError()));
    QVERIFY(!QFileInfo::exists(dir_.filePath("bad")));
}

ATTNVIZ_TEST_MAIN(TestTrainingSiblings)
#include "test_training_siblings.moc"
