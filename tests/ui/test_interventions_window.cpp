// Interventions in the window as a user makes them (docs/gui.md, "Interventions"): a source word knocked out from its
// column label or a cell of its column, a step made to attend only to one cell (RNN), a Transformer's head removed
// from the head grid, each from its context menu; the list's switches, remove buttons and "Plain model"; Edit ▸ Undo
// and Redo shared with "what if?"; a sibling switch keeping what the new model can take; exports naming them. Every
// decode is compared with core's own decode with the same Interventions, and the output line's change with core's
// plain decode.
#include "decode/decoding.h"
#include "explain/explanation.h"
#include "heatmap/explanation_data.h"
#include "heatmap/heatmap_view.h"
#include "io/decode_json.h"
#include "main_window_fixture.h"
#include "state/decode_state.h"
#include "state/decode_worker.h"
#include "state/forcing_history.h"
#include "state/output_diff.h"
#include "test_models.h"
#include "test_registry.h"
#include "views/head_grid.h"
#include "views/intervention_list.h"
#include "window/explain_worker.h"
#include "window/main_window.h"
#include "window/output_line.h"

#include <qcustomplot.h>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QContextMenuEvent>
#include <QDockWidget>
#include <QFile>
#include <QMenu>
#include <QPushButton>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>
#include <QUndoStack>

#include <functional>
#include <memory>

using namespace attnviz;
using attnviz::testing::kMatSource;
using namespace attnviz::ui;

namespace {

// Sends a context menu event to `target` at `at` and chooses the item named `item` (if enabled) with the keyboard.
// Returns whether it was there and enabled; *offered (if given) says whether it was there at all.
bool chooseFromMenu(QWidget* target, const QPoint& at, const QString& item, bool* offered = nullptr) {
    auto chosen = std::make_shared<bool>(false);
    auto present = std::make_shared<bool>(false);
    QTimer::singleShot(10, [chosen, present, item] {
        auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
        if (!menu) return;
        for (QAction* a : menu->actions())
            if (a->objectName() == item) {
                *present = true;
                if (!a->isEnabled()) continue;
                menu->setActiveAction(a);
                *chosen = true;
            }
        if (*chosen)
            QTest::keyClick(menu, Qt::Key_Return);
        else
            menu->close();
    });
    QContextMenuEvent event(QContextMenuEvent::Mouse, at, target->mapToGlobal(at));
    QApplication::sendEvent(target, &event);
    if (offered) *offered = *present;
    return *chosen;
}

}  // namespace

class TestInterventionsWindow : public QObject, private testing::MainWindowFixture {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup() { closeWindow(); }

    void diffNamesKeptChangedAddedAndDropped();
    void knockOutFromTheColumnLabelDecodesAgainWithoutTheWord();
    void severalWordsFromCellsOfTheirColumns();
    void knockingOutEveryWordIsRefusedWithAReason();
    void attendOnlyHereMakesTheRowOneHot();
    void attendIsNotOfferedForATransformer();
    void switchesRemoveButtonsAndPlainModel();
    void undoRedoShareTheStackWithForcing();
    void removingAHeadInTheHeadGrid();
    void siblingSwitchKeepsKnockoutsAndDropsAttends();
    void newSentenceDropsKnockoutsButKeepsHeads();
    void exportsNameTheInterventions();
    void refusedInterventionsLeaveThePlainDecodeAndSayWhy();
    void addingAnInterventionReusesThePlainDecodeOfTheSameRequest();
    void aGradientMethodExplainsTheIntervenedModel();

private:
    // Core's decode of the window's sentence with `iv` (the plain model when empty).
    DecodeResult coreDecode(const Interventions& iv) const {
        DecodeOptions o;
        o.interventions = iv;
        return greedyDecode(*w_->state()->decodedModel(), kMatSource.toStdString(), o);
    }
    // The decode shown is core's with `iv`; the heatmap shows its rows; the output line compares it with core's plain.
    void compareWithCore(const Interventions& iv) const;
    bool waitForDecode(const std::function<void()>& action) {
        QSignalSpy spy(w_.get(), &MainWindow::decodeFinished);
        action();
        return waitDecode(spy);
    }
    QPoint labelOf(int col) const {
        QPoint at = w_->heatmapView()->cellCenter(0, col);
        at.setY(w_->heatmapView()->plot()->axisRect()->rect().top() - 8);
        return at;
    }
    bool knockOutAt(const QPoint& at) {
        bool chosen = false;
        const bool decoded = waitForDecode(
            [&] { chosen = chooseFromMenu(w_->heatmapView()->plot(), at, QStringLiteral("knockOutWord")); });
        return chosen && decoded;
    }
    // The list's rows that are shown (rows being replaced wait for deletion hidden).
    template <typename T>
    QList<T*> shown(const QString& name) const {
        QList<T*> out;
        for (T* w : w_->interventionList()->findChildren<T*>(name))
            if (!w->parentWidget()->isHidden()) out << w;
        return out;
    }
    QString outputText() const { return w_->findChild<OutputLine*>()->text(); }

    QString transformer_;
};

void TestInterventionsWindow::initTestCase() {
    setUpWindowTests(QStringLiteral("test_interventions_window"));
    transformer_ =
        testing::saveInto(testing::smallTransformer(5, 2), models_dir_, QStringLiteral("test-transformer.safetensors"));
}

void TestInterventionsWindow::init() {
    openWindow();
    QVERIFY(typeAndWait(kMatSource));
}

void TestInterventionsWindow::compareWithCore(const Interventions& iv) const {
    const DecodeResult expected = coreDecode(iv);
    const DecodeOutcome* shown = w_->decodes()->outcome();
    QVERIFY(shown);
    QCOMPARE(shown->interventions, iv);
    QCOMPARE(shown->result.target_ids, expected.target_ids);
    QCOMPARE(shown->result.attention, expected.attention);
    QCOMPARE(w_->heatmapView()->data().rows(), int(expected.target_ids.size()));
    QCOMPARE(w_->heatmapView()->data().weights, expected.attention);  // every row, shown so far or not
    const DecodeResult plain = coreDecode({});
    if (iv.empty()) {
        QVERIFY(!w_->state()->plainDecode());
        return;
    }
    QVERIFY(w_->state()->plainDecode());
    QCOMPARE(w_->state()->plainDecode()->result.target_ids, plain.target_ids);
    // The change the list reports is the one between core's two decodes.
    const ChangeCounts c = countChanges(diffTokens(plain.target_tokens, expected.target_tokens));
    const QString change = w_->interventionList()->changeText();
    if (c.unchanged()) {
        QVERIFY2(change.contains(QStringLiteral("token for token")), qPrintable(change));
    } else {
        QVERIFY2(change.contains(QStringLiteral("%1 changed, %2 added, %3 dropped, %4 kept")
                                     .arg(c.changed)
                                     .arg(c.added)
                                     .arg(c.dropped)
                                     .arg(c.kept)),
                 qPrintable(change));
        QVERIFY(outputText().contains(QStringLiteral("overline")) ||
                outputText().contains(QStringLiteral("<b>+</b>")) ||
                outputText().contains(QStringLiteral("line-through")));
    }
}

void TestInterventionsWindow::diffNamesKeptChangedAddedAndDropped() {
    using K = TokenChange::Kind;
    const std::vector<std::string> before{"a", "b", "c", "d"}, after{"a", "x", "c", "d", "e"};
    const std::vector<TokenChange> expected{
        {K::Kept, 0, 0}, {K::Changed, 1, 1}, {K::Kept, 2, 2}, {K::Kept, 3, 3}, {K::Added, -1, 4}};
    QCOMPARE(diffTokens(before, after), expected);
    const std::vector<TokenChange> dropped{{K::Kept, 0, 0}, {K::Dropped, 1, -1}, {K::Kept, 2, 1}};
    QCOMPARE(diffTokens({"a", "b", "c"}, {"a", "c"}), dropped);
    QVERIFY(countChanges(diffTokens({"a", "b"}, {"a", "b"})).unchanged());
    const ChangeCounts c = countChanges(diffTokens({}, {"x", "y"}));
    QCOMPARE(c.added, 2);
    QCOMPARE(c.kept, 0);
}

void TestInterventionsWindow::knockOutFromTheColumnLabelDecodesAgainWithoutTheWord() {
    QVERIFY(knockOutAt(labelOf(2)));  // "cat"
    QCOMPARE(int(w_->state()->interventions().size()), 1);
    QCOMPARE(w_->state()->interventions()[0].word, QStringLiteral("cat"));
    compareWithCore({{2}, {}, {}});
    for (int r = 0; r < w_->heatmapView()->data().rows(); ++r) QCOMPARE(w_->heatmapView()->cellValue(r, 2), 0.0);
    QCOMPARE(w_->heatmapView()->style().interventions.knockout, std::vector<int>{2});  // drawn struck through
    QVERIFY(w_->interventionDock()->isVisible());
    QCOMPARE(shown<QCheckBox>(QStringLiteral("interventionSwitch")).size(), 1);
    // The same menu on a knocked-out word restores it.
    QVERIFY(knockOutAt(labelOf(2)));
    QVERIFY(w_->state()->interventions().empty());
    compareWithCore({});
}

void TestInterventionsWindow::severalWordsFromCellsOfTheirColumns() {
    QVERIFY(knockOutAt(w_->heatmapView()->cellCenter(0, 4)));  // "sat"... column 4 of <sos> the cat sat on
    QVERIFY(knockOutAt(w_->heatmapView()->cellCenter(1, 6)));
    compareWithCore({{4, 6}, {}, {}});
    QCOMPARE(shown<QCheckBox>(QStringLiteral("interventionSwitch")).size(), 2);
}

void TestInterventionsWindow::knockingOutEveryWordIsRefusedWithAReason() {
    QVERIFY(typeAndWait(QStringLiteral("cat sat")));
    QVERIFY(knockOutAt(labelOf(1)));
    bool chosen = chooseFromMenu(w_->heatmapView()->plot(), labelOf(2), QStringLiteral("knockOutWord"));
    QVERIFY(chosen);  // offered, then refused with the reason
    QCOMPARE(int(w_->state()->interventions().size()), 1);
    QVERIFY2(w_->interventionList()->messageText().contains(QStringLiteral("Every word")),
             qPrintable(w_->interventionList()->messageText()));
    QCOMPARE(w_->decodes()->outcome()->interventions.knockout, std::vector<int>{1});
}

void TestInterventionsWindow::attendOnlyHereMakesTheRowOneHot() {
    const std::vector<std::vector<float>> before = w_->decodes()->outcome()->result.attention;
    QVERIFY(before.size() >= 2);
    bool chosen = false;
    w_->heatmapView()->verticalScrollBar()->setValue(0);  // the view opens on the last row: back to the first rows
    QVERIFY(waitForDecode([&] {
        chosen = chooseFromMenu(w_->heatmapView()->plot(), w_->heatmapView()->cellCenter(1, 3),
                                QStringLiteral("attendOnlyHere"));
    }));
    QVERIFY(chosen);
    compareWithCore({{}, {{1, 3}}, {}});
    const std::vector<std::vector<float>>& after = w_->decodes()->outcome()->result.attention;
    QCOMPARE(after[0], before[0]);  // the steps before it are the plain model's
    for (int c = 0; c < int(after[1].size()); ++c) QCOMPARE(after[1][size_t(c)], c == 3 ? 1.0f : 0.0f);
    QCOMPARE(w_->heatmapView()->style().interventions.attend.size(), size_t(1));  // the cell is marked
}

void TestInterventionsWindow::attendIsNotOfferedForATransformer() {
    QVERIFY(waitForDecode([&] { QVERIFY(w_->openModel(transformer_)); }));
    bool offered = false;
    w_->heatmapView()->verticalScrollBar()->setValue(0);  // row 1 in view
    QVERIFY(!chooseFromMenu(w_->heatmapView()->plot(), w_->heatmapView()->cellCenter(1, 3),
                            QStringLiteral("attendOnlyHere"), &offered));
    QVERIFY(offered);  // there, disabled, its tip saying why
    QVERIFY(w_->state()->interventions().empty());
}

void TestInterventionsWindow::switchesRemoveButtonsAndPlainModel() {
    QVERIFY(knockOutAt(labelOf(2)));
    QVERIFY(knockOutAt(labelOf(5)));
    QList<QCheckBox*> switches = shown<QCheckBox>(QStringLiteral("interventionSwitch"));
    QCOMPARE(switches.size(), 2);
    QVERIFY(waitForDecode([&] { switches[0]->click(); }));  // "cat" off, kept in the list
    QCOMPARE(int(w_->state()->interventions().size()), 2);
    QVERIFY(!w_->state()->interventions()[0].enabled);
    compareWithCore({{5}, {}, {}});
    QVERIFY(waitForDecode([&] { shown<QToolButton>(QStringLiteral("interventionRemove"))[1]->click(); }));
    QCOMPARE(int(w_->state()->interventions().size()), 1);
    compareWithCore({});  // the one left is off
    QVERIFY(waitForDecode([&] { shown<QCheckBox>(QStringLiteral("interventionSwitch"))[0]->click(); }));
    compareWithCore({{2}, {}, {}});
    QPushButton* plain = w_->interventionList()->plainModelButton();
    QVERIFY(plain->isEnabled());
    QVERIFY(waitForDecode([&] { plain->click(); }));
    QVERIFY(w_->state()->interventions().empty());
    QVERIFY(!plain->isEnabled());
    compareWithCore({});
    QVERIFY(!outputText().contains(QStringLiteral("overline")));
}

void TestInterventionsWindow::undoRedoShareTheStackWithForcing() {
    QVERIFY(knockOutAt(labelOf(2)));
    const DecodeResult knocked = coreDecode({{2}, {}, {}});
    // A forcing on top of the knockout: the second step's second candidate.
    w_->setCursorStep(2);
    const int token = w_->state()->currentStep()->top_k.at(1).id;
    QVERIFY(waitForDecode([&] { w_->forceCandidate(token); }));
    QCOMPARE(w_->decodes()->outcome()->interventions.knockout, std::vector<int>{2});
    QCOMPARE(w_->decodes()->outcome()->result.target_ids[1], token);
    QCOMPARE(w_->forcingHistory()->undoStack()->count(), 2);
    QVERIFY(waitForDecode([&] { w_->undoAction()->trigger(); }));  // the forcing goes, the knockout stays
    QVERIFY(w_->state()->forcedTokens().empty());
    compareWithCore({{2}, {}, {}});
    QVERIFY(waitForDecode([&] { w_->undoAction()->trigger(); }));  // the knockout goes
    QVERIFY(w_->state()->interventions().empty());
    compareWithCore({});
    QVERIFY(waitForDecode([&] { w_->redoAction()->trigger(); }));
    QCOMPARE(int(w_->state()->interventions().size()), 1);
    QCOMPARE(w_->decodes()->outcome()->result.target_ids, knocked.target_ids);
}

void TestInterventionsWindow::removingAHeadInTheHeadGrid() {
    QVERIFY(waitForDecode([&] { QVERIFY(w_->openModel(transformer_)); }));
    w_->headDock()->show();
    HeadGridView* grid = w_->headGrid();
    grid->setKind(AttentionKind::Cross);
    QTest::qWait(50);  // laid out
    const QPoint at = grid->canvas()->thumbnailCenter(1, 0);
    QVERIFY(at.x() >= 0);
    bool chosen = false;
    QVERIFY(waitForDecode([&] { chosen = chooseFromMenu(grid->canvas(), at, QStringLiteral("removeHead")); }));
    QVERIFY(chosen);
    const Interventions iv{{}, {}, {{AttentionKind::Cross, 1, 0}}};
    compareWithCore(iv);
    // Core's decode with the head off equals the model whose head's out_proj columns are zeroed.
    const Model zeroed = testing::withHeadZeroed(*w_->model(), {AttentionKind::Cross, 1, 0});
    QCOMPARE(w_->decodes()->outcome()->result.target_ids, greedyDecode(zeroed, kMatSource.toStdString()).target_ids);
    const std::vector<QPoint> removed{QPoint(1, 0)};
    QCOMPARE(grid->canvas()->figure().removed, removed);  // drawn greyed and crossed out
    QVERIFY(waitForDecode([&] { w_->undoAction()->trigger(); }));
    QVERIFY(grid->canvas()->figure().removed.empty());
    compareWithCore({});
}

void TestInterventionsWindow::siblingSwitchKeepsKnockoutsAndDropsAttends() {
    QVERIFY(knockOutAt(labelOf(2)));
    QVERIFY(waitForDecode([&] {
        QVERIFY(chooseFromMenu(w_->heatmapView()->plot(), w_->heatmapView()->cellCenter(0, 4),
                               QStringLiteral("attendOnlyHere")));
    }));
    QCOMPARE(int(w_->state()->interventions().size()), 2);
    QVERIFY(waitForDecode([&] { QVERIFY(w_->switchToSibling(transformer_)); }));
    QCOMPARE(int(w_->state()->interventions().size()), 1);
    QCOMPARE(w_->state()->interventions()[0].kind, InterventionItem::Kind::Knockout);
    QVERIFY2(w_->interventionList()->messageText().contains(QStringLiteral("attend")),
             qPrintable(w_->interventionList()->messageText()));
    compareWithCore({{2}, {}, {}});
}

void TestInterventionsWindow::newSentenceDropsKnockoutsButKeepsHeads() {
    QVERIFY(waitForDecode([&] { QVERIFY(w_->openModel(transformer_)); }));
    QVERIFY(knockOutAt(labelOf(2)));
    w_->headDock()->show();
    QTest::qWait(50);
    QVERIFY(waitForDecode([&] {
        QVERIFY(chooseFromMenu(w_->headGrid()->canvas(), w_->headGrid()->canvas()->thumbnailCenter(0, 1),
                               QStringLiteral("removeHead")));
    }));
    QCOMPARE(int(w_->state()->interventions().size()), 2);
    QVERIFY(typeAndWait(QStringLiteral("i love you")));
    QCOMPARE(int(w_->state()->interventions().size()), 1);
    QCOMPARE(w_->state()->interventions()[0].kind, InterventionItem::Kind::HeadOff);
    QCOMPARE(w_->decodes()->outcome()->interventions.heads_off.size(), size_t(1));
    QVERIFY(w_->decodes()->outcome()->interventions.knockout.empty());
}

void TestInterventionsWindow::exportsNameTheInterventions() {
    QVERIFY(knockOutAt(labelOf(2)));
    QTemporaryDir dir;
    const Interventions iv{{2}, {}, {}};
    const QString json = dir.filePath(QStringLiteral("k.json")), csv = dir.filePath(QStringLiteral("k.csv")),
                  svg = dir.filePath(QStringLiteral("k.svg"));
    for (const QString& path : {json, csv, svg}) QVERIFY(w_->exportTo(path, w_->exportOptions()));
    QFile j(json);
    QVERIFY(j.open(QIODevice::ReadOnly));
    const auto parsed = nlohmann::json::parse(j.readAll().toStdString());
    QCOMPARE(parsed.at("interventions").dump(), interventionsToJson<nlohmann::json>(iv).dump());
    QCOMPARE(parsed.at("interventions").dump(), std::string(R"({"knockout":[2]})"));
    QCOMPARE(decodeFromJson(parsed).target_ids, coreDecode(iv).target_ids);
    QFile c(csv);
    QVERIFY(c.open(QIODevice::ReadOnly));
    QVERIFY(QString::fromUtf8(c.readLine())
                .startsWith(QStringLiteral(R"("target\source interventions {""knockout"":[2]}")")));
    QFile s(svg);
    QVERIFY(s.open(QIODevice::ReadOnly));
    QVERIFY(QString::fromUtf8(s.readAll()).contains(QStringLiteral("knocked out “cat”")));
}

void TestInterventionsWindow::refusedInterventionsLeaveThePlainDecodeAndSayWhy() {
    // As the command line can ask: an attend past the source. The engine refuses it; the plain decode is shown.
    QVERIFY(waitForDecode([&] {
        w_->setInterventions({{}, {{0, 99}}, {}});
        w_->decodeNow();
    }));
    QVERIFY(w_->decodes()->outcome()->interventions.empty());
    compareWithCore({});
    QVERIFY2(w_->noticeText().contains(QStringLiteral("past the source")), qPrintable(w_->noticeText()));
    QCOMPARE(int(w_->state()->interventions().size()), 1);  // still listed, to be removed or switched off
    QVERIFY(waitForDecode([&] { w_->interventionList()->plainModelButton()->click(); }));
    QVERIFY(!w_->noticeText().contains(QStringLiteral("past the source")));
}

// The worker keeps each request's plain decode: a knockout added to the same request decodes once more and compares
// with that decode; another sentence (or another model) is decoded plainly again. Both equal core's decodes.
void TestInterventionsWindow::addingAnInterventionReusesThePlainDecodeOfTheSameRequest() {
    auto model = std::make_shared<const Model>(
        testing::smallModel(testing::smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 7));
    DecodeRequest plain;
    plain.model = model;
    plain.source = "the cat sat";
    PlainDecodeCache cache;
    const DecodeOutcome first = DecodeWorker::run(plain, {}, &cache);
    QVERIFY(cache.holds(plain));
    const std::shared_ptr<const PrefixDecoding> kept = cache.decoding;

    DecodeRequest knocked = plain;
    knocked.interventions.knockout = {2};
    const DecodeOutcome second = DecodeWorker::run(knocked, {}, &cache);
    QCOMPARE(second.plain.get(), kept.get());  // not decoded again
    QCOMPARE(second.plain->result.target_ids, first.result.target_ids);
    DecodeOptions o;
    o.interventions = knocked.interventions;
    const DecodeResult core = greedyDecode(*model, knocked.source, o);
    QCOMPARE(second.result.target_ids, core.target_ids);
    QCOMPARE(second.result.attention, core.attention);

    DecodeRequest other = knocked;
    other.source = "the mat sat";
    const DecodeOutcome third = DecodeWorker::run(other, {}, &cache);
    QVERIFY(third.plain.get() != kept.get());
    QCOMPARE(third.plain->result.target_ids, greedyDecode(*model, other.source).target_ids);
    QVERIFY(cache.holds(other));
    DecodeRequest back = other;  // "Plain model": the plain decode kept, equal to core's
    back.interventions = {};
    const DecodeOutcome fourth = DecodeWorker::run(back, {}, &cache);
    QCOMPARE(fourth.result.target_ids, third.plain->result.target_ids);
    QCOMPARE(fourth.result.attention, greedyDecode(*model, other.source).attention);
    other.model = std::make_shared<const Model>(*model);  // an equal model, but another one: decoded again
    QVERIFY(!cache.holds(other));
}

// Gradient × input of a decode with "cat" knocked out is core's explanation of the intervened model (not the plain
// one's), and the line above the heatmap names the method, not a refusal.
void TestInterventionsWindow::aGradientMethodExplainsTheIntervenedModel() {
    QVERIFY(knockOutAt(labelOf(2)));
    QSignalSpy spy(w_->state(), &DecodeState::explanationChanged);
    w_->setExplainMethod(ExplainMethod::GradInput);
    QVERIFY(!spy.isEmpty() || spy.wait(20000));
    const Interventions iv{{2}, {}, {}};
    ExplainOptions o;
    o.interventions = iv;
    const Model& model = *w_->state()->decodedModel();
    const DecodeResult decode = coreDecode(iv);
    const Explanation want = explainDecode(model, decode, ExplainMethod::GradInput, o);
    QVERIFY(w_->state()->explanation());
    QCOMPARE(w_->state()->explanation()->values, want.values);
    QVERIFY(want.values != explainDecode(model, decode, ExplainMethod::GradInput).values);
    QVERIFY2(w_->attentionViewText().contains(explainMethodTitle(ExplainMethod::GradInput)),
             qPrintable(w_->attentionViewText()));
    w_->explainWorker()->waitForDone();
}

ATTNVIZ_TEST_MAIN(TestInterventionsWindow)
#include "test_interventions_window.moc"
