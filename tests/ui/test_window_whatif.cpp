// "What if?" in the window as a user does it: any output token typed (with completion) and forced at the current
// step, the model's own choice being no forcing, the forced row marked beside its label, Edit ▸ Undo / Redo and
// "Clear forced tokens". Every decode is compared with the engine's own forced decode (DecodingSession::force).
#include "decode/decoding.h"
#include "heatmap/heatmap_view.h"
#include "main_window_fixture.h"
#include "model/model.h"
#include "state/decode_state.h"
#include "state/forcing_history.h"
#include "test_models.h"
#include "test_registry.h"
#include "views/force_token_box.h"
#include "views/gold_links_panel.h"
#include "window/main_window.h"
#include "window/step_panel.h"

#include <qcustomplot.h>
#include <QAbstractItemView>
#include <QAction>
#include <QCompleter>
#include <QFile>
#include <QImage>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <QUndoStack>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

using namespace attnviz;
using attnviz::testing::kAppleSource;
using namespace attnviz::ui;

class TestWindowWhatIf : public QObject, private testing::MainWindowFixture {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup() { closeWindow(); }

    void typedTokenOutsideTopFiveIsForced();
    void completionOffersTheOutputVocabulary();
    void wordOutsideTheVocabularyIsRefusedWithAReason();
    void modelsOwnChoiceIsNoForcing();
    void choosingTheModelsChoiceAtAForcedStepUnforcesIt();
    void undoRedoRestoreForcedTokensAndDecode();
    void clearForcedTokensIsUndoable();
    void forcedRowIsMarkedBesideItsLabel();
    void editingTheSentenceEmptiesTheHistory();
    void jsonExportRecordsWhereTheDecodeCameFrom();

private:
    // The engine's decode of kAppleSource with `prefix` forced at steps 0, 1, ... then greedy.
    DecodeResult engineDecode(const std::vector<int>& prefix) const;
    void compareWithEngine(const std::vector<int>& prefix) const;
    // Types `word` into the force field and presses Enter; true once the decode arrived.
    bool forceTyped(const QString& word);
    bool clickCandidate(int row);
    bool waitForDecode(const std::function<void()>& action);

    QString french_;  // a model whose output words are ASCII, so that QTest can type them
};

void TestWindowWhatIf::initTestCase() {
    setUpWindowTests(QStringLiteral("test_window_whatif"));
    const Vocabulary target = testing::vocabWith({"je", "tu", "il", "ai", "mange", "une", "pomme", "pommes", "hier",
                                                  "chat", "chien", "le", "la", "sur", "tapis", "."});
    Model m = makeRandomModel(testing::smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive),
                              testing::smallSourceVocab(), target, 21);
    m.task = "test-french";
    french_ = testing::saveInto(m, models_dir_, QStringLiteral("test-french.safetensors"));
}

void TestWindowWhatIf::init() {
    openWindow();
    QVERIFY(w_->openModel(french_));
    w_->decodes()->waitForDone();
    QVERIFY(typeAndWait(kAppleSource));
    QVERIFY(w_->stepCount() >= 3);
}

DecodeResult TestWindowWhatIf::engineDecode(const std::vector<int>& prefix) const {
    DecodingSession session(w_->model(), kAppleSource.toStdString());
    for (size_t i = 0; i < prefix.size(); ++i) session.force(int(i), prefix[i]);
    session.runToEnd();
    return resultFromSession(session);
}

void TestWindowWhatIf::compareWithEngine(const std::vector<int>& prefix) const {
    const DecodeResult expected = engineDecode(prefix);
    QCOMPARE(w_->decodes()->outcome()->result.target_ids, expected.target_ids);
    QCOMPARE(w_->decodes()->outcome()->result.attention, expected.attention);
    QCOMPARE(w_->heatmapView()->data().rows(), int(expected.target_ids.size()));
}

bool TestWindowWhatIf::waitForDecode(const std::function<void()>& action) {
    QSignalSpy spy(w_.get(), &MainWindow::decodeFinished);
    action();
    return waitDecode(spy);
}

bool TestWindowWhatIf::forceTyped(const QString& word) {
    QLineEdit* field = w_->forceTokenBox()->lineEdit();
    field->setFocus();
    return waitForDecode([&] {
        QTest::keyClicks(field, word);
        w_->forceTokenBox()->completer()->popup()->hide();  // Enter goes to the field, not to a completion
        QTest::keyClick(field, Qt::Key_Return);
    });
}

bool TestWindowWhatIf::clickCandidate(int row) {
    QTreeWidget* list = w_->stepPanel()->candidateList();
    QTreeWidgetItem* item = list->topLevelItem(row);
    if (!item) return false;
    return waitForDecode(
        [&] { QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(item).center()); });
}

void TestWindowWhatIf::typedTokenOutsideTopFiveIsForced() {
    w_->setCursorStep(2);
    const StepRecord second = w_->decodes()->outcome()->steps[1];
    const int first_token = w_->decodes()->outcome()->steps[0].token;
    // A word of the output vocabulary that is not among the step's five candidates.
    const Vocabulary& vocab = w_->model()->target_vocab;
    int token = -1;
    for (int id = 4; id < vocab.size() && token < 0; ++id)
        if (std::none_of(second.top_k.begin(), second.top_k.end(), [&](const Candidate& c) { return c.id == id; }))
            token = id;
    QVERIFY(token >= 0);
    QCOMPARE(int(second.top_k.size()), 5);

    QVERIFY(forceTyped(QString::fromStdString(vocab.token(token))));
    QCOMPARE(w_->state()->forcedTokens(), (std::vector<int>{first_token, token}));
    compareWithEngine({first_token, token});
    QCOMPARE(w_->decodes()->outcome()->result.target_ids[1], token);
    QVERIFY(w_->decodes()->outcome()->steps[1].forced);
    QCOMPARE(w_->cursorStep(), 2);  // the forced step stays the current one
    QVERIFY(w_->forceTokenBox()->lineEdit()->text().isEmpty());
    QVERIFY(w_->forceTokenBox()->errorText().isEmpty());
}

void TestWindowWhatIf::completionOffersTheOutputVocabulary() {
    w_->setCursorStep(1);
    QLineEdit* field = w_->forceTokenBox()->lineEdit();
    QCompleter* completer = w_->forceTokenBox()->completer();
    field->setFocus();
    QTest::keyClicks(field, QStringLiteral("pom"));
    QTRY_VERIFY(completer->popup()->isVisible());
    QCOMPARE(completer->completionCount(), 2);  // pomme, pommes
    QStringList offered;
    for (int i = 0; completer->setCurrentRow(i); ++i) offered << completer->currentCompletion();
    QCOMPARE(offered, (QStringList{QStringLiteral("pomme"), QStringLiteral("pommes")}));

    // Down, Enter in the list: the completion is taken and forced at once.
    const int pomme = w_->model()->target_vocab.id("pomme");
    QVERIFY(waitForDecode([&] {
        QTest::keyClick(completer->popup(), Qt::Key_Down);
        QTest::keyClick(completer->popup(), Qt::Key_Return);
    }));
    QCOMPARE(w_->state()->forcedTokens(), std::vector<int>{pomme});
    compareWithEngine({pomme});
}

void TestWindowWhatIf::wordOutsideTheVocabularyIsRefusedWithAReason() {
    w_->setCursorStep(1);
    QLineEdit* field = w_->forceTokenBox()->lineEdit();
    field->setFocus();
    QTest::keyClicks(field, QStringLiteral("zebra"));
    QTest::keyClick(field, Qt::Key_Return);
    QVERIFY2(w_->forceTokenBox()->errorText().contains(QStringLiteral("zebra")),
             qPrintable(w_->forceTokenBox()->errorText()));
    QVERIFY(w_->state()->forcedTokens().empty());
    QCOMPARE(w_->forcingHistory()->undoStack()->count(), 0);
    QCOMPARE(field->text(), QStringLiteral("zebra"));  // kept, to be corrected
    // Before the first step there is nothing to force at: the field is off.
    w_->setCursorStep(0);
    QVERIFY(!field->isEnabled());
}

void TestWindowWhatIf::modelsOwnChoiceIsNoForcing() {
    w_->setCursorStep(2);
    const std::vector<int> before = w_->decodes()->outcome()->result.target_ids;
    QTreeWidget* list = w_->stepPanel()->candidateList();
    QTreeWidgetItem* own = list->topLevelItem(0);
    QCOMPARE(own->data(0, Qt::UserRole).toInt(), w_->decodes()->outcome()->steps[1].token);  // the model's own choice
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(own).center());
    // Typed, too.
    QLineEdit* field = w_->forceTokenBox()->lineEdit();
    field->setFocus();
    QTest::keyClicks(field, QString::fromStdString(w_->model()->target_vocab.token(before[1])));
    w_->forceTokenBox()->completer()->popup()->hide();
    QTest::keyClick(field, Qt::Key_Return);
    QVERIFY(!w_->decodes()->isBusy());  // no decode asked for
    QVERIFY(w_->state()->forcedTokens().empty());
    QCOMPARE(w_->forcingHistory()->undoStack()->count(), 0);
    QVERIFY(!w_->undoAction()->isEnabled());
    QCOMPARE(w_->decodes()->outcome()->result.target_ids, before);
}

void TestWindowWhatIf::choosingTheModelsChoiceAtAForcedStepUnforcesIt() {
    const std::vector<int> greedy = w_->decodes()->outcome()->result.target_ids;
    w_->setCursorStep(1);
    QVERIFY(clickCandidate(1));  // the runner-up
    QCOMPARE(w_->state()->forcedTokens().size(), size_t(1));
    // At the same step, the model's own choice (top of the list, now not the token shown) takes the forcing back.
    const int own = w_->decodes()->outcome()->steps[0].top_k[0].id;
    QCOMPARE(own, greedy[0]);
    QTreeWidget* list = w_->stepPanel()->candidateList();
    QCOMPARE(list->topLevelItem(0)->data(0, Qt::UserRole).toInt(), own);
    QVERIFY(clickCandidate(0));
    QVERIFY(w_->state()->forcedTokens().empty());
    QCOMPARE(w_->decodes()->outcome()->result.target_ids, greedy);
    compareWithEngine({});
}

void TestWindowWhatIf::undoRedoRestoreForcedTokensAndDecode() {
    QCOMPARE(w_->undoAction()->shortcut(), QKeySequence(QKeySequence::Undo));
    QCOMPARE(w_->redoAction()->shortcut(), QKeySequence(QKeySequence::Redo));
    const std::vector<int> greedy = w_->decodes()->outcome()->result.target_ids;
    w_->setCursorStep(1);
    QVERIFY(clickCandidate(1));
    const std::vector<int> first = w_->state()->forcedTokens();
    QCOMPARE(first.size(), size_t(1));
    w_->setCursorStep(3);
    QVERIFY(clickCandidate(2));
    const std::vector<int> second = w_->state()->forcedTokens();
    QCOMPARE(second.size(), size_t(3));
    QVERIFY(std::equal(first.begin(), first.end(), second.begin()));
    QVERIFY2(w_->undoAction()->text().contains(QStringLiteral("step 3")), qPrintable(w_->undoAction()->text()));

    QVERIFY(waitForDecode([&] { w_->undoAction()->trigger(); }));
    QCOMPARE(w_->state()->forcedTokens(), first);
    compareWithEngine(first);
    QCOMPARE(w_->cursorStep(), 3);  // where the user was when forcing the undone token
    QVERIFY(waitForDecode([&] { w_->undoAction()->trigger(); }));
    QVERIFY(w_->state()->forcedTokens().empty());
    QCOMPARE(w_->decodes()->outcome()->result.target_ids, greedy);
    compareWithEngine({});
    QVERIFY(!w_->undoAction()->isEnabled());

    QVERIFY(waitForDecode([&] { w_->redoAction()->trigger(); }));
    QCOMPARE(w_->state()->forcedTokens(), first);
    compareWithEngine(first);
    QCOMPARE(w_->cursorStep(), 1);
    QVERIFY(waitForDecode([&] { w_->redoAction()->trigger(); }));
    QCOMPARE(w_->state()->forcedTokens(), second);
    compareWithEngine(second);
    QCOMPARE(w_->cursorStep(), 3);
    QVERIFY(!w_->redoAction()->isEnabled());
}

void TestWindowWhatIf::clearForcedTokensIsUndoable() {
    QVERIFY(!w_->clearForcedAction()->isEnabled());
    const std::vector<int> greedy = w_->decodes()->outcome()->result.target_ids;
    w_->setCursorStep(2);
    QVERIFY(clickCandidate(1));
    const std::vector<int> forced = w_->state()->forcedTokens();
    QVERIFY(!forced.empty());
    QVERIFY(w_->clearForcedAction()->isEnabled());
    QVERIFY(waitForDecode([&] { w_->clearForcedAction()->trigger(); }));
    QVERIFY(w_->state()->forcedTokens().empty());
    QCOMPARE(w_->decodes()->outcome()->result.target_ids, greedy);
    QVERIFY(!w_->clearForcedAction()->isEnabled());
    QVERIFY(waitForDecode([&] { w_->undoAction()->trigger(); }));
    QCOMPARE(w_->state()->forcedTokens(), forced);
    compareWithEngine(forced);
}

void TestWindowWhatIf::forcedRowIsMarkedBesideItsLabel() {
    w_->setCursorStep(2);
    QVERIFY(clickCandidate(1));  // row 1 forced; row 0 is the model's own choice, forced only to reach row 1
    HeatmapView* view = w_->heatmapView();
    QCOMPARE(view->labelMarks().forced_rows, QVector<int>{1});
    const QImage image = view->plot()->grab().toImage();
    auto orange = [&](int row) {
        const QColor c = image.pixelColor(view->rowMarkRect(row).center());
        return c.red() > 200 && c.green() > 100 && c.green() < 180 && c.blue() < 80;
    };
    QVERIFY(orange(1));
    QVERIFY(!orange(0));
    QVERIFY(!orange(2));
    // Undone: no mark.
    QVERIFY(waitForDecode([&] { w_->undoAction()->trigger(); }));
    QVERIFY(view->labelMarks().forced_rows.isEmpty());
    QVERIFY(![&] {
        const QImage after = view->plot()->grab().toImage();
        const QColor c = after.pixelColor(view->rowMarkRect(1).center());
        return c.red() > 200 && c.green() > 100 && c.green() < 180 && c.blue() < 80;
    }());
}

void TestWindowWhatIf::editingTheSentenceEmptiesTheHistory() {
    w_->setCursorStep(1);
    QVERIFY(clickCandidate(1));
    QVERIFY(w_->undoAction()->isEnabled());
    QVERIFY(waitForDecode([&] { QTest::keyClicks(w_->sourceEditor(), QStringLiteral(" .")); }));
    QCOMPARE(w_->forcingHistory()->undoStack()->count(), 0);
    QVERIFY(!w_->undoAction()->isEnabled());
    QVERIFY(w_->state()->forcedTokens().empty());
}

// The JSON export says where its decode came from: the sentence typed, the model's file, the rows the user forced
// (not the ones the model chose on the way), and with a reference, the reference and its gold links as typed.
void TestWindowWhatIf::jsonExportRecordsWhereTheDecodeCameFrom() {
    w_->setCursorStep(3);
    QVERIFY(clickCandidate(1));  // row 2 forced; rows 0 and 1 are the model's own
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("forced.json"));
    QVERIFY(w_->exportTo(path, w_->exportOptions()));
    auto contextOf = [](const QString& file) {
        QFile f(file);
        return f.open(QIODevice::ReadOnly)
                   ? nlohmann::json::parse(f.readAll().toStdString()).value("context", nlohmann::json())
                   : nlohmann::json();
    };
    nlohmann::json c = contextOf(path);
    QCOMPARE(QString::fromStdString(c.value("source_text", "")), kAppleSource);
    QCOMPARE(QString::fromStdString(c.value("model_file", "")), QStringLiteral("test-french.safetensors"));
    QCOMPARE(c.value("forced_rows", std::vector<int>{}), std::vector<int>{2});
    QCOMPARE(QString::fromStdString(c.value("reference", "x")), QString());

    // A reference with gold links: both as typed, and no forced rows of the user's.
    QSignalSpy decoded(w_.get(), &MainWindow::decodeFinished);
    w_->setReferenceText(QStringLiteral("je mange une pomme"));
    QVERIFY(decoded.wait(20000) || !decoded.isEmpty());
    w_->decodes()->waitForDone();
    w_->goldLinks()->setLinks(QStringLiteral("0-0 1-1 3-3"));
    const QString with_reference = dir.filePath(QStringLiteral("reference.json"));
    QVERIFY(w_->exportTo(with_reference, w_->exportOptions()));
    c = contextOf(with_reference);
    QCOMPARE(QString::fromStdString(c.value("reference", "")), QStringLiteral("je mange une pomme"));
    QCOMPARE(QString::fromStdString(c.value("gold_links", "")), QStringLiteral("0-0 1-1 3-3"));
    QCOMPARE(c.value("forced_rows", std::vector<int>{9}), std::vector<int>{});
}

ATTNVIZ_TEST_MAIN(TestWindowWhatIf)
#include "test_window_whatif.moc"
