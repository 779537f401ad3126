// `attnviz-cli render`: each extension writes a valid file of the asked size, --input/--out-dir numbering, exit codes
// (2 bad usage, 1 unwritable output), headless without a display, numbers equal to the engine's.
#include "decode/decoding.h"
#include "process_run.h"
#include "test_files.h"
#include "test_models.h"
#include "test_registry.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>
#include <cmath>
#include <nlohmann/json.hpp>

using namespace attnviz;

using attnviz::testing::be32;
using attnviz::testing::readFile;
using attnviz::testing::writeFile;

namespace {

using Run = attnviz::testing::ProcessRun;

// `attnviz-cli render ARGS` with the given environment.
Run runRender(const QStringList& args, const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
    attnviz::testing::RunOptions options;
    options.environment = env;
    options.timeout_ms = 120000;
    return attnviz::testing::runProcess(QStringLiteral(ATTNVIZ_CLI_PATH), QStringList{"render"} + args, options);
}

// PNG: IHDR width/height and the pHYs pixels per metre (x), or -1 without pHYs.
bool pngInfo(const QByteArray& png, int* w, int* h, int* dpm) {
    if (!png.startsWith("\x89PNG\r\n\x1a\n") || png.mid(12, 4) != "IHDR") return false;
    *w = int(be32(png, 16));
    *h = int(be32(png, 20));
    *dpm = -1;
    for (int at = 8; at + 8 <= png.size();) {
        const int len = int(be32(png, at));
        if (png.mid(at + 4, 4) == "pHYs") *dpm = int(be32(png, at + 8));
        at += 12 + len;
    }
    return true;
}

}  // namespace

class TestCliRender : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void writesEachFormat_data();
    void writesEachFormat();
    void numbersEqualTheEngine();
    void inputRendersEveryLineNumbered();
    void badUsageExitsTwo_data();
    void badUsageExitsTwo();
    void unwritableOutputExitsOneAndLeavesNothing();
    void runsWithoutADisplay();

private:
    QTemporaryDir dir_;
    QString model_;
    const Model* engine_ = nullptr;  // never destroyed: see tests/ui/test_heatmap_view.cpp
};

void TestCliRender::initTestCase() {
    QVERIFY(dir_.isValid());
    engine_ = new Model(testing::smallModel(testing::smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 5, 3.0f));
    model_ = testing::saveInto(*engine_, dir_, "m.safetensors");
}

void TestCliRender::writesEachFormat_data() {
    QTest::addColumn<QString>("ext");
    QTest::addColumn<QStringList>("extra");
    QTest::newRow("png 800x600 @96") << "png" << QStringList{"--width", "800", "--height", "600", "--dpi", "96"};
    QTest::newRow("png annotated, title, cividis")
        << "png" << QStringList{"--width",    "800",     "--height", "600",        "--dpi",  "96",
                                "--annotate", "--title", "猫",       "--colormap", "cividis"};
    QTest::newRow("svg 800x600 @96") << "svg" << QStringList{"--width", "800", "--height", "600", "--dpi", "96"};
    QTest::newRow("pdf 800x600 @96 = 600x450 pt")
        << "pdf" << QStringList{"--width", "800", "--height", "600", "--dpi", "96"};
    QTest::newRow("csv") << "csv" << QStringList{};
    QTest::newRow("json, beam 3") << "json" << QStringList{"--beam", "3"};
}

void TestCliRender::writesEachFormat() {
    QFETCH(QString, ext);
    QFETCH(QStringList, extra);
    const QString out = dir_.filePath("one." + ext);
    QFile::remove(out);
    const Run r = runRender(QStringList{"--model", model_, "--out", out} + extra + QStringList{"the", "cat", "sat"});
    QVERIFY2(r.code == 0, qPrintable(r.errText()));
    QCOMPARE(r.outText().trimmed(), QDir::toNativeSeparators(out));
    const QByteArray bytes = readFile(out);
    if (ext == "png") {
        int w = 0, h = 0, dpm = 0;
        QVERIFY(pngInfo(bytes, &w, &h, &dpm));
        QCOMPARE(w, 800);
        QCOMPARE(h, 600);
        QCOMPARE(dpm, int(std::lround(96 / 0.0254)));
    } else if (ext == "svg") {
        QXmlStreamReader xml(bytes);
        QString viewBox;
        while (!xml.atEnd())
            if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QLatin1String("svg"))
                viewBox = xml.attributes().value("viewBox").toString();
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QCOMPARE(viewBox.split(' ', Qt::SkipEmptyParts), (QStringList{"0", "0", "800", "600"}));
    } else if (ext == "pdf") {
        QVERIFY(bytes.startsWith("%PDF-"));
        const auto m = QRegularExpression(QStringLiteral("/MediaBox\\s*\\[\\s*0\\s+0\\s+([0-9.]+)\\s+([0-9.]+)"))
                           .match(QString::fromLatin1(bytes));
        QVERIFY(m.hasMatch());
        QVERIFY2(std::abs(m.captured(1).toDouble() - 600) < 1 && std::abs(m.captured(2).toDouble() - 450) < 1,
                 qPrintable(m.captured(0)));
    } else if (ext == "csv") {
        const QStringList lines = QString::fromUtf8(bytes).split('\n', Qt::SkipEmptyParts);
        QVERIFY(lines.size() >= 2);
        QVERIFY2(lines[0].endsWith(",<sos>,the,cat,sat,<eos>"), qPrintable(lines[0]));
    } else {
        const auto j = nlohmann::json::parse(bytes.toStdString());
        QCOMPARE(j.at("source_tokens").size(), size_t(5));
        QCOMPARE(j.at("attention").size(), j.at("target_tokens").size());
        QVERIFY(j.contains("config"));
    }
}

void TestCliRender::numbersEqualTheEngine() {
    const QString out = dir_.filePath("forced.json");
    const Run r = runRender(
        {"--model", model_, "--out", out, "--target", "猫 坐 在 垫子 上", "the", "cat", "sat", "on", "the", "mat"});
    QVERIFY2(r.code == 0, qPrintable(r.errText()));
    const auto j = nlohmann::json::parse(readFile(out).toStdString());
    const DecodeResult want = forcedDecode(*engine_, "the cat sat on the mat", "猫 坐 在 垫子 上");
    QCOMPARE(j.at("target_tokens").get<std::vector<std::string>>(), want.target_tokens);
    const auto att = j.at("attention");
    QCOMPARE(att.size(), want.attention.size());
    for (size_t t = 0; t < want.attention.size(); ++t)
        for (size_t s = 0; s < want.attention[t].size(); ++s) QCOMPARE(att[t][s].get<float>(), want.attention[t][s]);
}

void TestCliRender::inputRendersEveryLineNumbered() {
    const QString input = dir_.filePath("lines.txt");
    {
        QFile f(input);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("i love you\n\nthe cat sat\t猫 坐\nan apple .\n");
    }
    const QString outDir = dir_.filePath("batch/nested");
    const Run r = runRender({"--model", model_, "--input", input, "--out-dir", outDir, "--format", "svg", "--width",
                             "400", "--height", "300"});
    QVERIFY2(r.code == 0, qPrintable(r.errText()));
    QCOMPARE(QDir(outDir).entryList(QDir::Files), (QStringList{"0001.svg", "0002.svg", "0003.svg"}));
    QCOMPARE(r.outText().split('\n', Qt::SkipEmptyParts).size(), 3);
    // The second file is the forced line: its target row labels are the reference.
    QVERIFY(QString::fromUtf8(readFile(QDir(outDir).filePath("0002.svg"))).contains(QString::fromUtf8("坐")));
    // CSV by default name pattern, png default format.
    const QString pngDir = dir_.filePath("batch-png");
    const Run r2 =
        runRender({"--model", model_, "--input", input, "--out-dir", pngDir, "--width", "320", "--height", "240"});
    QVERIFY2(r2.code == 0, qPrintable(r2.errText()));
    QCOMPARE(QDir(pngDir).entryList(QDir::Files), (QStringList{"0001.png", "0002.png", "0003.png"}));
}

void TestCliRender::badUsageExitsTwo_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("unknown flag") << QStringList{"--out", "x.png", "--widht", "5", "hi"} << "--widht";
    QTest::newRow("width too small") << QStringList{"--out", "x.png", "--width", "5", "hi"} << "--width";
    QTest::newRow("dpi not a number") << QStringList{"--out", "x.png", "--dpi", "lots", "hi"} << "--dpi";
    QTest::newRow("unknown colour map") << QStringList{"--out", "x.png", "--colormap", "jet", "hi"} << "--colormap";
    QTest::newRow("unknown extension") << QStringList{"--out", "x.jpg", "hi"} << "--out";
    QTest::newRow("missing --out") << QStringList{"hi"} << "--out";
    QTest::newRow("missing sentence") << QStringList{"--out", "x.png"} << "SENTENCE";
    QTest::newRow("--input without --out-dir") << QStringList{"--input", "x.txt"} << "--out-dir";
    QTest::newRow("--beam with --target")
        << QStringList{"--out", "x.png", "--beam", "2", "--target", "a", "hi"} << "--beam";
}

void TestCliRender::badUsageExitsTwo() {
    QFETCH(QStringList, args);
    QFETCH(QString, mentions);
    const Run r = runRender(QStringList{"--model", model_} + args);
    QCOMPARE(r.code, 2);
    QVERIFY2(r.errText().contains(mentions), qPrintable(r.errText()));
    QVERIFY(!QFile::exists("x.png") && !QFile::exists("x.jpg"));
}

void TestCliRender::unwritableOutputExitsOneAndLeavesNothing() {
    for (const char* ext : {"png", "svg", "pdf", "csv", "json"}) {
        const QString out = dir_.filePath(QStringLiteral("missing-dir/sub/out.%1").arg(ext));
        const Run r = runRender({"--model", model_, "--out", out, "the", "cat"});
        QCOMPARE(r.code, 1);
        QVERIFY2(r.errText().contains(out), qPrintable(r.errText()));
        QCOMPARE(r.errText().trimmed().count('\n'), 0);  // one line
        QVERIFY(!QFile::exists(out));
    }
    QVERIFY(!QDir(dir_.filePath("missing-dir")).exists());
    const Run missing =
        runRender({"--model", dir_.filePath("nope.safetensors"), "--out", dir_.filePath("n.png"), "hi"});
    QCOMPARE(missing.code, 1);
    QVERIFY(missing.errText().contains("nope.safetensors"));
}

void TestCliRender::runsWithoutADisplay() {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove("QT_QPA_PLATFORM");
    env.remove("DISPLAY");
    env.remove("WAYLAND_DISPLAY");
    const QString out = dir_.filePath("headless.png");
    const Run r =
        runRender({"--model", model_, "--out", out, "--width", "300", "--height", "200", "i", "love", "you"}, env);
    QVERIFY2(r.code == 0, qPrintable(r.errText()));
    int w = 0, h = 0, dpm = 0;
    QVERIFY(pngInfo(readFile(out), &w, &h, &dpm));
    QCOMPARE(QSize(w, h), QSize(300, 200));
}

ATTNVIZ_TEST_MAIN(TestCliRender)
#include "test_cli_render.moc"
