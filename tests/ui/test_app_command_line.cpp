// The desktop app's command line run as a user or a script runs it (issue 44): --screenshot and --check never wait on
// a dialog (an unreadable model, corpus or option: its message on stderr, exit 1 within seconds, no picture). Runs
// this build's `attnviz` with the offscreen platform and settings in a temporary folder.
#include "process_run.h"
#include "test_models.h"
#include "test_registry.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

using namespace attnviz;
using namespace attnviz::testing;

namespace {

// A run takes seconds (a model loads, a window paints); one that waits on a dialog is killed at the timeout.
constexpr int kTimeoutMs = 30000;
constexpr qint64 kWithinSecondsMs = 10000;

struct AppRun {
    ProcessRun run;
    qint64 ms = 0;
};

}  // namespace

class TestAppCommandLine : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();

    void screenshotOfAnUnreadableModelEndsWithItsMessage();
    void unreadableCorpusEndsScreenshotAndCheck();
    void screenshotOfABadValueEndsBeforeAWindow();
    void goodInterventionsStillRunAndSave();

private:
    AppRun app(const QStringList& args) const;
    static void verifyRefused(const AppRun& r, const QString& said);

    QTemporaryDir dir_;
    QString rnn_;
};

void TestAppCommandLine::initTestCase() {
    QVERIFY(dir_.isValid());
    rnn_ = saveInto(smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 11, 3.0f), dir_,
                    QStringLiteral("test-bahdanau-additive.safetensors"));
    QVERIFY(QFileInfo::exists(rnn_));
}

AppRun TestAppCommandLine::app(const QStringList& args) const {
    RunOptions options;
    options.timeout_ms = kTimeoutMs;
    options.environment.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    for (const char* locale : {"LANG", "LC_ALL"})  // the messages in English (the window follows the system locale)
        options.environment.insert(QString::fromLatin1(locale), QStringLiteral("C.UTF-8"));
    for (const char* folder : {"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "HOME"})
        options.environment.insert(QString::fromLatin1(folder), dir_.filePath(QStringLiteral("home")));
    QElapsedTimer clock;
    clock.start();
    AppRun r{runProcess(QStringLiteral(ATTNVIZ_GUI_PATH), args, options), 0};
    r.ms = clock.elapsed();
    return r;
}

// Exit 1 within seconds, `said` on stderr.
void TestAppCommandLine::verifyRefused(const AppRun& r, const QString& said) {
    QVERIFY2(r.run.code == 1, qPrintable(QStringLiteral("exit %1: %2").arg(r.run.code).arg(r.run.errText())));
    QVERIFY2(r.ms < kWithinSecondsMs, qPrintable(QStringLiteral("%1 ms").arg(r.ms)));
    QVERIFY2(r.run.errText().contains(said), qPrintable(r.run.errText()));
}

void TestAppCommandLine::screenshotOfAnUnreadableModelEndsWithItsMessage() {
    const QString bad = dir_.filePath(QStringLiteral("notes.safetensors"));
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("hello, this is not a model at all");
    f.close();
    const QString shot = dir_.filePath(QStringLiteral("bad-model.png"));
    verifyRefused(app({QStringLiteral("--screenshot"), shot, bad}), QStringLiteral("notes.safetensors"));
    QVERIFY(!QFileInfo::exists(shot));
    verifyRefused(app({QStringLiteral("--check"), bad}), QStringLiteral("notes.safetensors"));
}

// A corpus with no line the model can read: the screenshot waited for a scoring that never came, --check passed it.
void TestAppCommandLine::unreadableCorpusEndsScreenshotAndCheck() {
    const QString corpus = dir_.filePath(QStringLiteral("no-tabs.tsv"));
    QFile f(corpus);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("a line without a tab\nanother one\n");
    f.close();
    const QString shot = dir_.filePath(QStringLiteral("bad-corpus.png"));
    verifyRefused(app({QStringLiteral("--screenshot"), shot, rnn_, QStringLiteral("--corpus"), corpus}),
                  QStringLiteral("no-tabs.tsv"));
    QVERIFY(!QFileInfo::exists(shot));
    verifyRefused(app({QStringLiteral("--check"), rnn_, QStringLiteral("--corpus"), corpus}),
                  QStringLiteral("--corpus: "));
}

void TestAppCommandLine::screenshotOfABadValueEndsBeforeAWindow() {
    const QString shot = dir_.filePath(QStringLiteral("bad-value.png"));
    verifyRefused(app({QStringLiteral("--screenshot"), shot, rnn_, QStringLiteral("--select"), QStringLiteral("x")}),
                  QStringLiteral("--select: wants row,column"));
    QVERIFY(!QFileInfo::exists(shot));
}

// A good line still runs and saves.
void TestAppCommandLine::goodInterventionsStillRunAndSave() {
    const QStringList line = {rnn_, QStringLiteral("--sentence"), QStringLiteral("i love you"),
                              QStringLiteral("--knockout"), QStringLiteral("1,3")};
    const AppRun check = app(QStringList{QStringLiteral("--check")} + line);
    QVERIFY2(check.run.code == 0, qPrintable(check.run.errText()));
    const QString shot = dir_.filePath(QStringLiteral("good.png"));
    const AppRun saved = app(QStringList{QStringLiteral("--screenshot"), shot} + line);
    QVERIFY2(saved.run.code == 0, qPrintable(saved.run.errText()));
    QVERIFY(QFileInfo(shot).size() > 0);
}

ATTNVIZ_TEST_MAIN(TestAppCommandLine)
#include "test_app_command_line.moc"
