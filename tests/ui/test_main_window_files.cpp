// The main window's files, used as a user would: a bad model file keeps the previous state, a dropped model file is
// opened, the export writes the chosen format (and names the path when it cannot), Copy image, the model library.
#include "decode/decoding.h"
#include "dialogs/model_library.h"
#include "io/model_file.h"
#include "main_window_fixture.h"
#include "test_models.h"
#include "test_registry.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QMimeData>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <QUrl>
#include <nlohmann/json.hpp>

using namespace attnviz;
using namespace attnviz::ui;

class TestMainWindowFiles : public QObject, private testing::MainWindowFixture {
    Q_OBJECT

private slots:
    void initTestCase() { setUpWindowTests(QStringLiteral("test_main_window_files")); }
    void init() { openWindow(); }
    void cleanup() { closeWindow(); }

    void badModelKeepsPreviousState_data();
    void badModelKeepsPreviousState();
    void droppedModelFileIsOpened();
    void exportWritesTheChosenFormat_data();
    void exportWritesTheChosenFormat();
    void exportToUnwritableFolderNamesPathAndLeavesNothing();
    void copyImagePutsTheFigureOnTheClipboard();
    void libraryListsModelsByTaskAndDefaultIsFirst();
    void defaultModelPrefersRealSentencesThenEnZh();
};

// ------------------------------------------------------------------------------------------------ model files

void TestMainWindowFiles::badModelKeepsPreviousState_data() {
    QTest::addColumn<QByteArray>("bytes");  // empty: the file does not exist
    QTest::newRow("missing file") << QByteArray();
    QTest::newRow("not a safetensors file") << QByteArray("hello, this is not a model at all");
    QFile good(additive_);
    QVERIFY(good.open(QIODevice::ReadOnly));
    const QByteArray all = good.readAll();
    QTest::newRow("truncated model") << all.left(all.size() / 2);
}

void TestMainWindowFiles::badModelKeepsPreviousState() {
    QFETCH(QByteArray, bytes);
    QVERIFY(typeAndWait(QStringLiteral("i love you")));
    const auto weights = shownWeights(*w_->heatmapView());
    QTemporaryDir dir;
    const QString bad = dir.filePath(QStringLiteral("bad model.safetensors"));
    if (!bytes.isEmpty()) {
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(bytes);
    }
    QSignalSpy errors(w_.get(), &MainWindow::errorReported);
    QVERIFY(!w_->openModel(bad));
    QCOMPARE(errors.count(), 1);
    const QString message = errors.at(0).at(0).toString();
    QVERIFY2(message.contains(QDir::toNativeSeparators(bad)), qPrintable(message));
    QVERIFY2(message.count(QStringLiteral("\n")) >= 2, qPrintable(message));  // and the loader's own message
    QCOMPARE(w_->modelPath(), QFileInfo(additive_).absoluteFilePath());
    QCOMPARE(w_->sourceText(), QStringLiteral("i love you"));
    QTest::qWait(150);
    QCOMPARE(shownWeights(*w_->heatmapView()), weights);
}

void TestMainWindowFiles::droppedModelFileIsOpened() {
    auto* mime = new QMimeData;
    mime->setUrls({QUrl::fromLocalFile(scaled_)});
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(w_.get(), &enter);
    QVERIFY(enter.isAccepted());
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(w_.get(), &drop);
    QTRY_COMPARE(w_->modelPath(), QFileInfo(scaled_).absoluteFilePath());
    delete mime;
}

// ------------------------------------------------------------------------------------------------ export

void TestMainWindowFiles::exportWritesTheChosenFormat_data() {
    QTest::addColumn<QString>("format");
    QTest::newRow("png at the chosen pixel size") << QStringLiteral("png");
    QTest::newRow("svg") << QStringLiteral("svg");
    QTest::newRow("pdf") << QStringLiteral("pdf");
    QTest::newRow("csv") << QStringLiteral("csv");
    QTest::newRow("json decode object of what is shown") << QStringLiteral("json");
}

void TestMainWindowFiles::exportWritesTheChosenFormat() {
    QFETCH(QString, format);
    QVERIFY(typeAndWait(QStringLiteral("i love you")));
    w_->setCursorStep(1);  // stepping does not cut the export: every decoded row is written
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("heat map.") + format);
    ExportOptions o = w_->exportOptions();
    o.width = 640;
    o.height = 480;
    o.dpi = 96;
    QVERIFY(w_->exportTo(path, o));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray bytes = f.readAll();
    QVERIFY(!bytes.isEmpty());
    const DecodeResult& shown = w_->decodes()->outcome()->result;
    if (format == QLatin1String("png")) {
        QCOMPARE(QImage::fromData(bytes).size(), QSize(640, 480));
    } else if (format == QLatin1String("svg")) {
        QVERIFY(bytes.contains("<svg"));
    } else if (format == QLatin1String("pdf")) {
        QVERIFY(bytes.startsWith("%PDF"));
    } else if (format == QLatin1String("csv")) {
        QVERIFY(QString::fromUtf8(bytes).contains(QString::fromStdString(shown.target_tokens[0])));
    } else {
        const auto j = nlohmann::json::parse(bytes.toStdString());
        QCOMPARE(j.at("target_ids").get<std::vector<int>>(), shown.target_ids);
        QCOMPARE(j.at("attention").size(), shown.attention.size());
        QCOMPARE(j.at("attention")[1][2].get<float>(), shown.attention[1][2]);
    }
}

void TestMainWindowFiles::exportToUnwritableFolderNamesPathAndLeavesNothing() {
    QVERIFY(typeAndWait(QStringLiteral("i love you")));
    QTemporaryDir dir;
    QFile blocker(dir.filePath(QStringLiteral("not-a-folder")));  // a file where the folder should be: even root
    QVERIFY(blocker.open(QIODevice::WriteOnly));                  // cannot write below it
    blocker.close();
    const QString path = dir.filePath(QStringLiteral("not-a-folder/out.png"));
    QSignalSpy errors(w_.get(), &MainWindow::errorReported);
    QVERIFY(!w_->exportTo(path, w_->exportOptions()));
    QCOMPARE(errors.count(), 1);
    QVERIFY2(errors.at(0).at(0).toString().contains(QDir::toNativeSeparators(path)),
             qPrintable(errors.at(0).at(0).toString()));
    QVERIFY(!QFileInfo::exists(path));
    QCOMPARE(QDir(dir.path()).entryList(QDir::NoDotAndDotDot | QDir::AllEntries),
             QStringList{QStringLiteral("not-a-folder")});  // no temporary file left either
    QVERIFY(w_->heatmapView()->data().rows() > 0);          // the state is kept
}

void TestMainWindowFiles::copyImagePutsTheFigureOnTheClipboard() {
    QVERIFY(typeAndWait(QStringLiteral("i love you")));
    QApplication::clipboard()->clear();
    w_->copyImageAction()->trigger();
    const QImage image = QApplication::clipboard()->image();
    QCOMPARE(image.size(), QSize(w_->exportOptions().width, w_->exportOptions().height));
    QCOMPARE(w_->copyImageAction()->shortcut(), QKeySequence(QStringLiteral("Ctrl+Shift+C")));
}

void TestMainWindowFiles::libraryListsModelsByTaskAndDefaultIsFirst() {
    qputenv("ATTNVIZ_SAMPLE_MODELS", models_dir_.path().toUtf8());
    QCOMPARE(sampleModelDirs().value(0), QFileInfo(models_dir_.path()).canonicalFilePath());
    QCOMPARE(QFileInfo(defaultSampleModel()).fileName(), QStringLiteral("test-bahdanau-additive.safetensors"));
    ModelLibraryDialog dialog;
    dialog.populate({models_dir_.path()});
    QTreeWidgetItem* folder = dialog.tree()->topLevelItem(0);
    QCOMPARE(folder->childCount(), 1);
    QTreeWidgetItem* task = folder->child(0);
    QCOMPARE(task->text(0), QStringLiteral("test-task"));
    QCOMPARE(task->childCount(), 3);
    QCOMPARE(task->child(1)->text(2), QStringLiteral("dot"));
    QCOMPARE(task->child(1)->text(1), QStringLiteral("bahdanau"));
    const Model additive = loadModel(additive_.toStdString());
    QCOMPARE(task->child(0)->text(3), QStringLiteral("E %1, H %2/%3, V %4/%5")
                                          .arg(additive.config.emb_dim)
                                          .arg(additive.config.enc_hid_dim)
                                          .arg(additive.config.dec_hid_dim)
                                          .arg(additive.source_vocab.size())
                                          .arg(additive.target_vocab.size()));
    // A Transformer by its own sizes, never "E 0, H 0/0".
    QTemporaryDir other;
    testing::saveInto(testing::smallTransformer(3, 2), other, "t.safetensors");
    dialog.populate({other.path()});
    QTreeWidgetItem* t = dialog.tree()->topLevelItem(0)->child(0)->child(0);
    const TransformerConfig tc = testing::smallTransformer(3, 2).config.transformer;
    QVERIFY2(t->text(3).startsWith(QStringLiteral("d %1, %2 heads, %3+%4 layers, V ")
                                       .arg(tc.d_model)
                                       .arg(tc.encoder_nhead)
                                       .arg(tc.num_encoder_layers)
                                       .arg(tc.num_decoder_layers)),
             qPrintable(t->text(3)));
    QCOMPARE(exampleSentence(QStringLiteral("test-task"), QString()), QStringLiteral("i love you"));
    QCOMPARE(exampleSentence(QStringLiteral("test-task"), QStringLiteral(" from metadata ")),
             QStringLiteral("from metadata"));
    qunsetenv("ATTNVIZ_SAMPLE_MODELS");
}

// The window opens on the Tatoeba (real sentences) additive model when it ships, else on the synthetic en_zh one;
// a damaged preferred file is passed over, not opened.
void TestMainWindowFiles::defaultModelPrefersRealSentencesThenEnZh() {
    QTemporaryDir dir;
    const auto place = [&](const QString& name) { QVERIFY(QFile::copy(additive_, dir.filePath(name))); };
    place(QStringLiteral("aaa-bahdanau-additive.safetensors"));
    place(QStringLiteral("en_zh-bahdanau-additive.safetensors"));
    place(QStringLiteral("tatoeba-bahdanau-additive.safetensors"));
    qputenv("ATTNVIZ_SAMPLE_MODELS", dir.path().toUtf8());
    QCOMPARE(QFileInfo(defaultSampleModel()).fileName(), QStringLiteral("tatoeba-bahdanau-additive.safetensors"));
    QFile damaged(dir.filePath(QStringLiteral("tatoeba-bahdanau-additive.safetensors")));
    QVERIFY(damaged.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QVERIFY(damaged.write("not a model") > 0);
    damaged.close();
    QCOMPARE(QFileInfo(defaultSampleModel()).fileName(), QStringLiteral("en_zh-bahdanau-additive.safetensors"));
    QVERIFY(QFile::remove(dir.filePath(QStringLiteral("en_zh-bahdanau-additive.safetensors"))));
    QCOMPARE(QFileInfo(defaultSampleModel()).fileName(), QStringLiteral("aaa-bahdanau-additive.safetensors"));
    QCOMPARE(exampleSentence(QStringLiteral("tatoeba"), QString()), QStringLiteral("I love you."));
    qunsetenv("ATTNVIZ_SAMPLE_MODELS");
}

ATTNVIZ_TEST_MAIN(TestMainWindowFiles)
#include "test_main_window_files.moc"
