// A model file that cannot be opened, as the user reads it: what is wrong in plain words first (missing, a folder,
// not a model, incomplete, weights of the wrong shape), the technical detail (path, the loader's own message)
// second, in the box's details. The open model and its heatmap stay.
#include "dialogs/load_error.h"
#include "io/model_file.h"
#include "main_window_fixture.h"
#include "safetensors_bytes.h"
#include "test_files.h"
#include "test_registry.h"
#include "window/main_window.h"

#include <QDir>
#include <QFileInfo>
#include <QMessageBox>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>

using namespace attnviz;
using namespace attnviz::ui;

class TestWindowLoadErrors : public QObject, private testing::MainWindowFixture {
    Q_OBJECT

private slots:
    void initTestCase() { setUpWindowTests(QStringLiteral("test_window_load_errors")); }
    void init() { openWindow(); }
    void cleanup() { closeWindow(); }

    void plainWordsFirstDetailsSecond_data();
    void plainWordsFirstDetailsSecond();
    void theBoxShowsPlainTextAndHidesTheDetails();

private:
    // A file of `kind` in `dir` (nothing written for "missing"); its path.
    QString makeBadFile(const QString& kind, const QTemporaryDir& dir) const;
};

QString TestWindowLoadErrors::makeBadFile(const QString& kind, const QTemporaryDir& dir) const {
    const QString path = dir.filePath(QStringLiteral("bad model.safetensors"));
    const QByteArray good = testing::readFile(additive_);
    if (kind == QLatin1String("folder")) {
        QDir(dir.path()).mkdir(QStringLiteral("bad model.safetensors"));
    } else if (kind == QLatin1String("text")) {
        testing::writeFile(path, QByteArray("hello, this is not a model at all"));
    } else if (kind == QLatin1String("truncated")) {
        testing::writeFile(path, good.left(good.size() / 2));
    } else if (kind == QLatin1String("wrong shape")) {
        // A 2-D tensor's shape transposed: the same bytes, so only the model's own check can object.
        testing::Parts parts = testing::split(testing::Bytes(good.begin(), good.end()));
        bool done = false;
        for (auto& [name, entry] : parts.header.items()) {
            if (name == "__metadata__" || done) continue;
            auto& shape = entry["shape"];
            if (shape.size() == 2 && shape[0] != shape[1]) {
                std::swap(shape[0], shape[1]);
                done = true;
            }
        }
        if (!done) return {};
        const testing::Bytes bytes = testing::join(parts);
        testing::writeFile(path, QByteArray(reinterpret_cast<const char*>(bytes.data()), qsizetype(bytes.size())));
    }
    return path;
}

void TestWindowLoadErrors::plainWordsFirstDetailsSecond_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("plain");  // what the first sentence says
    QTest::newRow("missing file") << QStringLiteral("missing") << QStringLiteral("does not exist");
    QTest::newRow("a folder") << QStringLiteral("folder") << QStringLiteral("is a folder, not a model file");
    QTest::newRow("not a model") << QStringLiteral("text") << QStringLiteral("is not an attnviz model");
    QTest::newRow("truncated model") << QStringLiteral("truncated") << QStringLiteral("is incomplete");
    QTest::newRow("wrong-shaped tensor") << QStringLiteral("wrong shape") << QStringLiteral("does not fit together");
}

void TestWindowLoadErrors::plainWordsFirstDetailsSecond() {
    QFETCH(QString, kind);
    QFETCH(QString, plain);
    QVERIFY(typeAndWait(QStringLiteral("i love you")));
    QTemporaryDir dir;
    const QString bad = makeBadFile(kind, dir);
    QVERIFY(!bad.isEmpty());
    // The loader's own message, as the engine gives it.
    QString technical;
    try {
        loadModel(bad.toStdString());
    } catch (const std::exception& e) {
        technical = QString::fromStdString(e.what());
    }
    QVERIFY(!technical.isEmpty());

    QSignalSpy errors(w_.get(), &MainWindow::errorReported);
    QVERIFY(!w_->openModel(bad));
    QCOMPARE(errors.count(), 1);
    const QString message = errors.at(0).at(0).toString();
    const QString first_line = message.section(u'\n', 0, 0);
    QVERIFY2(first_line.contains(plain), qPrintable(message));
    QVERIFY2(first_line.contains(QStringLiteral("“bad model.safetensors”")), qPrintable(message));
    QVERIFY2(!first_line.contains(technical), qPrintable(message));  // no jargon in the plain part
    const int detail_at = int(message.indexOf(technical));
    QVERIFY2(detail_at > first_line.size(), qPrintable(message));  // the loader's message after it
    QVERIFY(message.contains(QDir::toNativeSeparators(QFileInfo(bad).absoluteFilePath())));
    QVERIFY2(w_->statusText() == first_line, qPrintable(w_->statusText()));
    QCOMPARE(w_->modelPath(), QFileInfo(additive_).absoluteFilePath());  // the open model stays
}

void TestWindowLoadErrors::theBoxShowsPlainTextAndHidesTheDetails() {
    QTemporaryDir dir;
    const QString bad = makeBadFile(QStringLiteral("truncated"), dir);
    QString technical;
    try {
        loadModel(bad.toStdString());
    } catch (const std::exception& e) {
        technical = QString::fromStdString(e.what());
    }
    const LoadErrorText text = describeLoadError(bad, technical);
    QVERIFY(text.plain.startsWith(QStringLiteral("“bad model.safetensors” is incomplete")));
    QVERIFY(text.details.endsWith(technical));
    const auto box = makeLoadErrorBox(w_.get(), QStringLiteral("Cannot open model"), text);
    QCOMPARE(box->text(), text.plain);
    QCOMPARE(box->detailedText(), text.details);
    QCOMPARE(box->icon(), QMessageBox::Warning);
}

ATTNVIZ_TEST_MAIN(TestWindowLoadErrors)
#include "test_window_load_errors.moc"
