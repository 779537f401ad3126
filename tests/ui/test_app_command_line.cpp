// The desktop app's command line run as a user or a script runs it (issue 44): --screenshot and --check never wait on
// a dialog (an unreadable model, corpus or option: its message on stderr, exit 1 within seconds, no picture), and
// the window's options are checked as attnviz-cli's are (a knockout past the sentence, rollout of an RNN model: the
// CLI's reasons) and as the right-click menu refuses them (every word knocked out). Runs this build's `attnviz` with
// the offscreen platform and settings in a temporary folder.
#include "error_of.h"
#include "explain/explanation.h"
#include "process_run.h"
#include "test_models.h"
#include "test_registry.h"

#include <QDir>
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
    void knockoutOfEveryWordIsRefusedAsTheMenuRefusesIt();
    void knockoutPastTheSentenceIsRefusedWithTheClisReason();
    void rolloutOfAnRnnModelIsRefusedWithTheClisReason();
    void goodInterventionsStillRunAndSave();
    void screenshotOfATrainingKeepsAnOccupiedFolderWithoutAsking();
    void lengthPenaltyIsCheckedAndShotWithTheBeam();

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

// --train of a Marian model whose default folder holds files: the window asks before replacing it, which a screenshot
// cannot answer; it waited on that question forever. The folder keeps its files.
void TestAppCommandLine::screenshotOfATrainingKeepsAnOccupiedFolderWithoutAsking() {
    const QString corpus = dir_.filePath(QStringLiteral("pairs.tsv"));
    QFile f(corpus);
    QVERIFY(f.open(QIODevice::WriteOnly));
    for (int i = 0; i < 20; ++i) f.write("the cat sat on the mat\tle chat est sur le tapis\n");
    f.close();
    const QString folder = dir_.filePath(QStringLiteral("home/attnviz/trained/pairs-marian-trained"));
    QVERIFY(QDir().mkpath(folder));
    QFile kept(folder + QStringLiteral("/config.json"));
    QVERIFY(kept.open(QIODevice::WriteOnly));
    kept.write("{}");
    kept.close();
    const QString shot = dir_.filePath(QStringLiteral("training.png"));
    verifyRefused(app({QStringLiteral("--screenshot"), shot, QStringLiteral("--train"), corpus,
                       QStringLiteral("--train-kind"), QStringLiteral("marian")}),
                  QStringLiteral("pairs-marian-trained exists and is not empty"));
    QVERIFY(!QFileInfo::exists(shot));
    QFile again(folder + QStringLiteral("/config.json"));
    QVERIFY(again.open(QIODevice::ReadOnly));
    QCOMPARE(again.readAll(), QByteArray("{}"));
}

void TestAppCommandLine::screenshotOfABadValueEndsBeforeAWindow() {
    const QString shot = dir_.filePath(QStringLiteral("bad-value.png"));
    verifyRefused(app({QStringLiteral("--screenshot"), shot, rnn_, QStringLiteral("--select"), QStringLiteral("x")}),
                  QStringLiteral("--select: wants row,column"));
    QVERIFY(!QFileInfo::exists(shot));
}

void TestAppCommandLine::knockoutOfEveryWordIsRefusedAsTheMenuRefusesIt() {
    const QStringList line = {rnn_, QStringLiteral("--sentence"), QStringLiteral("i love you"),
                              QStringLiteral("--knockout"), QStringLiteral("1,2,3")};
    const QString said = QStringLiteral("--knockout: Every word of the sentence would be knocked out");
    verifyRefused(app(QStringList{QStringLiteral("--check")} + line), said);
    const QString shot = dir_.filePath(QStringLiteral("every-word.png"));
    verifyRefused(app(QStringList{QStringLiteral("--screenshot"), shot} + line), said);
    QVERIFY(!QFileInfo::exists(shot));
}

void TestAppCommandLine::knockoutPastTheSentenceIsRefusedWithTheClisReason() {
    const QStringList line = {rnn_, QStringLiteral("--sentence"), QStringLiteral("i love you"),
                              QStringLiteral("--knockout"), QStringLiteral("9")};
    // core's checkInterventions, the check of attnviz-cli's --knockout: 3 words and <sos> <eos> are positions 0..4
    const QString said = QStringLiteral("knockout: source position 9 is past the source (5 tokens");
    verifyRefused(app(QStringList{QStringLiteral("--check")} + line), said);
    const QString shot = dir_.filePath(QStringLiteral("past.png"));
    verifyRefused(app(QStringList{QStringLiteral("--screenshot"), shot} + line), said);
    QVERIFY(!QFileInfo::exists(shot));
}

void TestAppCommandLine::rolloutOfAnRnnModelIsRefusedWithTheClisReason() {
    const ModelConfig rnn = smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive);
    const QString cli_reason = errorOf([&] { parseMethodList("rollout", rnn); });  // attnviz-cli's --method check
    QVERIFY(!cli_reason.isEmpty());
    const QStringList line = {rnn_, QStringLiteral("--explain"), QStringLiteral("rollout")};
    verifyRefused(app(QStringList{QStringLiteral("--check")} + line), QStringLiteral("--explain: ") + cli_reason);
    const QString shot = dir_.filePath(QStringLiteral("rollout.png"));
    verifyRefused(app(QStringList{QStringLiteral("--screenshot"), shot} + line), cli_reason);
    QVERIFY(!QFileInfo::exists(shot));
}

// The same checks pass what the model and the sentence can take, and the window saves it.
void TestAppCommandLine::goodInterventionsStillRunAndSave() {
    const QStringList line = {rnn_,
                              QStringLiteral("--sentence"),
                              QStringLiteral("i love you"),
                              QStringLiteral("--knockout"),
                              QStringLiteral("1,3"),
                              QStringLiteral("--explain"),
                              QStringLiteral("occlusion")};
    const AppRun check = app(QStringList{QStringLiteral("--check")} + line);
    QVERIFY2(check.run.code == 0, qPrintable(check.run.errText()));
    const QString shot = dir_.filePath(QStringLiteral("good.png"));
    const AppRun saved = app(QStringList{QStringLiteral("--screenshot"), shot} + line);
    QVERIFY2(saved.run.code == 0, qPrintable(saved.run.errText()));
    QVERIFY(QFileInfo(shot).size() > 0);
}

// --length-penalty A sets the beam view's box: a number from -3 to 3, with --beam only; a good one is shot.
void TestAppCommandLine::lengthPenaltyIsCheckedAndShotWithTheBeam() {
    const QString shot = dir_.filePath(QStringLiteral("penalty.png"));
    verifyRefused(app({QStringLiteral("--screenshot"), shot, rnn_, QStringLiteral("--beam"), QStringLiteral("3"),
                       QStringLiteral("--length-penalty"), QStringLiteral("9")}),
                  QStringLiteral("--length-penalty: 9 is not a number from -3 to 3"));
    verifyRefused(
        app({QStringLiteral("--screenshot"), shot, rnn_, QStringLiteral("--length-penalty"), QStringLiteral("1")}),
        QStringLiteral("--length-penalty: needs --beam"));
    const AppRun good = app({QStringLiteral("--screenshot"), shot, rnn_, QStringLiteral("--beam"), QStringLiteral("3"),
                             QStringLiteral("--length-penalty"), QStringLiteral("-1.5")});
    QVERIFY2(good.run.code == 0, qPrintable(good.run.errText()));
    QVERIFY(QFileInfo(shot).size() > 0);
}

ATTNVIZ_TEST_MAIN(TestAppCommandLine)
#include "test_app_command_line.moc"
