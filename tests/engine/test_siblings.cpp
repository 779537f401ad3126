// Siblings that differ in more than the score (core/io/siblings.h): which files are siblings, which are guided (the
// `training` metadata first, the "-guided" file name only without it), which sibling the scoring toggle and
// `--score` move to (the same settings but the score, never a model that differs in more), and the words that say
// what a sibling has that the open model has not.
#include "io/model_file.h"
#include "io/siblings.h"
#include "test_models.h"
#include "test_registry.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

using namespace attnviz;
using attnviz::testing::saveInto;
using attnviz::testing::smallConfig;
using attnviz::testing::smallModel;

namespace {

Model withTraining(Model m, const std::string& training) {
    m.training = training;
    return m;
}

const std::string kUnguided = R"({"align_weight": 0, "epochs": 3})";
const std::string kGuided = R"({"align_weight": 1, "epochs": 3})";

QString base(const std::string& path) { return QFileInfo(QString::fromStdString(path)).completeBaseName(); }

}  // namespace

class TestSiblings : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void guidanceFromMetadataThenName_data();
    void guidanceFromMetadataThenName();
    void findSiblingsMarksGuidedOnes();
    void scoringMovesOnlyToTheSameSettings_data();
    void scoringMovesOnlyToTheSameSettings();
    void differencesNameWhatTheOtherHas_data();
    void differencesNameWhatTheOtherHas();
    void globalSpansIgnoreTheWindow();
    void transformerSizesAreItsOwn();

private:
    Sibling load(const QString& name) const;

    QTemporaryDir dir_;
    std::vector<Sibling> siblings_;  // of the bahdanau additive model
};

void TestSiblings::initTestCase() {
    QVERIFY(dir_.isValid());
    using DK = DecoderKind;
    using SK = ScoreKind;
    // One task, one pair of vocabularies; the settings vary one or several at a time. The luong dot file sorts
    // before the bahdanau one, so "the first file with that score" would be the wrong pick.
    saveInto(withTraining(smallModel(smallConfig(DK::Bahdanau, SK::Additive), 1), kUnguided), dir_,
             "t-bahdanau-additive.safetensors");
    saveInto(withTraining(smallModel(smallConfig(DK::Bahdanau, SK::Dot), 2), kUnguided), dir_,
             "t-bahdanau-dot.safetensors");
    saveInto(withTraining(smallModel(smallConfig(DK::Bahdanau, SK::General), 3), kUnguided), dir_,
             "t-bahdanau-general.safetensors");
    saveInto(withTraining(smallModel(smallConfig(DK::Bahdanau, SK::Additive), 4), kGuided), dir_,
             "t-bahdanau-additive-guided.safetensors");
    saveInto(withTraining(smallModel(smallConfig(DK::Luong, SK::Dot), 5), kUnguided), dir_, "a-luong-dot.safetensors");
    saveInto(withTraining(smallModel(smallConfig(DK::Luong, SK::General, SpanKind::Global, true), 6), kUnguided), dir_,
             "t-luong-general-feed.safetensors");
    saveInto(withTraining(smallModel(smallConfig(DK::Luong, SK::General, SpanKind::LocalP, true), 7), kUnguided), dir_,
             "t-luong-general-local_p.safetensors");
    saveInto(
        withTraining(smallModel(smallConfig(DK::Bahdanau, SK::ScaledDot, SpanKind::Global, false, 8), 8), kUnguided),
        dir_, "t-bahdanau-scaled_dot-e8.safetensors");
    // Guided by name only (no training record); metadata that contradicts the name wins.
    saveInto(smallModel(smallConfig(DK::Bahdanau, SK::Dot), 9), dir_, "t-bahdanau-dot-guided.safetensors");
    saveInto(withTraining(smallModel(smallConfig(DK::Bahdanau, SK::General), 10), kUnguided), dir_,
             "t-bahdanau-general-guided.safetensors");
    // Another task: not a sibling.
    Model other = withTraining(smallModel(smallConfig(DK::Bahdanau, SK::ScaledDot), 11), kUnguided);
    other.task = "other-task";
    saveInto(other, dir_, "o-bahdanau-scaled_dot.safetensors");

    const std::string path = dir_.filePath("t-bahdanau-additive.safetensors").toStdString();
    siblings_ = findSiblings(path, loadModel(path));
}

Sibling TestSiblings::load(const QString& name) const {
    for (const Sibling& s : siblings_)
        if (base(s.path) == name) return s;
    qFatal("no sibling %s", qPrintable(name));
    return {};
}

void TestSiblings::guidanceFromMetadataThenName_data() {
    QTest::addColumn<QString>("training");
    QTest::addColumn<QString>("path");
    QTest::addColumn<bool>("guided");
    QTest::newRow("metadata says guided") << QString::fromStdString(kGuided) << "m/x-additive.safetensors" << true;
    QTest::newRow("metadata says unguided, name guided")
        << QString::fromStdString(kUnguided) << "m/x-additive-guided.safetensors" << false;
    QTest::newRow("weight 0.25") << R"({"align_weight": 0.25})"
                                 << "x.safetensors" << true;
    QTest::newRow("no record, name guided") << ""
                                            << "m/x-additive-guided.safetensors" << true;
    QTest::newRow("no record, plain name") << ""
                                           << "m/x-additive.safetensors" << false;
    QTest::newRow("not JSON, name guided") << "trained by hand"
                                           << "x-guided.safetensors" << true;
    QTest::newRow("no align_weight key") << R"({"epochs": 3})"
                                         << "x.safetensors" << false;
    QTest::newRow("align_weight not a number") << R"({"align_weight": "1"})"
                                               << "x-guided.safetensors" << true;
    QTest::newRow("guided inside the name only") << ""
                                                 << "x-guided-dot.safetensors" << false;
}

void TestSiblings::guidanceFromMetadataThenName() {
    QFETCH(QString, training);
    QFETCH(QString, path);
    QFETCH(bool, guided);
    QCOMPARE(isGuided(training.toStdString(), path.toStdString()), guided);
}

void TestSiblings::findSiblingsMarksGuidedOnes() {
    QStringList got;
    for (const Sibling& s : siblings_) got << base(s.path) + (s.guided ? "+" : "");
    // Sorted by score, then path ("-guided" sorts before ".safetensors"); the other task's file is left out.
    const QStringList want = {"t-bahdanau-additive-guided+", "t-bahdanau-additive", "a-luong-dot",
                              "t-bahdanau-dot-guided+",      "t-bahdanau-dot",      "t-bahdanau-scaled_dot-e8",
                              "t-bahdanau-general-guided",   "t-bahdanau-general",  "t-luong-general-feed",
                              "t-luong-general-local_p"};
    QCOMPARE(got, want);
}

void TestSiblings::scoringMovesOnlyToTheSameSettings_data() {
    QTest::addColumn<QString>("from");
    QTest::addColumn<int>("score");
    QTest::addColumn<QString>("to");  // "" = none
    const int additive = int(ScoreKind::Additive), dot = int(ScoreKind::Dot), scaled = int(ScoreKind::ScaledDot),
              general = int(ScoreKind::General);
    QTest::newRow("bahdanau dot, not luong dot") << "t-bahdanau-additive" << dot << "t-bahdanau-dot";
    // t-bahdanau-general-guided is unguided by its metadata: it and t-bahdanau-general both match; the first by path.
    QTest::newRow("metadata beats the -guided name") << "t-bahdanau-additive" << general << "t-bahdanau-general-guided";
    QTest::newRow("scaled dot only with other sizes") << "t-bahdanau-additive" << scaled << "";
    QTest::newRow("own score: itself") << "t-bahdanau-additive" << additive << "t-bahdanau-additive";
    QTest::newRow("guided: guided dot (by name)") << "t-bahdanau-additive-guided" << dot << "t-bahdanau-dot-guided";
    QTest::newRow("guided: no guided general") << "t-bahdanau-additive-guided" << general << "";
    QTest::newRow("luong dot back: no luong additive") << "a-luong-dot" << additive << "";
    QTest::newRow("luong dot: feeding differs") << "a-luong-dot" << general << "";
    QTest::newRow("feed: global only") << "t-luong-general-feed" << dot << "";
    QTest::newRow("unguided dot back to additive") << "t-bahdanau-dot" << additive << "t-bahdanau-additive";
    QTest::newRow("metadata beats name") << "t-bahdanau-general-guided" << additive << "t-bahdanau-additive";
}

void TestSiblings::scoringMovesOnlyToTheSameSettings() {
    QFETCH(QString, from);
    QFETCH(int, score);
    QFETCH(QString, to);
    const Sibling current = load(from);
    const std::optional<Sibling> pick = matchingSibling(siblings_, current, ScoreKind(score));
    QCOMPARE(pick ? base(pick->path) : QString(), to);
    if (pick) {
        QVERIFY(pick->config.score == ScoreKind(score));
        QVERIFY(sameSettingsButScore(*pick, current));
    }
}

void TestSiblings::differencesNameWhatTheOtherHas_data() {
    QTest::addColumn<QString>("from");
    QTest::addColumn<QString>("other");
    QTest::addColumn<QString>("text");
    QTest::newRow("luong, feeding") << "t-bahdanau-additive"
                                    << "t-luong-general-feed"
                                    << "luong · general · input feeding";
    QTest::newRow("local_p") << "t-bahdanau-additive"
                             << "t-luong-general-local_p"
                             << "luong · general · local_p, D = 2 · input feeding";
    QTest::newRow("span back") << "t-luong-general-local_p"
                               << "t-luong-general-feed"
                               << "global";
    QTest::newRow("guided") << "t-bahdanau-additive"
                            << "t-bahdanau-additive-guided"
                            << "guided";
    QTest::newRow("unguided dot") << "t-bahdanau-additive-guided"
                                  << "t-bahdanau-dot"
                                  << "dot · unguided";
    QTest::newRow("sizes") << "t-bahdanau-additive"
                           << "t-bahdanau-scaled_dot-e8"
                           << "scaled_dot · E 8, H 4/8";
    QTest::newRow("back to bahdanau") << "t-luong-general-feed"
                                      << "a-luong-dot"
                                      << "dot · no input feeding";
    QTest::newRow("itself") << "t-bahdanau-dot"
                            << "t-bahdanau-dot"
                            << "same settings";
}

void TestSiblings::differencesNameWhatTheOtherHas() {
    QFETCH(QString, from);
    QFETCH(QString, other);
    QFETCH(QString, text);
    QCOMPARE(QString::fromStdString(describeDifferences(load(from), load(other))), text);
}

// A Transformer has no embedding and GRU sizes: it is described by d_model, heads and layers, never "E 0, H 0/0".
void TestSiblings::transformerSizesAreItsOwn() {
    Sibling rnn{"rnn.safetensors", smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), false};
    Sibling t{"t.safetensors", rnn.config, false};
    t.config.decoder = DecoderKind::Transformer;
    t.config.score = ScoreKind::ScaledDot;
    t.config.transformer = {128, 4, 2, 2, 512, true, Activation::Relu};
    QCOMPARE(QString::fromStdString(sizesSummary(t.config)), QStringLiteral("d 128, 4 heads, 2+2 layers"));
    QCOMPARE(QString::fromStdString(describeDifferences(rnn, t)),
             QStringLiteral("transformer · scaled_dot · d 128, 4 heads, 2+2 layers"));
    Sibling wider = t;
    wider.config.transformer.setHeads(8);
    wider.config.transformer.num_decoder_layers = 3;
    QCOMPARE(QString::fromStdString(describeDifferences(t, wider)), QStringLiteral("d 128, 8 heads, 2+3 layers"));
    QCOMPARE(QString::fromStdString(sizesSummary(rnn.config)), QStringLiteral("E %1, H %2/%3")
                                                                   .arg(rnn.config.emb_dim)
                                                                   .arg(rnn.config.enc_hid_dim)
                                                                   .arg(rnn.config.dec_hid_dim));
}

void TestSiblings::globalSpansIgnoreTheWindow() {
    Sibling a{"a.safetensors", smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), false};
    Sibling b{"b.safetensors", smallConfig(DecoderKind::Bahdanau, ScoreKind::Dot), false};
    b.config.window = 7;  // meaningless for a global span
    QVERIFY(sameSettingsButScore(a, b));
    QCOMPARE(QString::fromStdString(describeDifferences(a, b)), QStringLiteral("dot"));
    a.config = smallConfig(DecoderKind::Luong, ScoreKind::General, SpanKind::LocalM);
    b.config = a.config;
    b.config.score = ScoreKind::Dot;
    b.config.window = 7;
    QVERIFY(!sameSettingsButScore(a, b));
    QCOMPARE(QString::fromStdString(describeDifferences(a, b)), QStringLiteral("dot · D = 7"));
}

ATTNVIZ_TEST_MAIN(TestSiblings)
#include "test_siblings.moc"
