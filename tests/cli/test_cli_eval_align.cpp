// attnviz-cli eval --align-mode / --align-specials on the en_fr sample model with sure and possible gold links: the
// JSON's AER, precision and recall against the engine's (core/eval/alignment.h) on the same forced decodes, every
// mode of --align-mode all, and bad values refused with exit code 2.
#include "decode/decoding.h"
#include "eval/alignment.h"
#include "io/model_file.h"
#include "process_run.h"
#include "test_files.h"
#include "test_registry.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>

using namespace attnviz;
using namespace attnviz::testing;
using nlohmann::json;

namespace {

struct Line {
    const char* source;
    const char* reference;
    const char* links;
};

// Sentences of the en_fr grammar (sample_models/corpora/README.md) with sure links and, where a word has a second,
// less certain partner, possible ones.
const Line kLines[] = {
    {"the cat sat on the mat", "le chat s'est assis sur le tapis", "0-0 1-1 2-2 2?3 3-4 4?5 5-6"},
    {"he does not eat", "il ne mange pas", "0-0 2-1 1?2 3-2 2-3"},
    {"the cat ate", "le chat a mangé", "0-0 1-1 2-2 2-3"},
};

const QString kModel = QStringLiteral(ATTNVIZ_SOURCE_DIR "/sample_models/en_fr-bahdanau-additive.safetensors");

}  // namespace

class TestCliEvalAlign : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void modesMatchTheEngine_data();
    void modesMatchTheEngine();
    void allModes();
    void badValuesAreUsageErrors_data();
    void badValuesAreUsageErrors();

private:
    // The engine's counts over kLines for `options`, on forced decodes as eval makes them.
    AerCounts engineCounts(const AlignOptions& options) const;
    QTemporaryDir dir_;
    QString data_;
    Model model_;
};

void TestCliEvalAlign::initTestCase() {
    QVERIFY(dir_.isValid());
    if (!QFileInfo::exists(kModel)) QSKIP("the en_fr sample model is not in this checkout");
    model_ = loadModel(kModel.toStdString());
    QByteArray text;
    for (const Line& l : kLines) text += QByteArray(l.source) + "\t" + l.reference + "\t" + l.links + "\n";
    data_ = dir_.filePath(QStringLiteral("gold.tsv"));
    writeFile(data_, text);
}

AerCounts TestCliEvalAlign::engineCounts(const AlignOptions& options) const {
    AerCounts total;
    for (const Line& l : kLines) {
        const DecodeResult forced = forcedDecode(model_, l.source, l.reference);
        total += aerCounts(extractAlignment(forced, options), parseAlignment(l.links));
    }
    return total;
}

void TestCliEvalAlign::modesMatchTheEngine_data() {
    QTest::addColumn<QString>("mode");
    QTest::addColumn<QString>("specials");
    for (const char* mode : {"argmax", "shift", "threshold:0.2"})
        for (const char* specials : {"exclude", "include"})
            QTest::addRow("%s, %s", mode, specials) << QString(mode) << QString(specials);
}

void TestCliEvalAlign::modesMatchTheEngine() {
    QFETCH(QString, mode);
    QFETCH(QString, specials);
    AlignOptions options;
    options.include_specials = specials == QLatin1String("include");
    parseAlignMode(mode.toStdString(), options);
    const AerCounts want = engineCounts(options);
    QVERIFY(want.predicted > 0 && want.possible > want.gold);  // the data has possible links

    const ProcessRun r = runCli(
        {"eval", "--model", kModel, "--data", data_, "--json", "--align-mode", mode, "--align-specials", specials});
    QVERIFY2(r.code == 0, qPrintable(r.errText()));
    const json j = json::parse(r.out.toStdString());
    QCOMPARE(j["align_mode"].get<std::string>(), mode.toStdString());
    QCOMPARE(j["align_specials"].get<std::string>(), specials.toStdString());
    QCOMPARE(j["predicted_links"].get<int64_t>(), want.predicted);
    QCOMPARE(j["sure_links"].get<int64_t>(), want.gold);
    QCOMPARE(j["possible_links"].get<int64_t>(), want.possible);
    QVERIFY(std::abs(j["aer"].get<double>() - want.aer()) < 1e-12);
    QVERIFY(std::abs(j["alignment_precision"].get<double>() - want.precision()) < 1e-12);
    QVERIFY(std::abs(j["alignment_recall"].get<double>() - want.recall()) < 1e-12);
    // Sure links only would give another number whenever a predicted link is possible but not sure.
    if (want.overlap_possible != want.overlap)
        QVERIFY(std::abs(j["aer"].get<double>() -
                         (1.0 - 2.0 * double(want.overlap) / double(want.predicted + want.gold))) > 1e-6);

    const ProcessRun t = runCli({"eval", "--model", kModel, "--data", data_, "--align-mode", mode});
    QCOMPARE(t.code, 0);
    for (const char* key : {"aer", "alignment_precision", "alignment_recall"})
        QVERIFY2(QString::fromUtf8(t.out).contains(QLatin1String(key)), qPrintable(QString::fromUtf8(t.out)));
}

void TestCliEvalAlign::allModes() {
    const ProcessRun r = runCli({"eval", "--model", kModel, "--data", data_, "--json", "--align-mode", "all"});
    QVERIFY2(r.code == 0, qPrintable(r.errText()));
    const json j = json::parse(r.out.toStdString());
    QCOMPARE(j["align_mode"].get<std::string>(), std::string("argmax"));  // `aer` stays the default's
    QVERIFY(std::abs(j["aer"].get<double>() - engineCounts({}).aer()) < 1e-12);
    const json& modes = j["align_modes"];
    QCOMPARE(int(modes.size()), 6);
    for (const json& m : modes) {
        AlignOptions o;
        o.include_specials = m["align_specials"].get<std::string>() == "include";
        parseAlignMode(m["align_mode"].get<std::string>(), o);
        QVERIFY(std::abs(m["aer"].get<double>() - engineCounts(o).aer()) < 1e-12);
        QVERIFY(std::abs(m["alignment_recall"].get<double>() - engineCounts(o).recall()) < 1e-12);
    }
}

void TestCliEvalAlign::badValuesAreUsageErrors_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("unknown mode") << QStringList{"--align-mode", "best"}
                                  << "--align-mode: unknown alignment mode \"best\"";
    QTest::newRow("threshold 0") << QStringList{"--align-mode", "threshold:0"} << "--align-mode: bad threshold \"0\"";
    QTest::newRow("threshold 2") << QStringList{"--align-mode", "threshold:2"} << "--align-mode: bad threshold \"2\"";
    QTest::newRow("specials") << QStringList{"--align-specials", "maybe"} << "--align-specials";
}

void TestCliEvalAlign::badValuesAreUsageErrors() {
    QFETCH(QStringList, args);
    QFETCH(QString, mentions);
    const ProcessRun r = runCli(QStringList{"eval", "--model", kModel, "--data", data_} + args);
    QCOMPARE(r.code, 2);
    QVERIFY2(r.errText().contains(mentions), qPrintable(r.errText()));
    QVERIFY(r.out.isEmpty());
}

ATTNVIZ_TEST_MAIN(TestCliEvalAlign)
#include "test_cli_eval_align.moc"
