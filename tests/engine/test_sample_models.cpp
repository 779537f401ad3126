// The models the app ships with (sample_models/): every file loads, each task has an unguided bahdanau sibling for
// every score (the GUI's scoring toggle) and each word task exactly one guided one, the test metrics recorded in each
// model meet the targets of sample_models/README.md (AER is bounded for the guided models only; the unguided ones'
// AER is printed, not bounded), and typed sentences, not only the generator's templates, get the translations checked
// by eye when the models were trained. On the real-sentence task the four scorings attend visibly differently to the
// window's opening sentence. A retrained model that regresses fails here.
// ATTNVIZ_SAMPLE_MODELS=DIR checks the models of DIR instead (e.g. a retrain before its files are copied in).
#include "decode/decoding.h"
#include "eval/compare.h"
#include "io/model_file.h"
#include "io/siblings.h"
#include "model/model.h"
#include "test_registry.h"
#include "text/tokenizer.h"

#include <QDir>
#include <QtTest>
#include <nlohmann/json.hpp>
#include <set>

using namespace attnviz;

namespace {

QString sampleDir() {
    const QString dir = qEnvironmentVariable("ATTNVIZ_SAMPLE_MODELS");
    return dir.isEmpty() ? QStringLiteral(ATTNVIZ_SOURCE_DIR "/sample_models") : dir;
}

QString samplePath(const QString& name) { return QDir(sampleDir()).filePath(name + QStringLiteral(".safetensors")); }

const char* const kWordTasks[] = {"en_fr", "en_zh"};

}  // namespace

class TestSampleModels : public QObject {
    Q_OBJECT

private slots:
    void everyModelLoadsAndMeetsItsTargets();
    void everyTaskHasEveryScore();
    void eachWordTaskHasOneGuidedSibling();
    void tatoebaScoringsAttendDifferently();
    void typedSentences_data();
    void typedSentences();
};

void TestSampleModels::everyModelLoadsAndMeetsItsTargets() {
    const QStringList files = QDir(sampleDir()).entryList({QStringLiteral("*.safetensors")}, QDir::Files, QDir::Name);
    QVERIFY2(files.size() >= 16, qPrintable(files.join(' ')));  // en_fr 7, en_zh 5, dates 4 (tatoeba may add more)
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
        if (m.task != "tatoeba")  // real sentences: BLEU, not exact match (sample_models/README.md)
            QVERIFY2(exact >= (luong ? 0.90 : 0.95), qPrintable(QString("%1: exact match %2").arg(file).arg(exact)));
        if (!test.contains("aer") || test["aer"].is_null()) continue;
        const double aer = test["aer"].get<double>();
        // Guided alignment is what brings AER down; the unguided siblings show what attention learns by itself.
        if (isGuided(m.training, path.toStdString()))
            QVERIFY2(aer <= 0.10, qPrintable(QString("%1: AER %2").arg(file).arg(aer)));
        else
            qInfo("%s: AER %.3f (unguided, reported only)", qPrintable(file), aer);
    }
    QVERIFY2(bytes <= 50ll << 20, qPrintable(QString("%1 bytes").arg(bytes)));
}

void TestSampleModels::everyTaskHasEveryScore() {
    for (const char* task : {"en_fr", "en_zh", "dates", "tatoeba"}) {
        const QString path = samplePath(QString("%1-bahdanau-additive").arg(task));
        const Model m = loadModel(path.toStdString());
        QVERIFY2(!isGuided(m.training, path.toStdString()), task);  // the toggle moves among unguided models
        const Sibling self{path.toStdString(), m.config, false};
        for (ScoreKind score : {ScoreKind::Additive, ScoreKind::Dot, ScoreKind::ScaledDot, ScoreKind::General})
            QVERIFY2(matchingSibling(findSiblings(path.toStdString(), m), self, score),
                     qPrintable(QString("%1: %2").arg(task, QString::fromUtf8(toString(score).data()))));
    }
}

void TestSampleModels::eachWordTaskHasOneGuidedSibling() {
    for (const char* task : kWordTasks) {
        const QString path = samplePath(QString("%1-bahdanau-additive").arg(task));
        QStringList guided;
        for (const Sibling& s : findSiblings(path.toStdString(), loadModel(path.toStdString())))
            if (s.guided) guided << QFileInfo(QString::fromStdString(s.path)).completeBaseName();
        QCOMPARE(guided, QStringList{QString("%1-bahdanau-additive-guided").arg(task)});
    }
}

void TestSampleModels::tatoebaScoringsAttendDifferently() {
    // The window opens on tatoeba-bahdanau-additive with "I love you." and each scoring button moves to a sibling.
    // Forced onto the additive model's output so that the rows line up, every pair of siblings must differ by a mean
    // row TV of at least 0.1: a heatmap a user sees as different (siblings pulled onto the same gold links by guided
    // training differed by 0.03-0.11).
    const char* const scores[] = {"additive", "dot", "scaled_dot", "general"};
    const Model additive = loadModel(samplePath(QStringLiteral("tatoeba-bahdanau-additive")).toStdString());
    const std::string reference = detokenize(greedyDecode(additive, "I love you.").target_tokens, TokenizerKind::Char);
    QCOMPARE(QString::fromStdString(reference), QStringLiteral("我爱你。"));
    std::vector<DecodeResult> forced;
    for (const char* score : scores) {
        const Model m = loadModel(samplePath(QStringLiteral("tatoeba-bahdanau-%1").arg(score)).toStdString());
        forced.push_back(forcedDecode(m, "I love you.", reference));
    }
    for (size_t a = 0; a < forced.size(); ++a)
        for (size_t b = a + 1; b < forced.size(); ++b) {
            const double tv = comparisonSummary(compareAttention(forced[a], forced[b])).mean_tv;
            QVERIFY2(tv >= 0.1, qPrintable(QString("%1 vs %2: mean TV %3").arg(scores[a], scores[b]).arg(tv)));
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
    // Real sentences (Tatoeba, Chinese by character): the tutorials' example, and a question.
    QTest::newRow("tatoeba i love you") << "tatoeba-bahdanau-additive"
                                        << "I love you."
                                        << "我爱你。";
    QTest::newRow("tatoeba question") << "tatoeba-bahdanau-additive"
                                      << "Where is the train station?"
                                      << "火车站在哪里？";
    // The Transformer sibling: the sentences the bahdanau models got wrong or incomplete (the table of
    // sample_models/README.md).
    QTest::newRow("tatoeba transformer weather") << "tatoeba-transformer"
                                                 << "The weather is nice today."
                                                 << "今天天气很好。";
    QTest::newRow("tatoeba transformer have") << "tatoeba-transformer"
                                              << "I have two brothers."
                                              << "我有两个兄弟。";
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

ATTNVIZ_TEST_MAIN(TestSampleModels)
#include "test_sample_models.moc"
