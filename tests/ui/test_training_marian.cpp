// The training window with a Marian in the Hugging Face layout (docs/marian.md "Training a Marian-layout model of
// your own"), driven as a user would: the kind "Marian" shows the Transformer's sizes (no layer norm, Marian's
// activations), the SentencePiece sizes and languages, with sample_models/configs/tatoeba-marian.json's sizes; a tiny
// Marian trained through the window's job and worker has snapshots that are the engine's decodes of the probe's
// pieces (checked by another route: core's makeMarianModel and trainModel without the window), writes a folder that
// loads with the trained parameters and opens in the main window; a corpus too small for the pieces asked says the
// size it allows (core's trainSentencePiece); an occupied folder is replaced only when the user agrees, a failed write
// leaves no folder, a pause leaves a whole one; the settings are offered again next session.
#include "main_window_fixture.h"
#include "marian_folders.h"
#include "test_files.h"
#include "training_window_fixture.h"

#include "base/errors.h"
#include "io/atomic_file.h"
#include "io/corpus.h"
#include "io/model_file.h"
#include "test_registry.h"
#include "text/sentencepiece_model.h"
#include "text/sentencepiece_training.h"
#include "train/corpus_training.h"
#include "train/marian_start.h"
#include "training/marian_fields.h"
#include "training/training_form.h"
#include "training/training_settings_store.h"
#include "training/training_window.h"
#include "training/transformer_fields.h"

#include <QComboBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFormLayout>
#include <QGuiApplication>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest>
#include <nlohmann/json.hpp>

#include <cerrno>
#include <filesystem>
#include <fstream>

using namespace attnviz;
using namespace attnviz::ui;

namespace {

const std::string kProbe = "the cat sat on the old bridge";

// source<TAB>target: a generated English-like line and its characters reversed (the CLI's Marian test corpus).
void writeMarianCorpus(const QString& path, int lines) {
    std::ofstream out(path.toStdString());
    for (const std::string& line : testing::marianTestLines(lines))
        out << line << '\t' << std::string(line.rbegin(), line.rend()) << '\n';
}

// 300 lines in batches of 32 (10 updates an epoch), a Marian small enough to train in a second: d_model 16, 2 heads,
// 1 + 1 layers, F 32, swish, 60 pieces a side.
TrainingSettings tinyMarian(const QString& dir, int epochs) {
    TrainingSettings s;
    s.corpus = dir + "/marian.tsv";
    s.task = QStringLiteral("reversed");
    MarianArchitecture a = marianArchitectureFromJson(nlohmann::json::parse(
        R"({"model_type": "marian", "d_model": 16, "encoder_layers": 1, "decoder_layers": 1,)"
        R"( "encoder_attention_heads": 2, "decoder_attention_heads": 2, "encoder_ffn_dim": 32, "decoder_ffn_dim": 32,)"
        R"( "activation_function": "swish", "max_position_embeddings": 128})"));
    a.source_pieces = a.target_pieces = 60;
    a.source_lang = "en";
    a.target_lang = "xx";
    s.marian = a;
    s.config = marianModelConfig(a);
    s.options.lr = 0.005;
    s.options.warmup = 3;
    s.options.batch_size = 32;
    s.options.epochs = epochs;
    s.options.clip = 1.0;
    s.options.dropout = 0.1f;
    s.options.seed = 5;
    s.options.threads = 2;
    s.snapshot_every = 5;
    s.probe = QString::fromStdString(kProbe);
    s.out = dir + "/out/reversed-marian";
    return s;
}

// Core alone, as `attnviz-cli train --config` does it: the raw corpus, makeMarianModel's pieces and weights, `steps`
// updates of the same options.
Model marianTrainedByCore(const TrainingSettings& s, int64_t steps, std::vector<TrainProgress>* reports = nullptr) {
    const Corpus corpus = readCorpus(s.corpus.toStdString(), CorpusOptions{true, std::nullopt});
    return testing::trainedForSteps(makeMarianModel(corpus, *s.marian, s.options.seed), corpus, s, steps, reports);
}

QPushButton* buttonNamed(const QWidget& w, const QString& text) {
    for (QPushButton* b : w.findChildren<QPushButton*>())
        if (b->text() == text) return b;
    return nullptr;
}

// Every parameter, in the writer's order.
std::vector<float> flatParameters(const Model& m) {
    std::vector<float> out;
    Model copy = m;
    forEachTransformerTensor(copy.transformer, copy.transformerShape(),
                             [&](const std::string&, const std::vector<int64_t>&, const auto& t) {
                                 out.insert(out.end(), t.data(), t.data() + t.size());
                             });
    return out;
}

void typeInto(QAbstractSpinBox* box, const QString& value) {
    box->setFocus();
    box->selectAll();
    QTest::keyClicks(box, value);
    QTest::keyClick(box, Qt::Key_Return);
}

void choose(QComboBox* box, const QString& data) {
    const int index = box->findData(data);
    QVERIFY2(index >= 0, qPrintable(data));
    box->setCurrentIndex(index);
}

QStringList itemData(const QComboBox* box) {
    QStringList out;
    for (int i = 0; i < box->count(); ++i) out << box->itemData(i).toString();
    return out;
}

}  // namespace

class TestTrainingMarian : public QObject, attnviz::testing::MainWindowFixture {
    Q_OBJECT
private slots:
    void initTestCase();
    void formOffersMarianWithTheSampleSizes();
    void eachKindKeepsItsOwnSizes();
    void sampleCorporaStartWithTheirDefaults();
    void snapshotsAreTheEnginesDecodesAndTheFolderLoads();
    void tooSmallCorpusSaysTheSizeItAllows();
    void theFormsCharacterCoverageLetsRareCharactersGo();
    void startSaysItTrainsThePiecesUnderAWaitCursor();
    void theWindowKeepsRunningWhileThePiecesTrain();
    void occupiedFolderIsReplacedOnlyWhenAgreed();
    void trainingGoesOnFromAFolder();
    void failedWriteLeavesNoFolder();
    void pauseLeavesAWholeFolder();
    void settingsAreOfferedAgain();

private:
    void runToEnd(TrainingWindow& w, const TrainingSettings& s);
    QTemporaryDir dir_;
};

void TestTrainingMarian::initTestCase() {
    setUpWindowTests(QStringLiteral("attnviz-test-training-marian"));
    QVERIFY(dir_.isValid());
    writeMarianCorpus(dir_.filePath("marian.tsv"), 300);
}

void TestTrainingMarian::runToEnd(TrainingWindow& w, const TrainingSettings& s) {
    w.form()->applySettings(s);
    QSignalSpy done(&w, &TrainingWindow::trainingFinished);
    QVERIFY2(w.start(), qPrintable(w.lastError()));
    QVERIFY(done.wait(120000));
    QVERIFY2(w.lastError().isEmpty(), qPrintable(w.lastError()));
}

// The kind "Marian" shows the Transformer's sizes without the layer norm, Marian's activations, the pieces and the
// languages, and hides the tokenizers, minimum frequency, guidance and the RNN rows; its sizes are the sample Marian's
// (read here from its config file by core); what is typed is what settings() returns; the model is a folder.
void TestTrainingMarian::formOffersMarianWithTheSampleSizes() {
    TrainingWindow w;
    w.show();
    TrainingForm* f = w.form();
    f->setCorpusFile(dir_.filePath("marian.tsv"));
    choose(f->decoderBox(), kMarianKind);
    QCOMPARE(f->decoderBox()->currentText(), QStringLiteral("Marian (Hugging Face layout, SentencePiece)"));
    TransformerFields* t = f->transformerFields();
    MarianFields* m = f->marianFields();
    QVERIFY(f->isRowShown(t->dModelBox()) && f->isRowShown(t->activationBox()) && f->isRowShown(m->piecesRow()));
    QVERIFY(!f->isRowShown(t->normBox()) && !f->isRowShown(f->scoreBox()) && !f->isRowShown(f->guidanceBox()));
    QCOMPARE(itemData(t->activationBox()), (QStringList{"swish", "relu", "gelu", "gelu_new"}));
    QVERIFY(!w.siblingsButton()->isEnabled());
    QVERIFY(f->outEdit()->text().endsWith(QStringLiteral("/marian-marian-trained")));  // the task: the file's name
    const auto* out_label = qobject_cast<QLabel*>(qobject_cast<QFormLayout*>(f->layout())->labelForField(f->outEdit()));
    QVERIFY(out_label);
    QCOMPARE(out_label->text(), QStringLiteral("Model folder:"));

    const MarianArchitecture sample = marianArchitectureFromJson(nlohmann::json::parse(
        attnviz::testing::readFile(QStringLiteral(ATTNVIZ_SOURCE_DIR "/sample_models/configs/tatoeba-marian.json"))
            .toStdString()));
    QVERIFY(f->settings().marian && f->settings().marian->transformer == sample.transformer);
    QVERIFY(defaultMarianArchitecture(QStringLiteral("tatoeba")).transformer == sample.transformer);
    QCOMPARE(m->sourcePiecesBox()->minimum(), kMinSentencePieceVocab);  // 0 cannot be typed
    QCOMPARE(m->sourcePiecesBox()->maximum(), kMaxSentencePieceVocab);

    typeInto(t->dModelBox(), QStringLiteral("32"));
    typeInto(t->nheadBox(), QStringLiteral("4"));
    typeInto(t->encoderLayersBox(), QStringLiteral("2"));
    typeInto(t->decoderLayersBox(), QStringLiteral("1"));
    typeInto(t->feedForwardBox(), QStringLiteral("64"));
    choose(t->activationBox(), QStringLiteral("gelu_new"));
    typeInto(m->sourcePiecesBox(), QStringLiteral("80"));
    typeInto(m->targetPiecesBox(), QStringLiteral("90"));
    m->sourceLangEdit()->setText(QStringLiteral("en"));
    m->targetLangEdit()->setText(QStringLiteral("de"));
    const QStringList rules{"nmt_nfkc", "nfkc", "nmt_nfkc_cf", "nfkc_cf", "identity"};
    for (QComboBox* box : {m->sourceNormalizationBox(), m->targetNormalizationBox()}) {
        QVERIFY(box->isVisibleTo(&w));
        QCOMPARE(box->currentText(), QStringLiteral("nmt_nfkc"));
        QCOMPARE(itemData(box), rules);
    }
    choose(m->targetNormalizationBox(), QStringLiteral("identity"));
    const TrainingSettings s = f->settings();
    QVERIFY(s.marian.has_value());
    const TransformerConfig& got = s.marian->transformer;
    QCOMPARE(got.d_model, 32);
    QCOMPARE(got.encoder_nhead, 4);
    QCOMPARE(got.decoder_nhead, 4);
    QCOMPARE(got.num_encoder_layers, 2);
    QCOMPARE(got.num_decoder_layers, 1);
    QCOMPARE(got.encoder_dim_feedforward, 64);
    QCOMPARE(got.decoder_dim_feedforward, 64);
    QCOMPARE(int(got.activation), int(Activation::GeluTanh));
    QCOMPARE(got.max_positions, sample.transformer.max_positions);  // the sample's, not a field
    QCOMPARE(s.marian->source_pieces, 80);
    QCOMPARE(s.marian->target_pieces, 90);
    QCOMPARE(s.marian->source_lang, std::string("en"));
    QCOMPARE(s.marian->target_lang, std::string("de"));
    QCOMPARE(s.marian->source_normalization, std::string("nmt_nfkc"));
    QCOMPARE(s.marian->target_normalization, std::string("identity"));
    QVERIFY(s.config == marianModelConfig(*s.marian));
    validateConfig(s.config);
    QVERIFY(w.startButton()->isEnabled());

    typeInto(t->nheadBox(), QStringLiteral("5"));  // core's rule, said under the field, Start off
    QVERIFY(!w.startButton()->isEnabled());
    QVERIFY2(t->problemLabel()->text().contains(QStringLiteral("5 heads do not divide the model size 32")),
             qPrintable(t->problemLabel()->text()));
}

// Moving between Transformer and Marian, the shared rows show each kind's own sizes and activations, and the typed
// ones come back.
void TestTrainingMarian::eachKindKeepsItsOwnSizes() {
    TrainingWindow w;
    TrainingForm* f = w.form();
    f->setCorpusFile(dir_.filePath("marian.tsv"));
    TransformerFields* t = f->transformerFields();
    choose(f->decoderBox(), QStringLiteral("transformer"));
    typeInto(t->dModelBox(), QStringLiteral("48"));
    choose(f->decoderBox(), kMarianKind);
    QCOMPARE(t->dModelBox()->value(), 256);
    QCOMPARE(t->activationBox()->currentData().toString(), QStringLiteral("swish"));
    typeInto(t->dModelBox(), QStringLiteral("64"));
    choose(f->decoderBox(), QStringLiteral("transformer"));
    QCOMPARE(t->dModelBox()->value(), 48);
    QCOMPARE(itemData(t->activationBox()), (QStringList{"relu", "gelu"}));
    QVERIFY(f->isRowShown(t->normBox()) && !f->isRowShown(f->marianFields()->piecesRow()));
    QVERIFY(!f->settings().marian);
    choose(f->decoderBox(), kMarianKind);
    QCOMPARE(f->settings().marian->transformer.d_model, 64);
}

// The defaults proposed for each sample corpus start: its first 4,000 lines allow the pieces asked on both sides.
// The Chinese of Tatoeba and en_zh keeps its full-width question mark ("？" a piece of its own, not NFKC's "?").
void TestTrainingMarian::sampleCorporaStartWithTheirDefaults() {
    const std::vector<SampleCorpus> corpora = findSampleCorpora();
    if (corpora.empty()) QSKIP("the sample corpora are not built (target attnviz_corpora)");
    for (const SampleCorpus& c : corpora) {
        TrainingSettings s = defaultMarianSettings(c.task);
        s.corpus = c.train;
        try {
            const TrainingJob job = prepareTrainingJob(s);
            QVERIFY(job.model->marian && job.model->source_spm && job.model->target_spm);
            // the pieces asked, their 3 specials (<unk>, <s>, </s>) included
            QCOMPARE(int(job.model->source_spm->normalPieces().size()) + 3, s.marian->source_pieces);
            QCOMPARE(int(job.model->target_spm->normalPieces().size()) + 3, s.marian->target_pieces);
            if (c.task == QLatin1String("tatoeba") || c.task == QLatin1String("en_zh"))
                QVERIFY2(job.model->target_spm->hasPiece("？"), qPrintable(c.task));
        } catch (const std::exception& e) {
            QFAIL(qPrintable(c.task + QStringLiteral(": ") + QString::fromStdString(e.what())));
        }
    }
}

// Two epochs (20 updates) of the tiny Marian: every snapshot is the decode, by the model core trains that many
// updates, of the probe's pieces (SentencePiece's "▁"-marked pieces); the folder holds the trained parameters, loads
// as a Marian and opens in the main window.
void TestTrainingMarian::snapshotsAreTheEnginesDecodesAndTheFolderLoads() {
    TrainingWindow w;
    const TrainingSettings s = tinyMarian(dir_.path(), 2);
    runToEnd(w, s);
    QCOMPARE(int(w.lastReport().status), int(TrainStatus::Completed));
    QCOMPARE(w.lastReport().steps, int64_t(20));
    const auto& snaps = w.history().snapshots;
    QCOMPARE(snaps.size(), size_t(5));  // updates 0, 5, 10, 15, 20
    for (size_t i = 0; i < snaps.size(); ++i) {
        const DecodeResult want = greedyDecode(marianTrainedByCore(s, int64_t(5 * i)), kProbe);
        QCOMPARE(snaps[i].progress.step, int64_t(5 * i));
        QVERIFY2(snaps[i].decode.attention == want.attention, qPrintable(QString("update %1").arg(5 * i)));
        QVERIFY(snaps[i].decode.source_tokens == want.source_tokens);
    }
    QVERIFY(snaps.front().decode.attention != snaps.back().decode.attention);  // it learnt
    std::vector<TrainProgress> core_reports;  // the curves: every update's loss, the engine's
    marianTrainedByCore(s, 20, &core_reports);
    QCOMPARE(w.history().reports.size(), core_reports.size());
    for (size_t i = 0; i < core_reports.size(); ++i) {
        QCOMPARE(w.history().reports[i].step, core_reports[i].step);
        QCOMPARE(w.history().reports[i].loss, core_reports[i].loss);
    }
    QVERIFY2(QString::fromStdString(snaps.back().decode.source_tokens.front()).startsWith(QChar(0x2581)),
             snaps.back().decode.source_tokens.front().c_str());

    const QString folder = w.modelPath();
    QCOMPARE(folder, QDir::cleanPath(s.out));
    for (const char* file : {"config.json", "generation_config.json", "tokenizer_config.json", "vocab.json",
                             "source.spm", "target.spm", "model.safetensors"})
        QVERIFY2(QFile::exists(folder + "/" + file), file);
    const Model saved = loadModel(folder.toStdString());
    QVERIFY(saved.marian.has_value());
    QCOMPARE(saved.marian->target_lang, std::string("xx"));
    QVERIFY(flatParameters(saved) == flatParameters(*w.trainedModel()));
    QVERIFY(flatParameters(saved) == flatParameters(marianTrainedByCore(s, 20)));
    QVERIFY(greedyDecode(saved, kProbe).attention == snaps.back().decode.attention);
    QPushButton* open = buttonNamed(w, QStringLiteral("&Open in the main window"));
    QPushButton* sibling = buttonNamed(w, QStringLiteral("Save as &sibling…"));
    QVERIFY(open && sibling);
    QVERIFY(open->isEnabled() && !sibling->isEnabled());  // a Hugging Face folder is no sibling file
    QSignalSpy opened(&w, &TrainingWindow::openModelRequested);
    open->click();
    QCOMPARE(opened.size(), 1);
    QCOMPARE(opened.front().front().toString(), folder);

    openWindow();
    QVERIFY(w_->openModel(folder));
    QVERIFY(w_->model() && w_->model()->marian);
    closeWindow();
}

// 5,000 pieces from 300 lines: Start says what core's trainer says, the size the corpus allows, and writes nothing;
// a size outside core's range (0) is refused by core's rule.
void TestTrainingMarian::tooSmallCorpusSaysTheSizeItAllows() {
    TrainingSettings s = tinyMarian(dir_.path(), 1);
    s.out = dir_.filePath("never");
    s.marian->source_pieces = 5000;
    std::string core_says;
    try {
        trainSentencePiece(testing::marianTestLines(300), {5000, s.options.seed, 1.0, 1000000});
    } catch (const InputError& e) {
        core_says = e.what();
    }
    QVERIFY2(core_says.find("it has pieces for at most ") != std::string::npos, core_says.c_str());
    TrainingWindow w;
    w.form()->applySettings(s);
    QVERIFY(!w.start());
    QVERIFY2(w.lastError().contains(QStringLiteral("the source side: ") + QString::fromStdString(core_says)),
             qPrintable(w.lastError()));
    QVERIFY(w.statusLabel()->text().contains(QString::fromStdString(core_says)));
    QVERIFY(!QFileInfo::exists(s.out));

    s.marian->source_pieces = 0;  // only settings made outside the form can hold it
    try {
        prepareTrainingJob(s);
        QFAIL("a vocabulary of 0 pieces was accepted");
    } catch (const InputError& e) {
        QVERIFY2(std::string(e.what()).find("vocabulary size 0: must be from 4 to 1000000") != std::string::npos,
                 e.what());
    }
}

// 200 targets, each the same 8 characters and one of its own: 172 target pieces cannot hold the 211 characters, and
// Start says so; with the form's target coverage at 0.98 the rarest are left to <unk> and the same sizes train.
void TestTrainingMarian::theFormsCharacterCoverageLetsRareCharactersGo() {
    auto rare = [](int i) { return QString(QChar(char16_t(0x4E00 + 7 * i))); };
    QString text;
    for (int i = 0; i < 200; ++i) text += QStringLiteral("the cat sat on the mat\t猫坐在垫子上了。") + rare(i) + '\n';
    TrainingSettings s = tinyMarian(dir_.path(), 1);
    s.corpus = dir_.filePath("rare.tsv");
    testing::writeFile(s.corpus, text.toUtf8());
    s.marian->source_pieces = 14;
    s.marian->target_pieces = 172;
    s.out = dir_.filePath("rare-marian");
    TrainingWindow w;
    w.form()->applySettings(s);
    QCOMPARE(w.form()->marianFields()->targetCoverageBox()->value(), 1.0);
    QVERIFY(!w.start());
    QVERIFY2(w.lastError().contains("the target side: a vocabulary of 172 pieces cannot hold the corpus's characters: "
                                    "it needs at least 212"),
             qPrintable(w.lastError()));

    w.form()->marianFields()->targetCoverageBox()->setValue(0.98);
    QCOMPARE(w.form()->settings().marian->target_coverage, 0.98);
    QCOMPARE(w.form()->settings().marian->source_coverage, 1.0);
    QSignalSpy done(&w, &TrainingWindow::trainingFinished);
    QVERIFY2(w.start(), qPrintable(w.lastError()));
    QVERIFY(done.wait(60000));
    QVERIFY2(w.lastError().isEmpty(), qPrintable(w.lastError()));
    const nlohmann::json vocab = nlohmann::json::parse(testing::readFile(s.out + "/vocab.json").toStdString());
    int kept = 0;
    for (int i = 0; i < 200; ++i) kept += vocab.contains(rare(i).toStdString());
    QVERIFY2(kept > 100 && kept < 200, qPrintable(QString::number(kept)));
}

// While Start prepares a run (here a Marian's pieces trained), the window's own events go on: a call queued when
// the preparation begins runs before Start returns, and sees Start and the form disabled.
void TestTrainingMarian::theWindowKeepsRunningWhileThePiecesTrain() {
    TrainingSettings s = tinyMarian(dir_.path(), 1);
    s.out = dir_.filePath("alive");
    TrainingWindow w;
    w.show();
    w.form()->applySettings(s);
    bool returned = false, ran_before_return = false, start_enabled = true, form_enabled = true;
    connect(&w, &TrainingWindow::preparing, this, [&] {
        QMetaObject::invokeMethod(
            &w,
            [&] {
                ran_before_return = !returned;
                start_enabled = w.startButton()->isEnabled();
                form_enabled = w.form()->isEnabled();
            },
            Qt::QueuedConnection);
    });
    QSignalSpy done(&w, &TrainingWindow::trainingFinished);
    QVERIFY2(w.start(), qPrintable(w.lastError()));
    returned = true;
    QVERIFY(ran_before_return);
    QVERIFY(!start_enabled);
    QVERIFY(!form_enabled);
    w.stop();
    QVERIFY(done.wait(120000));
    QVERIFY(w.startButton()->isEnabled());
}

// Start trains the pieces on a thread of its own before the run begins: meanwhile the status says so and the cursor waits;
// both go once the run has started (a Transformer's Start says it reads the corpus).
void TestTrainingMarian::startSaysItTrainsThePiecesUnderAWaitCursor() {
    TrainingSettings s = tinyMarian(dir_.path(), 1);
    s.out = dir_.filePath("busy");
    TrainingWindow w;
    w.show();
    w.form()->applySettings(s);
    QStringList said;
    QList<Qt::CursorShape> cursors;
    connect(&w, &TrainingWindow::preparing, this, [&](const QString& status) {
        said << w.statusLabel()->text();
        const QCursor* cursor = QGuiApplication::overrideCursor();
        cursors << (cursor ? cursor->shape() : Qt::ArrowCursor);
        QCOMPARE(status, w.statusLabel()->text());
    });
    QSignalSpy done(&w, &TrainingWindow::trainingFinished);
    QVERIFY2(w.start(), qPrintable(w.lastError()));
    QCOMPARE(said, QStringList{QStringLiteral("Training the SentencePiece models on marian.tsv…")});
    QCOMPARE(cursors, QList<Qt::CursorShape>{Qt::WaitCursor});
    QVERIFY(QGuiApplication::overrideCursor() == nullptr);
    QVERIFY2(w.statusLabel()->text().startsWith(QStringLiteral("Training on 300 line")),
             qPrintable(w.statusLabel()->text()));
    QVERIFY(done.wait(120000));
    said.clear();
    s.marian.reset();  // a Transformer: no pieces to train
    s.config = ModelConfig{};
    s.config.decoder = DecoderKind::Transformer;
    s.config.score = ScoreKind::ScaledDot;
    s.config.transformer.d_model = 16;
    s.config.transformer.setHeads(2);
    s.config.transformer.setFeedForward(32);
    s.out = dir_.filePath("busy.safetensors");
    w.form()->applySettings(s);
    QVERIFY2(w.start(), qPrintable(w.lastError()));
    QCOMPARE(said, QStringList{QStringLiteral("Reading marian.tsv and making the model…")});
    w.stop();
    QVERIFY(done.wait(120000));
}

// A folder with a file in it: Start asks; "no" starts nothing and keeps the folder; "yes" replaces it with the
// trained model. A file where the folder should be is refused.
void TestTrainingMarian::occupiedFolderIsReplacedOnlyWhenAgreed() {
    TrainingSettings s = tinyMarian(dir_.path(), 1);
    s.out = dir_.filePath("occupied");
    QVERIFY(QDir().mkpath(s.out));
    attnviz::testing::writeFile(s.out + "/mine.txt", "keep me");
    TrainingWindow w;
    QStringList asked;
    bool answer = false;
    w.setReplaceQuestion([&](const QString& folder) {
        asked << folder;
        return answer;
    });
    w.form()->applySettings(s);
    QVERIFY(!w.start());
    QCOMPARE(asked, QStringList{s.out});
    QVERIFY2(w.lastError().contains(QStringLiteral("exists and is not empty")), qPrintable(w.lastError()));
    QVERIFY(QFile::exists(s.out + "/mine.txt") && !QFile::exists(s.out + "/config.json"));
    QVERIFY(!w.isRunning());

    answer = true;
    runToEnd(w, s);
    QCOMPARE(asked.size(), 2);
    QVERIFY(!QFile::exists(s.out + "/mine.txt"));
    QVERIFY(loadModel(s.out.toStdString()).marian.has_value());

    s.out = dir_.filePath("a-file");
    attnviz::testing::writeFile(s.out, "not a folder");
    w.form()->applySettings(s);
    QVERIFY(!w.start());
    QVERIFY2(w.lastError().contains(QStringLiteral("is a file")), qPrintable(w.lastError()));
}

// Continue from a Marian folder: its pieces are kept, its weights are the start, and writing back into it (occupied)
// is asked first.
void TestTrainingMarian::trainingGoesOnFromAFolder() {
    TrainingSettings s = tinyMarian(dir_.path(), 1);
    s.out = dir_.filePath("first-run");
    TrainingWindow w;
    runToEnd(w, s);
    const Model first = loadModel(s.out.toStdString());
    TrainingSettings more = s;
    more.init = s.out;
    int asked = 0;
    w.setReplaceQuestion([&](const QString&) { return ++asked > 0; });
    runToEnd(w, more);
    QCOMPARE(asked, 1);
    const Model second = loadModel(s.out.toStdString());
    QVERIFY(second.marian.has_value());
    QCOMPARE(second.source_spm->bytes(), first.source_spm->bytes());
    QCOMPARE(second.target_vocab.size(), first.target_vocab.size());
    QVERIFY(flatParameters(second) != flatParameters(first));
}

// A disk that fails while the folder is written: the run says so, and neither the folder nor its temporary copy is
// left.
void TestTrainingMarian::failedWriteLeavesNoFolder() {
    TrainingSettings s = tinyMarian(dir_.path(), 1);
    s.out = dir_.filePath("full-disk/model");
    TrainingWindow w;
    w.form()->applySettings(s);
    QSignalSpy done(&w, &TrainingWindow::trainingFinished);
    setWriteFaultForTesting(WriteFault{ENOSPC, 200});
    QVERIFY2(w.start(), qPrintable(w.lastError()));
    const bool ended = done.wait(120000);
    setWriteFaultForTesting(std::nullopt);
    QVERIFY(ended);
    QVERIFY2(w.lastError().contains(QStringLiteral("No space left on device")), qPrintable(w.lastError()));
    QVERIFY(!QFileInfo::exists(s.out));
    QCOMPARE(QDir(dir_.filePath("full-disk")).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
             QStringList());
}

// Paused at once: the folder written at the pause is whole and holds the weights of that update; the stop writes it
// again (replacing this run's own folder without asking).
void TestTrainingMarian::pauseLeavesAWholeFolder() {
    TrainingSettings s = tinyMarian(dir_.path(), 500);  // 5,000 updates: far longer than the test
    s.out = dir_.filePath("paused");
    TrainingWindow w;
    bool asked = false;
    w.setReplaceQuestion([&](const QString&) { return asked = true; });
    w.form()->applySettings(s);
    QSignalSpy paused(&w, &TrainingWindow::paused);
    QSignalSpy done(&w, &TrainingWindow::trainingFinished);
    QVERIFY(w.start());
    w.pause();
    QVERIFY(paused.wait(60000));
    const int64_t step = paused.takeFirst().at(0).toLongLong();
    QVERIFY(step >= 0 && step < 5000);
    const Model at_pause = loadModel(s.out.toStdString());
    QVERIFY(flatParameters(at_pause) == flatParameters(marianTrainedByCore(s, step)));
    w.resume();
    QTest::qWait(200);
    w.stop();
    QVERIFY(done.wait(60000));
    QVERIFY2(w.lastError().isEmpty(), qPrintable(w.lastError()));
    QVERIFY(!asked);
    QVERIFY(w.lastReport().steps >= step);
    QVERIFY(flatParameters(loadModel(s.out.toStdString())) == flatParameters(*w.trainedModel()));
}

// A started Marian run's settings come back, through QSettings, in the next session's training window.
void TestTrainingMarian::settingsAreOfferedAgain() {
    openWindow();  // cleared settings
    TrainingSettings s = tinyMarian(dir_.path(), 1);
    s.marian->transformer.activation = Activation::Relu;
    s.marian->source_pieces = 61;
    s.marian->target_pieces = 62;
    s.marian->target_coverage = 0.9995;
    s.marian->source_normalization = "nfkc";
    s.marian->target_normalization = "identity";
    s.marian->target_lang = "de";
    s.out = dir_.filePath("again");
    {
        TrainingWindow w;
        w.form()->applySettings(s);
        QSignalSpy done(&w, &TrainingWindow::trainingFinished);
        QVERIFY2(w.start(), qPrintable(w.lastError()));
        QVERIFY(done.wait(60000));
    }
    const std::optional<TrainingSettings> stored = savedTrainingSettings();
    QVERIFY(stored && stored->marian);
    QVERIFY(stored->marian->transformer == s.marian->transformer);
    TrainingWindow* t = w_->showTrainingWindow();
    const TrainingSettings back = t->form()->settings();
    QVERIFY(back.marian.has_value());
    QVERIFY(back.marian->transformer == s.marian->transformer);
    QCOMPARE(back.marian->source_pieces, 61);
    QCOMPARE(back.marian->target_pieces, 62);
    QCOMPARE(back.marian->source_coverage, 1.0);
    QCOMPARE(back.marian->target_coverage, 0.9995);
    QCOMPARE(back.marian->source_normalization, std::string("nfkc"));
    QCOMPARE(back.marian->target_normalization, std::string("identity"));
    QCOMPARE(back.marian->source_lang, std::string("en"));
    QCOMPARE(back.marian->target_lang, std::string("de"));
    QCOMPARE(back.out, s.out);
    QCOMPARE(t->form()->decoderBox()->currentData().toString(), kMarianKind);
    closeWindow();
}

ATTNVIZ_TEST_MAIN(TestTrainingMarian)
#include "test_training_marian.moc"
