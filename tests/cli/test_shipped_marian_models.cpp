// The two Marian-layout folders the app ships (sample_models/tatoeba-marian/, sample_models/en_zh-marian/) meet the
// targets their READMEs give, measured the way a user would measure them with attnviz-cli on the test splits that
// sample_models/corpora/ makes: tatoeba-marian's char BLEU of at least 35, no <unk> in its test outputs, F16 weights
// in at most 15 MB, and a 15-word everyday sentence translated with its content words (bread, which the shipped model
// leaves out, an expected failure until a model gets it right); en_zh-marian translating its task and aligning,
// merged into words, with the gold links; and both writing Chinese full-width punctuation. A retrained model that
// regresses fails here.
#include "process_run.h"
#include "test_registry.h"

#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

using nlohmann::json;

namespace {

const QString kTatoebaMarian = QStringLiteral(ATTNVIZ_SOURCE_DIR "/sample_models/tatoeba-marian");
const QString kEnZhMarian = QStringLiteral(ATTNVIZ_SOURCE_DIR "/sample_models/en_zh-marian");

using ShippedRun = attnviz::testing::ProcessRun;

ShippedRun runShippedCli(const QStringList& args) { return attnviz::testing::runCli(args, 300000); }

// `model`'s decode of each line of `sources` (decode --input FILE --json, one JSON line each), FILE written first.
ShippedRun decodeEachLine(const QString& model, const QByteArray& sources, const QString& file) {
    QFile in(file);
    if (!in.open(QIODevice::WriteOnly) || in.write(sources) != sources.size() || !in.flush()) {
        ShippedRun failed;
        failed.err = "cannot write " + file.toUtf8();
        return failed;
    }
    in.close();
    return runShippedCli({"decode", "--model", model, "--input", file, "--json"});
}

// A safetensors file's header: its first 8 bytes are the header's length (little-endian), then the JSON.
json safetensorsHeader(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) return json{};
    const QByteArray size_bytes = file.read(8);
    if (size_bytes.size() != 8) return json{};
    quint64 size = 0;
    for (int i = 7; i >= 0; --i) size = size << 8 | quint8(size_bytes[i]);
    if (size > 1 << 20) return json{};
    return json::parse(file.read(qint64(size)).toStdString(), nullptr, false);
}

}  // namespace

class TestShippedMarianModels : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void tatoebaMarianReachesBleu35WithoutUnk();
    void tatoebaMarianIsF16InAtMost15MB();
    void aFifteenWordSentenceKeepsItsContentWords();
    void enZhMarianTranslatesAndAlignsMergedIntoWords();
    void chineseOutputsKeepFullWidthPunctuation_data();
    void chineseOutputsKeepFullWidthPunctuation();

private:
    QTemporaryDir dir_;
};

void TestShippedMarianModels::initTestCase() {
    QVERIFY(dir_.isValid());
    const QString python = QStandardPaths::findExecutable(QStringLiteral("python3"));
    QVERIFY2(!python.isEmpty(), "python3 is needed to make the test splits");
    const QString corpora = QStringLiteral(ATTNVIZ_SOURCE_DIR "/sample_models/corpora/");
    for (const QStringList& args : {QStringList{corpora + "tatoeba.py", "--out", dir_.path()},
                                    QStringList{corpora + "generate.py", "--out", dir_.path(), "--task", "en_zh"}}) {
        const ShippedRun split = attnviz::testing::runProcess(python, args, 120000);
        QVERIFY2(split.code == 0, split.err.constData());
    }
}

void TestShippedMarianModels::tatoebaMarianReachesBleu35WithoutUnk() {
    const QString test = dir_.filePath(QStringLiteral("tatoeba/test.tsv"));
    const ShippedRun eval = runShippedCli({"eval", "--model", kTatoebaMarian, "--data", test, "--json"});
    QVERIFY2(eval.code == 0, eval.err.constData());
    const json metrics = json::parse(eval.out.toStdString());
    QCOMPARE(metrics["lines"].get<int>(), 1000);
    const double bleu = metrics["bleu"].get<double>();
    QVERIFY2(bleu >= 35.0, qPrintable(QStringLiteral("char BLEU %1").arg(bleu)));  // the word Transformer's: 30.87

    QFile tsv(test);
    QVERIFY(tsv.open(QIODevice::ReadOnly));
    QByteArray sources;
    while (!tsv.atEnd()) sources += tsv.readLine().split('\t').first() + '\n';
    const ShippedRun decode =
        decodeEachLine(kTatoebaMarian, sources, dir_.filePath(QStringLiteral("tatoeba-sources.txt")));
    QVERIFY2(decode.code == 0, decode.err.constData());
    const QList<QByteArray> lines = decode.out.trimmed().split('\n');
    QCOMPARE(lines.size(), 1000);
    for (const QByteArray& line : lines) {
        const auto target = json::parse(line.toStdString())["target_tokens"].get<std::vector<std::string>>();
        QVERIFY2(std::find(target.begin(), target.end(), "<unk>") == target.end(), line.constData());
    }
}

void TestShippedMarianModels::tatoebaMarianIsF16InAtMost15MB() {
    const QString weights = kTatoebaMarian + QStringLiteral("/model.safetensors");
    QVERIFY2(QFileInfo(weights).size() <= 15'000'000, qPrintable(QString::number(QFileInfo(weights).size())));
    const json header = safetensorsHeader(weights);
    QVERIFY2(header.is_object() && header.size() > 10, header.dump().c_str());
    for (const auto& [name, tensor] : header.items()) {
        if (name == "__metadata__") continue;
        QVERIFY2(tensor["dtype"] == "F16", name.c_str());
    }
}

// Issue 43's sentence: the word Transformer gave 我哥和市场市市场很多，我的手机拿大量。 (no fruit, no bread). The shipped
// model gives 我哥哥和我去买新鲜水果和新鲜水果。 ("and I" kept; "the old market" lost, bread a second fresh fruit).
void TestShippedMarianModels::aFifteenWordSentenceKeepsItsContentWords() {
    const QString sentence = QStringLiteral("My brother and I went to the old market to buy fresh fruit and bread.");
    const ShippedRun decode = runShippedCli({"decode", "--model", kTatoebaMarian, "--json", sentence});
    QVERIFY2(decode.code == 0, decode.err.constData());
    const QString chinese = QString::fromStdString(json::parse(decode.out.toStdString())["text"].get<std::string>());
    for (const char* word : {"哥哥", "新鲜", "水果"})
        QVERIFY2(chinese.contains(QString::fromUtf8(word)), qPrintable(chinese + " lacks " + QString::fromUtf8(word)));
    QVERIFY2(!chinese.contains(QStringLiteral("<unk>")), qPrintable(chinese));
    // A known miss, kept in view: a model that gets bread right again passes here unexpectedly, and the test fails
    // until this line goes (sample_models/tatoeba-marian/README.md, "Long sentences").
    QEXPECT_FAIL("", "issue 43: the shipped model says 新鲜水果 (fresh fruit) twice and leaves bread out", Continue);
    QVERIFY2(chinese.contains(QString::fromUtf8("面包")), qPrintable(chinese + " lacks 面包 (bread)"));
}

void TestShippedMarianModels::enZhMarianTranslatesAndAlignsMergedIntoWords() {
    const QString test = dir_.filePath(QStringLiteral("en_zh/test.tsv"));
    const ShippedRun eval =
        runShippedCli({"eval", "--model", kEnZhMarian, "--data", test, "--merge", "both", "--json"});
    QVERIFY2(eval.code == 0, eval.err.constData());
    const json metrics = json::parse(eval.out.toStdString());
    const double exact = metrics["exact_match"].get<double>(), aer = metrics["aer"].get<double>();
    QVERIFY2(exact >= 0.95, qPrintable(QStringLiteral("exact match %1").arg(exact)));
    // Every line's merged words are the gold's, and the links are attention's (three seeds: 0.129 to 0.157).
    QCOMPARE(metrics["aligned_lines"].get<int>(), 1000);
    QVERIFY2(aer <= 0.20, qPrintable(QStringLiteral("AER %1").arg(aer)));
}

void TestShippedMarianModels::chineseOutputsKeepFullWidthPunctuation_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("split");
    QTest::addColumn<double>("least_share");
    QTest::newRow("tatoeba-marian") << kTatoebaMarian << QStringLiteral("tatoeba/test.tsv") << 0.8;
    QTest::newRow("en_zh-marian") << kEnZhMarian << QStringLiteral("en_zh/test.tsv") << 0.95;
}

// Both Chinese sides are trained with the "identity" normalization, so the models write the "，" and "？" of their
// corpora: with SentencePiece's default NFKC they would write "," and "?", which eval's scores (on references
// normalized the same way) do not see. The test lines whose reference has a full-width comma or question mark are
// decoded: no output has an ASCII one, and most (least_share) have a full-width one.
void TestShippedMarianModels::chineseOutputsKeepFullWidthPunctuation() {
    QFETCH(QString, model);
    QFETCH(QString, split);
    QFETCH(double, least_share);
    QFile tsv(dir_.filePath(split));
    QVERIFY(tsv.open(QIODevice::ReadOnly));
    QByteArray sources;
    int lines = 0;
    while (!tsv.atEnd()) {
        const QList<QByteArray> fields = tsv.readLine().split('\t');
        if (fields.size() < 2 || !(fields[1].contains("，") || fields[1].contains("？"))) continue;
        sources += fields[0].trimmed() + '\n';
        ++lines;
    }
    QVERIFY2(lines >= 50, qPrintable(QString::number(lines)));
    const ShippedRun decode = decodeEachLine(model, sources, dir_.filePath(QStringLiteral("punctuated-sources.txt")));
    QVERIFY2(decode.code == 0, decode.err.constData());
    int full_width = 0;
    for (const QByteArray& line : decode.out.trimmed().split('\n')) {
        const QString text = QString::fromStdString(json::parse(line.toStdString())["text"].get<std::string>());
        QVERIFY2(!text.contains(',') && !text.contains('?') && !text.contains('!'), qPrintable(text));
        full_width += text.contains(QStringLiteral("，")) || text.contains(QStringLiteral("？"));
    }
    QVERIFY2(full_width >= least_share * lines, qPrintable(QStringLiteral("%1 of %2").arg(full_width).arg(lines)));
}

ATTNVIZ_TEST_MAIN(TestShippedMarianModels)
#include "test_shipped_marian_models.moc"
