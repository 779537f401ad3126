// The main window driven as a user would: typing, stepping, the scoring toggle, "what if?" forcing, the reference
// field, settings across restarts. Numbers are compared with the engine called directly. Model files and exports:
// test_main_window_files.cpp.
#include "decode/decoding.h"
#include "dialogs/getting_started.h"
#include "dialogs/model_library.h"
#include "heatmap/heatmap_view.h"
#include "io/model_file.h"
#include "main_window_fixture.h"
#include "nn/decoder.h"
#include "test_models.h"
#include "test_registry.h"
#include "window/main_window.h"
#include "window/source_editor.h"
#include "window/step_panel.h"

#include <qcustomplot.h>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QLineEdit>
#include <QLocale>
#include <QMimeData>
#include <QScopeGuard>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextLayout>
#include <QTreeWidget>
#include <QUrl>
#include <nlohmann/json.hpp>

#include <cmath>
#include <memory>

using namespace attnviz;
using namespace attnviz::ui;
using attnviz::testing::saveInto;
using attnviz::testing::smallConfig;
using attnviz::testing::smallModel;

class TestMainWindow : public QObject, private testing::MainWindowFixture {
    Q_OBJECT

private slots:
    void initTestCase() { setUpWindowTests(QStringLiteral("test_main_window")); }
    void init() { openWindow(); }
    void cleanup() { closeWindow(); }
    void gettingStartedIsDueOnceAndInTheHelpMenu();

    void typingShowsTheEnginesHeatmap_data();
    void typingShowsTheEnginesHeatmap();
    void unknownWordsAreMarked();
    void completerOffersVocabularyWords();
    void emptySentenceShowsHintWithoutError();
    void staleResultsAreDropped();
    void longPasteIsCappedAndStaysResponsive();
    void steppingButtonsMoveTheCurrentRow();
    void steppingKeysInHeatmapButNotInTextField();
    void stepPanelShowsCurrentStep();
    void hideSpecialsHidesTheirBarsToo();
    void playRunsToTheEnd();
    void scoreToggleLoadsSiblingKeepingSentenceAndStep();
    void scoreToggleKeepsTheWhatIf();
    void scoreWithoutSiblingIsDisabledWithReason();
    void forcedCandidateChangesTheRest();
    void referenceSwitchesToForcedDecoding();
    void settingsSurviveRestart();
};

// ------------------------------------------------------------------------------------------------ typing

void TestMainWindow::typingShowsTheEnginesHeatmap_data() {
    QTest::addColumn<QString>("sentence");
    QTest::newRow("known words") << QStringLiteral("i love you");
    QTest::newRow("with an unknown word") << QStringLiteral("i love zebras");
    QTest::newRow("punctuation split by the word tokenizer") << QStringLiteral("the cat sat on the mat.");
    QTest::newRow("upper case lowered") << QStringLiteral("The Cat ate an Apple");
}

void TestMainWindow::typingShowsTheEnginesHeatmap() {
    QFETCH(QString, sentence);
    QVERIFY(typeAndWait(sentence));
    QCOMPARE(w_->sourceText(), sentence);
    const DecodeResult expected = greedyDecode(*w_->model(), sentence.toStdString());
    const HeatmapView& view = *w_->heatmapView();
    QCOMPARE(view.data().cols(), int(expected.source_tokens.size()));
    QCOMPARE(view.data().rows(), int(expected.target_tokens.size()));
    QCOMPARE(view.matrixSize(), QSize(int(expected.source_tokens.size()), int(expected.target_tokens.size())));
    for (int c = 0; c < view.data().cols(); ++c)
        QCOMPARE(view.data().source_tokens[c], QString::fromStdString(expected.source_tokens[size_t(c)]));
    const auto shown = shownWeights(view);
    for (size_t r = 0; r < expected.attention.size(); ++r)
        for (size_t c = 0; c < expected.attention[r].size(); ++c)
            QCOMPARE(shown[r][c], double(expected.attention[r][c]));  // the engine's floats, not recomputed
    QCOMPARE(w_->cursorStep(), int(expected.target_tokens.size()));   // the whole output is shown after typing
}

void TestMainWindow::unknownWordsAreMarked() {
    QVERIFY(typeAndWait(QStringLiteral("i love zebras")));
    QCOMPARE(w_->sourceEditor()->unknownWords(), QStringList{QStringLiteral("zebras")});
    // The wavy underline covers exactly "zebras" (chars 7..12) and nothing else.
    const QTextBlock block = w_->sourceEditor()->document()->firstBlock();
    const auto formats = block.layout()->formats();
    QCOMPARE(formats.size(), qsizetype(1));
    QCOMPARE(formats[0].start, 7);
    QCOMPARE(formats[0].length, 6);
    QCOMPARE(formats[0].format.underlineStyle(), QTextCharFormat::WaveUnderline);
    QVERIFY(w_->noticeText().contains(QStringLiteral("<unk>")));
    // Positions survive lower-casing and punctuation splitting.
    const auto spans = locateTokens(*w_->model(), QStringLiteral("The CAT, Zebra!"));
    QCOMPARE(int(spans.size()), 5);
    QCOMPARE(spans[1].start, 4);
    QCOMPARE(spans[3].token, QStringLiteral("zebra"));
    QCOMPARE(spans[3].start, 9);
    QVERIFY(!spans[3].known);
    QVERIFY(spans[1].known);
}

void TestMainWindow::completerOffersVocabularyWords() {
    w_->sourceEditor()->clear();
    w_->sourceEditor()->setFocus();
    QTest::keyClicks(w_->sourceEditor(), QStringLiteral("i ap"));
    QCompleter* completer = w_->sourceEditor()->completer();
    QCOMPARE(completer->completionPrefix(), QStringLiteral("ap"));
    QCOMPARE(completer->currentCompletion(), QStringLiteral("apple"));
    emit completer->activated(QStringLiteral("apple"));
    QCOMPARE(w_->sourceText(), QStringLiteral("i apple"));
}

void TestMainWindow::emptySentenceShowsHintWithoutError() {
    QVERIFY(typeAndWait(QStringLiteral("i love you")));
    QSignalSpy errors(w_.get(), &MainWindow::errorReported);
    w_->sourceEditor()->selectAll();
    QTest::keyClick(w_->sourceEditor(), Qt::Key_Delete);
    QTest::qWait(250);  // longer than the debounce: nothing may arrive late
    QVERIFY(w_->heatmapView()->data().isEmpty());
    QVERIFY(w_->noticeText().contains(QStringLiteral("Type a sentence")));
    QCOMPARE(errors.count(), 0);
    QCOMPARE(w_->stepCount(), 0);
}

void TestMainWindow::staleResultsAreDropped() {
    QSignalSpy spy(w_.get(), &MainWindow::decodeFinished);
    w_->setSourceText(QStringLiteral("i"));
    w_->decodeNow();
    w_->setSourceText(QStringLiteral("the cat sat on the mat"));
    w_->decodeNow();
    QVERIFY(waitDecode(spy));
    QTest::qWait(300);
    QCOMPARE(spy.count(), 1);  // only the newest sentence's decode was shown
    const DecodeResult expected = greedyDecode(*w_->model(), "the cat sat on the mat");
    QCOMPARE(w_->decodes()->outcome()->result.target_ids, expected.target_ids);
    QCOMPARE(w_->heatmapView()->data().cols(), 8);
}

void TestMainWindow::longPasteIsCappedAndStaysResponsive() {
    QStringList words;
    const QStringList pool = {QStringLiteral("the"), QStringLiteral("cat"), QStringLiteral("sat"),
                              QStringLiteral("on"),  QStringLiteral("mat"), QStringLiteral("zebra")};
    for (int i = 0; i < 10000; ++i) words << pool[i % pool.size()];
    QSignalSpy spy(w_.get(), &MainWindow::decodeFinished);
    w_->setSourceText(words.join(u' '));  // like a paste: marking runs here, decoding does not
    QVERIFY(w_->decodes()->isBusy());     // the decode is pending or running off the UI thread
    QVERIFY(waitDecode(spy));
    QCOMPARE(w_->heatmapView()->data().cols(), kMaxSourceTokens + 2);
    QCOMPARE(w_->decodes()->outcome()->source_tokens_cut, 10000 - kMaxSourceTokens);
    QVERIFY(w_->noticeText().contains(QLocale().toString(kMaxSourceTokens)));  // "1,000" in English
    QVERIFY(w_->stepCount() <= 2 * (kMaxSourceTokens + 2) + 10);               // the default max_len bounds the output
}

// ------------------------------------------------------------------------------------------------ stepping

void TestMainWindow::steppingButtonsMoveTheCurrentRow() {
    QVERIFY(typeAndWait(QStringLiteral("i love you")));
    const int T = w_->stepCount();
    QVERIFY(T >= 2);
    w_->stepAction(MainWindow::Step::First)->trigger();
    QCOMPARE(w_->cursorStep(), 0);
    QCOMPARE(w_->heatmapView()->visibleRows(), 0);
    QVERIFY(std::isnan(w_->heatmapView()->cellValue(0, 0)));  // rows not decoded yet are empty
    QVERIFY(!w_->stepAction(MainWindow::Step::Back)->isEnabled());
    w_->stepAction(MainWindow::Step::Forward)->trigger();
    w_->stepAction(MainWindow::Step::Forward)->trigger();
    QCOMPARE(w_->cursorStep(), 2);
    QCOMPARE(w_->heatmapView()->visibleRows(), 2);
    QCOMPARE(w_->heatmapView()->style().current_row, 1);
    QCOMPARE(w_->heatmapView()->cellValue(1, 1), double(w_->decodes()->outcome()->result.attention[1][1]));
    w_->stepAction(MainWindow::Step::Back)->trigger();
    QCOMPARE(w_->cursorStep(), 1);
    w_->stepAction(MainWindow::Step::Last)->trigger();
    QCOMPARE(w_->cursorStep(), T);
    QVERIFY(!w_->stepAction(MainWindow::Step::Forward)->isEnabled());
    QCOMPARE(w_->stepAction(MainWindow::Step::Back)->shortcut(), QKeySequence(QStringLiteral("Alt+Left")));
}

void TestMainWindow::steppingKeysInHeatmapButNotInTextField() {
    QVERIFY(typeAndWait(QStringLiteral("i love you")));
    const int T = w_->stepCount();
    QWidget* plot = w_->heatmapView()->plot();
    QTest::keyClick(plot, Qt::Key_Home);
    QCOMPARE(w_->cursorStep(), 0);
    QTest::keyClick(plot, Qt::Key_Right);
    QTest::keyClick(plot, Qt::Key_Right);
    QCOMPARE(w_->cursorStep(), 2);
    QTest::keyClick(w_->heatmapView(), Qt::Key_Left);
    QCOMPARE(w_->cursorStep(), 1);
    QTest::keyClick(plot, Qt::Key_End);
    QCOMPARE(w_->cursorStep(), T);
    // In the source field the arrows move the text cursor and leave the step alone.
    QTest::keyClick(plot, Qt::Key_Home);
    QTextCursor c = w_->sourceEditor()->textCursor();
    c.movePosition(QTextCursor::End);
    w_->sourceEditor()->setTextCursor(c);
    const int end = w_->sourceEditor()->textCursor().position();
    QTest::keyClick(w_->sourceEditor(), Qt::Key_Left);
    QTest::keyClick(w_->sourceEditor(), Qt::Key_Left);
    QCOMPARE(w_->sourceEditor()->textCursor().position(), end - 2);
    QCOMPARE(w_->cursorStep(), 0);
    // Space in the heatmap plays; in the step panel's candidate list too.
    QTest::keyClick(plot, Qt::Key_Space);
    QVERIFY(w_->isPlaying());
    QTest::keyClick(w_->stepPanel()->candidateList(), Qt::Key_Space);
    QVERIFY(!w_->isPlaying());
}

void TestMainWindow::stepPanelShowsCurrentStep() {
    QVERIFY(typeAndWait(QStringLiteral("the cat sat")));
    w_->setCursorStep(2);
    const StepRecord& step = w_->decodes()->outcome()->steps[1];
    QTreeWidget* list = w_->stepPanel()->candidateList();
    QCOMPARE(list->topLevelItemCount(), int(step.top_k.size()));
    QCOMPARE(list->topLevelItem(0)->data(0, Qt::UserRole).toInt(), step.top_k[0].id);
    QCOMPARE(list->topLevelItem(0)->text(1), QString::number(double(step.top_k[0].prob), 'f', 4));
    QVERIFY(w_->stepPanel()->entropyText().contains(QString::number(double(step.entropy), 'f', 3)));
    // The bar chart holds this row's attention.
    auto* bars = qobject_cast<QCPBars*>(w_->stepPanel()->barChart()->plottable(0));
    QVERIFY(bars);
    QCOMPARE(bars->data()->size(), int(step.attention.size()));
    for (int j = 0; j < bars->data()->size(); ++j)
        QCOMPARE(bars->data()->at(j)->value, double(step.attention[size_t(j)]));
}

void TestMainWindow::hideSpecialsHidesTheirBarsToo() {
    QVERIFY(typeAndWait(QStringLiteral("the cat sat")));
    w_->setCursorStep(2);
    const StepRecord& step = w_->decodes()->outcome()->steps[1];
    const QStringList tokens = w_->heatmapView()->data().source_tokens;
    QCOMPARE(tokens.first(), QStringLiteral("<sos>"));
    QCOMPARE(tokens.last(), QStringLiteral("<eos>"));
    w_->hideSpecialsAction()->setChecked(true);
    auto* bars = qobject_cast<QCPBars*>(w_->stepPanel()->barChart()->plottable(0));
    QVERIFY(bars);
    // <sos> and <eos> gone; the other bars keep the engine's weights (not renormalised), in order.
    QCOMPARE(bars->data()->size(), int(step.attention.size()) - 2);
    for (int k = 0; k < bars->data()->size(); ++k)
        QCOMPARE(bars->data()->at(k)->value, double(step.attention[size_t(k + 1)]));
    auto* ticker = dynamic_cast<QCPAxisTickerText*>(w_->stepPanel()->barChart()->xAxis->ticker().data());
    QVERIFY(ticker);
    QCOMPARE(ticker->ticks().value(0), tokens[1]);
    w_->hideSpecialsAction()->setChecked(false);
    QCOMPARE(bars->data()->size(), int(step.attention.size()));
}

void TestMainWindow::playRunsToTheEnd() {
    QVERIFY(typeAndWait(QStringLiteral("i love you")));
    w_->setCursorStep(0);
    w_->playAction()->trigger();
    QVERIFY(w_->isPlaying());
    QTRY_COMPARE_WITH_TIMEOUT(w_->cursorStep(), w_->stepCount(), 30000);
    QTRY_VERIFY_WITH_TIMEOUT(!w_->isPlaying(), 5000);
}

// ------------------------------------------------------------------------------------------------ scoring toggle

void TestMainWindow::scoreToggleLoadsSiblingKeepingSentenceAndStep() {
    QVERIFY(typeAndWait(QStringLiteral("i love the cat")));
    const auto additive_weights = w_->decodes()->outcome()->result.attention;
    QVERIFY(w_->scoreAction(ScoreKind::Additive)->isChecked());
    QVERIFY(w_->scoreAction(ScoreKind::Dot)->isEnabled());
    w_->setCursorStep(2);
    QSignalSpy spy(w_.get(), &MainWindow::decodeFinished);
    w_->scoreAction(ScoreKind::Dot)->trigger();
    QVERIFY(waitDecode(spy));
    QCOMPARE(QFileInfo(w_->modelPath()).fileName(), QFileInfo(dot_).fileName());
    QVERIFY(w_->model()->config.score == ScoreKind::Dot);
    QVERIFY(w_->scoreAction(ScoreKind::Dot)->isChecked());
    QCOMPARE(w_->sourceText(), QStringLiteral("i love the cat"));
    QCOMPARE(w_->cursorStep(), std::min(2, w_->stepCount()));
    const Model dot_model = loadModel(dot_.toStdString());
    const DecodeResult expected = greedyDecode(dot_model, "i love the cat");
    QCOMPARE(w_->decodes()->outcome()->result.attention, expected.attention);
    QVERIFY(w_->decodes()->outcome()->result.attention != additive_weights);
    QCOMPARE(w_->heatmapView()->cellValue(0, 1), double(expected.attention[0][1]));
}

void TestMainWindow::scoreToggleKeepsTheWhatIf() {
    const std::string sentence = "i ate an apple yesterday";
    QVERIFY(typeAndWait(QString::fromStdString(sentence)));
    w_->setCursorStep(1);
    const StepRecord first = w_->decodes()->outcome()->steps[0];
    QVERIFY(first.top_k.size() >= 2);
    const int token = first.top_k[1].id;  // force the runner-up at step 1
    QSignalSpy spy(w_.get(), &MainWindow::decodeFinished);
    emit w_->stepPanel()->candidateChosen(token);
    QVERIFY(waitDecode(spy));
    QVERIFY(w_->decodes()->outcome()->steps[0].forced);

    QSignalSpy switched(w_.get(), &MainWindow::decodeFinished);
    w_->scoreAction(ScoreKind::Dot)->trigger();
    QVERIFY(waitDecode(switched));
    QVERIFY(w_->model()->config.score == ScoreKind::Dot);
    // The dot model decodes on from the same forced token (the vocabularies are the same here).
    DecodingSession session(w_->model(), sentence);
    session.force(0, token);
    session.runToEnd();
    const DecodeResult expected = resultFromSession(session);
    QCOMPARE(w_->decodes()->outcome()->result.target_ids, expected.target_ids);
    QCOMPARE(w_->decodes()->outcome()->result.attention, expected.attention);
    QVERIFY(w_->decodes()->outcome()->steps[0].forced);
    QCOMPARE(w_->cursorStep(), 1);
}

void TestMainWindow::scoreWithoutSiblingIsDisabledWithReason() {
    QAction* general = w_->scoreAction(ScoreKind::General);
    QVERIFY(!general->isEnabled());
    const QString folder = QDir::toNativeSeparators(QFileInfo(additive_).absolutePath());
    QCOMPARE(general->toolTip(),
             QStringLiteral("no model trained with general scoring for task test-task in %1").arg(folder));
    QVERIFY(w_->scoreAction(ScoreKind::ScaledDot)->isEnabled());
    QVERIFY(!w_->switchScore(ScoreKind::General));
    QCOMPARE(w_->modelPath(), QFileInfo(additive_).absoluteFilePath());
}

// ------------------------------------------------------------------------------------------------ what if / reference

void TestMainWindow::forcedCandidateChangesTheRest() {
    const std::string sentence = "i ate an apple yesterday";
    QVERIFY(typeAndWait(QString::fromStdString(sentence)));
    const std::vector<int> before = w_->decodes()->outcome()->result.target_ids;
    w_->setCursorStep(1);
    QTreeWidget* list = w_->stepPanel()->candidateList();
    QVERIFY(list->topLevelItemCount() >= 2);
    QTreeWidgetItem* second = list->topLevelItem(1);  // the runner-up at step 1
    const int token = second->data(0, Qt::UserRole).toInt();
    QVERIFY(token != before[0]);
    QSignalSpy spy(w_.get(), &MainWindow::decodeFinished);
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(second).center());
    QVERIFY(waitDecode(spy));

    // What the engine says when that token is forced at step 0 and decoding goes on greedily.
    DecodingSession session(w_->model(), sentence);
    session.force(0, token);
    session.runToEnd();
    const DecodeResult expected = resultFromSession(session);
    const DecodeOutcome& got = *w_->decodes()->outcome();
    QCOMPARE(got.result.target_ids, expected.target_ids);
    QCOMPARE(got.result.attention, expected.attention);
    QCOMPARE(got.result.target_ids[0], token);
    QVERIFY(got.steps[0].forced);
    QVERIFY(got.result.target_ids != before);
    QCOMPARE(w_->cursorStep(), 1);  // the forced step stays the current one
}

void TestMainWindow::referenceSwitchesToForcedDecoding() {
    QVERIFY(typeAndWait(QStringLiteral("i love you")));
    QSignalSpy spy(w_.get(), &MainWindow::decodeFinished);
    w_->referenceEdit()->setFocus();
    w_->referenceEdit()->insert(
        QStringLiteral("我 爱 斑马"));  // as an input method commits it (keyClicks is ASCII only)
    QVERIFY(waitDecode(spy));
    const DecodeResult expected = forcedDecode(*w_->model(), "i love you", "我 爱 斑马");
    const QStringList want = {QStringLiteral("我"), QStringLiteral("爱"), QStringLiteral("斑马"),
                              QStringLiteral("<eos>")};
    QCOMPARE(w_->heatmapView()->data().target_tokens, want);  // the unknown word keeps its spelling
    QCOMPARE(w_->decodes()->outcome()->result.target_ids, expected.target_ids);
    QCOMPARE(w_->decodes()->outcome()->result.attention, expected.attention);
    // The engine's step-wise and whole-sequence paths agree to float round-off on log p.
    QCOMPARE(w_->decodes()->outcome()->result.log_probs.size(), expected.log_probs.size());
    for (size_t i = 0; i < expected.log_probs.size(); ++i)
        QVERIFY(std::abs(w_->decodes()->outcome()->result.log_probs[i] - expected.log_probs[i]) <=
                1e-5f * (1 + std::abs(expected.log_probs[i])));

    spy.clear();
    w_->referenceEdit()->clear();  // back to the model's own output
    QVERIFY(waitDecode(spy));
    QCOMPARE(w_->decodes()->outcome()->result.target_ids, greedyDecode(*w_->model(), "i love you").target_ids);
}

// ------------------------------------------------------------------------------------------------ settings, bad input

void TestMainWindow::settingsSurviveRestart() {
    QVERIFY(w_->openModel(dot_));
    QVERIFY(typeAndWait(QStringLiteral("the cat sat")));
    w_->setColormap(QStringLiteral("magma"));
    w_->resize(790, 700);  // inside the offscreen platform's 800×800 screen: a larger one is fitted to it
    w_->close();           // writes the settings, as quitting does
    w_->decodes()->waitForDone();
    w_.reset();

    MainWindow second;
    second.setInteractive(false);
    QCOMPARE(second.colormap(), QStringLiteral("magma"));
    QCOMPARE(second.heatmapView()->style().colormap, QStringLiteral("magma"));
    QCOMPARE(second.size(), QSize(790, 700));
    second.openStartupModel();
    QSignalSpy spy(&second, &MainWindow::decodeFinished);  // the decode itself arrives later
    QCOMPARE(second.modelPath(), QFileInfo(dot_).absoluteFilePath());
    QCOMPARE(second.sourceText(), QStringLiteral("the cat sat"));
    QVERIFY(waitDecode(spy));
    QCOMPARE(second.heatmapView()->data().cols(), 5);
    const QStringList recent = QSettings().value(QStringLiteral("Files/recent")).toStringList();
    QCOMPARE(recent.value(0), QFileInfo(dot_).absoluteFilePath());
    QCOMPARE(recent.value(1), QFileInfo(additive_).absoluteFilePath());
    second.decodes()->waitForDone();
}

// Help ▸ Getting started: due on a first start (fresh settings) and not after it was shown; the menu shows it again;
// the page says what a row and a column are and names the four scorings.
void TestMainWindow::gettingStartedIsDueOnceAndInTheHelpMenu() {
    QVERIFY(gettingStartedDue());
    QDialog* page = w_->showGettingStarted();
    QVERIFY(page && page->isVisible());
    QVERIFY(!page->isModal());  // beside the window, which stays usable
    QVERIFY(!gettingStartedDue());
    const QString text = qobject_cast<GettingStartedDialog*>(page)->page()->toPlainText();
    for (const char* words : {"Each row", "each column", "additive", "scaled dot", "general", "What if?"})
        QVERIFY2(text.contains(QLatin1String(words)), words);
    page->close();
    QAction* item = nullptr;
    for (QAction* a : w_->findChildren<QAction*>())
        if (a->text().remove(QLatin1Char('&')) == QLatin1String("Getting started")) item = a;
    QVERIFY(item);
    item->trigger();
    QVERIFY(page->isVisible());
}

ATTNVIZ_TEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
