// The models the app ships with (sample_models/): every file loads, each word task has a sibling for every score
// (the GUI's scoring toggle), the test metrics recorded in each model meet the targets of sample_models/README.md,
// and typed sentences, not only the generator's templates, get the translations checked by eye when the models were
// trained. A retrained model that regresses fails here.
#include "decode/decoding.h"
#include "io/model_file.h"
#include "model/model.h"

#include <QDir>
#include <QtTest>
#include <nlohmann/json.hpp>
#include <set>

using namespace attnviz;

namespace {

QString samplePath(const QString& name) {
    return QDir(QStringLiteral(ATTNVIZ_SOURCE_DIR "/sample_models")).filePath(name + QStringLiteral(".safetensors"));
}

}  // namespace

class TestSampleModels : public QObject {
    Q_OBJECT

private slots:
    void everyModelLoadsAndMeetsItsTargets();
    void everyTaskHasEveryScore();
    void typedSentences_data();
    void typedSentences();
};

void TestSampleModels::everyModelLoadsAndMeetsItsTargets() {
    const QStringList files = QDir(QStringLiteral(ATTNVIZ_SOURCE_DIR "/sample_models"))
                                  .entryList({QStringLiteral("*.safetensors")}, QDir::Files, QDir::Name);
    QCOMPARE(files.size(), 14);
    qint64 bytes = 0;
    for (const QString& file : files) {
        const QString path = samplePath(QFileInfo(file).completeBaseName());
        bytes += QFileInfo(path).size();
        Model m;
        try {
            m = loadModel(path.toStdString());
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
        QVERIFY2(!m.task.empty() && !m.description.empty(), qPrintable(file));
        const auto training = nlohmann::json::parse(m.training);
        QVERIFY2(training.contains("test"), qPrintable(file));
        const auto& test = training["test"];
        const bool luong = m.config.decoder == DecoderKind::Luong;
        const double exact = test["exact_match"].get<double>();
        QVERIFY2(exact >= (luong ? 0.90 : 0.95), qPrintable(QString("%1: exact match %2").arg(file).arg(exact)));
        const bool word_task = m.task != "dates";
        const bool needs_aer = word_task && m.config.span == SpanKind::Global &&
                               (m.config.score == ScoreKind::Additive || m.config.score == ScoreKind::General);
        if (needs_aer) {
            const double aer = test["aer"].get<double>();
            QVERIFY2(aer <= 0.10, qPrintable(QString("%1: AER %2").arg(file).arg(aer)));
        }
    }
    QVERIFY2(bytes <= 40ll << 20, qPrintable(QString("%1 bytes").arg(bytes)));
}

void TestSampleModels::everyTaskHasEveryScore() {
    for (const char* task : {"en_fr", "en_zh", "dates"}) {
        const QString path = samplePath(QString("%1-bahdanau-additive").arg(task));
        const Model m = loadModel(path.toStdString());
        std::set<ScoreKind> scores;
        for (const Sibling& s : findSiblings(path.toStdString(), m))
            if (s.config.decoder == DecoderKind::Bahdanau) scores.insert(s.config.score);
        QCOMPARE(int(scores.size()), 4);
    }
}

void TestSampleModels::typedSentences_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("source");
    QTest::addColumn<QString>("expected");
    const char* fr = "en_fr-bahdanau-additive";
    QTest::newRow("seed example") << fr << "the cat sat on the mat ."
                                  << "le chat s'est assis sur le tapis .";
    QTest::newRow("ne ... pas, du") << "en_fr-luong-general-feed"
                                    << "we did not see the small dog near the bridge ."
                                    << "nous n' avons pas vu le petit chien près du pont .";
    QTest::newRow("adjective after") << fr << "i will not eat the red apple tomorrow ."
                                     << "je ne mangerai pas la pomme rouge demain .";
    QTest::newRow("local_p") << "en_fr-luong-general-local_p"
                             << "the old king gave a book to the queen ."
                             << "le vieux roi a donné un livre à la reine .";
    QTest::newRow("i love you") << "en_zh-bahdanau-dot"
                                << "i love you"
                                << "我 爱 你";
    QTest::newRow("time word first") << "en_zh-bahdanau-additive"
                                     << "i ate an apple yesterday"
                                     << "我 昨天 吃 了 一个 苹果";
    QTest::newRow("date words") << "dates-bahdanau-additive"
                                << "saturday 9 may 2018"
                                << "2018-05-09";
    QTest::newRow("date slashes") << "dates-bahdanau-general"
                                  << "5/9/18"
                                  << "2018-05-09";
    QTest::newRow("date ordinal") << "dates-bahdanau-dot"
                                  << "May 9th, 2018"
                                  << "2018-05-09";
}

void TestSampleModels::typedSentences() {
    QFETCH(QString, model);
    QFETCH(QString, source);
    QFETCH(QString, expected);
    const Model m = loadModel(samplePath(model).toStdString());
    const DecodeResult r = greedyDecode(m, source.toStdString());
    QStringList out;
    for (const std::string& t : r.target_tokens)
        if (t != "<eos>") out << QString::fromStdString(t);
    const bool chars = m.config.tokenizer.target == TokenizerKind::Char;
    QCOMPARE(out.join(chars ? QString() : QStringLiteral(" ")), expected);
}

QTEST_GUILESS_MAIN(TestSampleModels)
#include "test_sample_models.moc"
