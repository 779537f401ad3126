// The window on Hugging Face Marian folders (docs/marian.md "In the window"), used as a user would: a folder opens
// (and its config.json), the model library lists the cache's Marian folders by repository and languages (a cache of
// 10,000 snapshot folders listed exactly), Words turns the heatmap's pieces into words (labels and summed columns)
// and back, the translation is shown as text, and a running explanation is cancelled.
#include "decode/subword_words.h"
#include "dialogs/hub_cache.h"
#include "dialogs/model_library.h"
#include "eval/alignment.h"
#include "heatmap/utf8_text.h"
#include "main_window_fixture.h"
#include "marian_folders.h"
#include "state/decode_state.h"
#include "test_registry.h"
#include "views/beam_tree.h"
#include "views/force_token_box.h"
#include "views/gold_links_panel.h"
#include "window/explain_progress.h"
#include "window/explain_worker.h"
#include "window/output_line.h"

#include <QAction>
#include <QCompleter>
#include <QDir>
#include <QDockWidget>
#include <QFile>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStringListModel>
#include <QTextDocument>
#include <QTreeWidget>

#include <cmath>

using namespace attnviz;
using namespace attnviz::ui;

namespace {

const QString kSentence = QStringLiteral("the green river walked under three small birds.");

void writeFile(const QString& path, const QByteArray& bytes) {
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(bytes);
}

// What the listing of the cache made by makeHubCache must be, in order.
struct ExpectedHubModel {
    QString repository, source_lang, target_lang, snapshot;
};

// 100 repositories of 100 snapshot folders each (10,000), most of them empty. Repository i: i % 10 == 0 is a BERT
// model, i % 10 == 1 has no config.json anywhere; the others are Marian with their config in one snapshot (refs/main
// names it when i % 3 == 0, else it is the newest of several configs), languages from tokenizer_config.json when
// i is even, else from the name.
std::vector<ExpectedHubModel> makeHubCache(const QString& cache) {
    std::vector<ExpectedHubModel> expected;
    for (int i = 0; i < 100; ++i) {
        const QString source = QStringLiteral("s") + QChar(u'a' + i / 10) + QChar(u'a' + i % 10);
        const QString target = QStringLiteral("t") + QChar(u'a' + i % 7);
        const QString name = QStringLiteral("opus-mt-%1-%2").arg(source, target);
        const QString repo = QStringLiteral("%1/models--Helsinki-NLP--%2").arg(cache, name);
        for (int s = 0; s < 100; ++s) QDir().mkpath(QStringLiteral("%1/snapshots/rev%2").arg(repo).arg(s));
        if (i % 10 == 1) continue;
        const QString type = i % 10 == 0 ? QStringLiteral("bert") : QStringLiteral("marian");
        const QString chosen = QStringLiteral("%1/snapshots/rev%2").arg(repo).arg(i % 100);
        if (i % 3 == 0) {
            writeFile(repo + QStringLiteral("/refs/main"), QStringLiteral("rev%1\n").arg(i % 100).toUtf8());
            // an older config elsewhere that refs/main must win over
            writeFile(QStringLiteral("%1/snapshots/rev%2/config.json").arg(repo).arg((i + 1) % 100),
                      R"({"model_type": "bert"})");
        }
        writeFile(chosen + QStringLiteral("/config.json"),
                  QStringLiteral(R"({"model_type": "%1"})").arg(type).toUtf8());
        if (i % 2 == 0)
            writeFile(chosen + QStringLiteral("/tokenizer_config.json"),
                      QStringLiteral(R"({"source_lang": "src%1", "target_lang": "tgt%1"})").arg(i).toUtf8());
        if (type == QStringLiteral("bert")) continue;
        const bool from_tokenizer = i % 2 == 0;
        expected.push_back({QStringLiteral("Helsinki-NLP/") + name,
                            from_tokenizer ? QStringLiteral("src%1").arg(i) : source,
                            from_tokenizer ? QStringLiteral("tgt%1").arg(i) : target, QDir(chosen).absolutePath()});
    }
    return expected;
}

}  // namespace

class TestMarianWindow : public QObject, private testing::MainWindowFixture {
    Q_OBJECT

private slots:
    void initTestCase() {
        setUpWindowTests(QStringLiteral("test_marian_window"));
        marian_ = models_dir_.filePath(QStringLiteral("opus-mt-test"));
        testing::makeMarianFolder(marian_.toStdString());
    }
    void init() { openWindow(); }
    void cleanup() { closeWindow(); }

    void folderOpensAndItsConfigJsonToo();
    void libraryListsTheCachesMarianFoldersByRepositoryAndLanguages();
    void wordsMergeTheHeatmapsPiecesIntoWordsAndPiecesComeBack();
    void wordsMergeTheExplanationShown();
    void wordsAreOfferedOnlyForSentencePieceModels();
    void translationIsShownAsText();
    void runningExplanationIsCancelled();
    void explanationReportsItsPasses();
    void explainProgressShowsOnlyAfterHalfASecond();
    void sampleFoldersAreListedBesideTheModelFiles();
    void beamListAndForceBoxUseTheModelsOwnSpecials();
    void goldLinksAreWordsMarkedOnWordsAndOnPieces();

private:
    bool openMarian() {
        if (!w_->openModel(marian_)) return false;
        w_->setSourceText(kSentence);
        w_->decodeNow();
        w_->decodes()->waitForDone();
        QCoreApplication::processEvents();
        return w_->state()->hasDecode();
    }
    QString marian_;
};

void TestMarianWindow::sampleFoldersAreListedBesideTheModelFiles() {
    // sample_models/tatoeba-marian/ sits beside the .safetensors files: the library lists it under "marian"
    bool found = false;
    for (const ModelInfo& m : scanModelDir(QFileInfo(marian_).absolutePath()))
        if (QFileInfo(m.path).fileName() == QStringLiteral("opus-mt-test")) {
            found = true;
            QVERIFY2(m.error.isEmpty(), qPrintable(m.error));
            QCOMPARE(m.task, QStringLiteral("marian"));
            QVERIFY2(m.description.contains(QString::fromUtf8("en → xx")), qPrintable(m.description));
        }
    QVERIFY(found);
}

void TestMarianWindow::folderOpensAndItsConfigJsonToo() {
    QVERIFY(openMarian());
    QVERIFY(w_->model()->marian.has_value());
    QVERIFY2(w_->windowTitle().startsWith(QStringLiteral("opus-mt-test")), qPrintable(w_->windowTitle()));
    QVERIFY(w_->openModel(additive_));
    QVERIFY(!w_->model()->marian.has_value());
    QVERIFY(w_->openModel(marian_ + QStringLiteral("/config.json")));
    QVERIFY(w_->model()->marian.has_value());
    QVERIFY(w_->openFolderAction() != nullptr);
}

void TestMarianWindow::libraryListsTheCachesMarianFoldersByRepositoryAndLanguages() {
    QTemporaryDir cache;
    const std::vector<ExpectedHubModel> expected = makeHubCache(cache.path());
    QCOMPARE(int(expected.size()), 80);
    const std::vector<HubModel> listed = scanHubCache(cache.path());
    QCOMPARE(listed.size(), expected.size());
    for (size_t i = 0; i < listed.size(); ++i) {
        QCOMPARE(listed[i].repository, expected[i].repository);
        QCOMPARE(listed[i].source_lang, expected[i].source_lang);
        QCOMPARE(listed[i].target_lang, expected[i].target_lang);
        QCOMPARE(QDir(listed[i].path).absolutePath(), expected[i].snapshot);
    }
    // the dialog: a heading for the cache with one line per repository, opening its snapshot
    ModelLibraryDialog dialog;
    dialog.populate({}, cache.path());
    QTreeWidgetItem* heading = dialog.tree()->topLevelItem(dialog.tree()->topLevelItemCount() - 1);
    QVERIFY(heading->text(0).contains(QDir::toNativeSeparators(cache.path())));
    QCOMPARE(heading->childCount(), 80);
    QCOMPARE(heading->child(2)->text(0), expected[2].repository);
    QCOMPARE(heading->child(2)->text(3), expected[2].source_lang + QStringLiteral(" → ") + expected[2].target_lang);
    QCOMPARE(heading->child(2)->data(0, Qt::UserRole).toString(), listed[2].path);
    // HF_HUB_CACHE wins over HF_HOME
    qputenv("HF_HOME", "/nowhere/home");
    QCOMPARE(hubCacheDir(), QStringLiteral("/nowhere/home/hub"));
    qputenv("HF_HUB_CACHE", cache.path().toUtf8());
    QCOMPARE(hubCacheDir(), cache.path());
    qunsetenv("HF_HUB_CACHE");
    qunsetenv("HF_HOME");
}

void TestMarianWindow::wordsMergeTheHeatmapsPiecesIntoWordsAndPiecesComeBack() {
    QVERIFY(openMarian());
    const DecodeResult& r = w_->state()->decode()->result;
    QVERIFY(r.source_words.size() < r.source_tokens.size());  // some word has several pieces
    const std::vector<std::vector<double>> pieces = shownWeights(*w_->heatmapView());
    QVERIFY(w_->wordsAction()->isEnabled());
    w_->wordsAction()->trigger();
    QVERIFY(w_->state()->wordsShown());
    const HeatmapData& data = w_->heatmapView()->data();
    QCOMPARE(data.cols(), int(r.source_words.size()));
    QCOMPARE(data.rows(), int(r.target_words.size()));
    for (size_t k = 0; k < r.source_words.size(); ++k) {  // labels: the pieces joined without ▁
        QString word;
        for (int p = r.source_words[k].first; p < r.source_words[k].end; ++p) word += qs(r.source_tokens[size_t(p)]);
        QCOMPARE(data.source_tokens[int(k)], word.remove(QChar(0x2581)));
    }
    // a cell: its word's rows averaged of its pieces' columns summed, from the pieces shown before
    const std::vector<std::vector<double>> words = shownWeights(*w_->heatmapView());
    for (size_t t = 0; t < r.target_words.size(); ++t)
        for (size_t k = 0; k < r.source_words.size(); ++k) {
            double sum = 0;
            const WordSpan tw = r.target_words[t], sw = r.source_words[k];
            for (int row = tw.first; row < tw.end; ++row)
                for (int col = sw.first; col < sw.end; ++col) sum += pieces[size_t(row)][size_t(col)];
            QVERIFY(std::abs(words[t][k] - sum / (tw.end - tw.first)) < 1e-5);
        }
    QVERIFY(!w_->attentionViewText().isEmpty());  // says what words are and what stays pieces
    w_->piecesAction()->trigger();
    QCOMPARE(w_->heatmapView()->data().cols(), int(r.source_tokens.size()));
    QCOMPARE(shownWeights(*w_->heatmapView()), pieces);
}

void TestMarianWindow::wordsMergeTheExplanationShown() {
    QVERIFY(openMarian());
    w_->setExplainMethod(ExplainMethod::Occlusion);
    QTRY_VERIFY_WITH_TIMEOUT(w_->state()->explanation() != nullptr, 20000);
    const DecodeResult& r = w_->state()->decode()->result;
    const Mat pieces = w_->state()->explanation()->values;
    w_->wordsAction()->trigger();
    const HeatmapData& data = w_->heatmapView()->data();
    QCOMPARE(data.cols(), int(r.source_words.size()));
    for (size_t t = 0; t < r.target_words.size(); ++t)  // occlusion is signed: a word's cell is its pieces' sum
        for (size_t k = 0; k < r.source_words.size(); ++k) {
            double sum = 0;
            const WordSpan tw = r.target_words[t], sw = r.source_words[k];
            for (int row = tw.first; row < tw.end; ++row)
                for (int col = sw.first; col < sw.end; ++col) sum += pieces(row, col);
            QVERIFY(std::abs(data.weights[t][k] - sum / (tw.end - tw.first)) < 1e-4);
        }
}

void TestMarianWindow::wordsAreOfferedOnlyForSentencePieceModels() {
    QVERIFY(!w_->wordsAction()->isEnabled());  // the additive sample model: whitespace tokens
    QVERIFY(openMarian());
    QVERIFY(w_->wordsAction()->isEnabled());
}

void TestMarianWindow::translationIsShownAsText() {
    QVERIFY(openMarian());
    const DecodeResult& r = w_->state()->decode()->result;
    auto* line = w_->findChild<OutputLine*>();
    QVERIFY(line);
    QTextDocument doc;
    doc.setHtml(line->text());
    const QString shown = doc.toPlainText();
    QVERIFY2(shown.endsWith(qs(r.text)), qPrintable(shown));
    QVERIFY(!shown.contains(QChar(0x2581)));
}

void TestMarianWindow::runningExplanationIsCancelled() {
    QVERIFY(openMarian());
    w_->setExplainMethod(ExplainMethod::IntegratedGradients);
    QVERIFY(w_->explainProgress()->isRunning());
    w_->explainProgress()->cancelButton()->click();
    QVERIFY(!w_->explainProgress()->isRunning());
    QCOMPARE(w_->explainMethod(), ExplainMethod::Attention);
    w_->explainWorker()->waitForDone();
    QCoreApplication::processEvents();
    QVERIFY(w_->state()->explanation() == nullptr);  // the dropped run's result never arrives
}

void TestMarianWindow::explanationReportsItsPasses() {
    QVERIFY(openMarian());
    QSignalSpy passes(w_->explainWorker(), &ExplainWorker::progressed);
    w_->setExplainMethod(ExplainMethod::IntegratedGradients);
    QTRY_VERIFY_WITH_TIMEOUT(w_->state()->explanation() != nullptr, 20000);
    QVERIFY(!passes.isEmpty());
    const int total = passes.last().at(1).toInt();
    QVERIFY(total > 0);
    QCOMPARE(passes.last().at(0).toInt(), total);  // the last pass is the last of all
    for (int i = 1; i < passes.size(); ++i) QVERIFY(passes[i].at(0).toInt() > passes[i - 1].at(0).toInt());
    QVERIFY(!w_->explainProgress()->isRunning());
}

void TestMarianWindow::explainProgressShowsOnlyAfterHalfASecond() {
    QWidget parent;
    auto* progress = new ExplainProgress(&parent);
    parent.show();
    progress->started(QStringLiteral("occlusion"));
    QTest::qWait(ExplainProgress::kShowAfterMs / 2);
    QVERIFY(progress->isHidden());
    QTRY_VERIFY_WITH_TIMEOUT(!progress->isHidden(), 3000);
    QVERIFY(progress->text().contains(QStringLiteral("occlusion")));
    progress->setProgress(3, 12);
    QVERIFY(progress->text().contains(QStringLiteral("pass 3/12")));
    progress->finished();
    QVERIFY(progress->isHidden());
    progress->started(QStringLiteral("occlusion"));
    progress->finished();  // a quick run never shows
    QTest::qWait(ExplainProgress::kShowAfterMs + 200);
    QVERIFY(progress->isHidden());
}

// A Marian vocabulary's specials are not attnviz's (</s> 0, <unk> 1, <pad> last; no <sos>). The beam view's n-best
// list ends a hypothesis at the model's </s> and writes it as text; the force box offers </s> and every piece but
// <pad> (the decoder's start). Here </s> has a logits bias of 100, so every hypothesis ends after at most one piece.
void TestMarianWindow::beamListAndForceBoxUseTheModelsOwnSpecials() {
    const QString folder = models_dir_.filePath(QStringLiteral("opus-mt-ends"));
    testing::makeMarianFolder(folder.toStdString());
    testing::rewriteMarianWeights(folder.toStdString(),
                                  [](testing::TensorTable& t) { t.at("final_logits_bias").second[0] = 100.0f; });
    w_->beamDock()->show();
    QVERIFY(w_->openModel(folder));
    w_->setSourceText(kSentence);
    w_->decodeNow();
    w_->decodes()->waitForDone();
    QCoreApplication::processEvents();
    BeamTreeView* beam = w_->beamTree();
    beam->widthBox()->setValue(4);
    QVERIFY(beam->result());
    QVERIFY(beam->nbestList()->count() >= 2);
    const Model& m = *w_->model();
    for (int i = 0; i < beam->nbestList()->count(); ++i) {
        const QString text = beam->nbestList()->item(i)->text();
        const int leaf = beam->nbestList()->item(i)->data(Qt::UserRole).toInt();
        QCOMPARE(beam->result()->nodes[size_t(leaf)].token, m.target_vocab.specials().eos);
        QVERIFY2(!text.contains(QStringLiteral("…")) && !text.contains(QStringLiteral("</s>")), qPrintable(text));
        QVERIFY2(!text.contains(QChar(0x2581)), qPrintable(text));
    }
    const QStringList offered =
        qobject_cast<QStringListModel*>(w_->forceTokenBox()->completer()->model())->stringList();
    QCOMPARE(offered.size(), m.target_vocab.size() - 1);
    QVERIFY(offered.contains(QStringLiteral("</s>")));
    QVERIFY(!offered.contains(QStringLiteral("<pad>")));
    QVERIFY(offered.contains(qs(m.target_vocab.token(2))));
}

// Gold links number whitespace words (Pharaoh "source-target"); a Marian model reads pieces and has no <sos>. The
// panel reads the links off the decode merged into words on both sides (core's wordAxes), and marks each link on its
// word cell in Words and on every cell of its two words' pieces in Pieces.
void TestMarianWindow::goldLinksAreWordsMarkedOnWordsAndOnPieces() {
    QVERIFY(w_->openModel(marian_));
    w_->setReferenceText(QStringLiteral("we saw three small birds near the old bridge"));
    QVERIFY(openMarian());
    GoldLinksPanel* panel = w_->goldLinks();
    QVERIFY(panel->setLinks(QStringLiteral("0-6 2-8 5-2 6-3 7-4 7?5")).isEmpty());
    QCoreApplication::processEvents();
    const DecodeResult& forced = w_->state()->decode()->result;
    QCOMPARE(panel->alignOptions().words.first_column, 0);
    QVERIFY(panel->alignOptions().words.merge == MergeSides::Both);
    const GoldAlignment gold = parseAlignment("0-6 2-8 5-2 6-3 7-4 7?5");
    const std::vector<AlignmentLink> predicted = extractAlignment(forced, panel->alignOptions());
    QVERIFY2(panel->counts().has_value(), qPrintable(panel->resultText()));
    QCOMPARE(panel->counts()->overlap, aerCounts(predicted, gold).overlap);
    QCOMPARE(panel->counts()->predicted, int64_t(9));  // argmax: one link per reference word
    const std::vector<AlignmentCell> cells = classifyAlignment(predicted, gold);

    w_->state()->setShowsWords(true);
    QCoreApplication::processEvents();
    std::vector<AlignmentMark> words;
    for (const AlignmentCell& c : cells) words.push_back({c.link.second, c.link.first, c.kind});
    QCOMPARE(panel->marks(), words);
    QCOMPARE(w_->heatmapView()->style().alignment_marks, words);

    w_->state()->setShowsWords(false);
    QCoreApplication::processEvents();
    std::vector<AlignmentMark> pieces;
    for (const AlignmentCell& c : cells) {
        const WordSpan& s = forced.source_words[size_t(c.link.first)];
        const WordSpan& t = forced.target_words[size_t(c.link.second)];
        for (int row = t.first; row < t.end; ++row)
            for (int col = s.first; col < s.end; ++col) pieces.push_back({row, col, c.kind});
    }
    QVERIFY(pieces.size() > words.size());  // the words here are several pieces each
    QCOMPARE(panel->marks(), pieces);
    QCOMPARE(w_->heatmapView()->style().alignment_marks, pieces);
}

ATTNVIZ_TEST_MAIN(TestMarianWindow)
#include "test_marian_window.moc"
