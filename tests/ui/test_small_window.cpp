// The window asked to be 800×600 (docs/gui.md, "Never squeezed") keeps that size with every dock shown: a bottom dock
// that has no room beside the others goes into a tab with them, the interventions list goes into a tab with the cell
// inspector, in front, and a dock shorter than its contents scrolls them. Grown by its layout for a moment, the window
// returns to the size asked for. A large window keeps the docks side by side. The head importance dock puts its table
// under the chart when it is too narrow for both side by side.
#include "main_window_fixture.h"
#include "state/decode_state.h"
#include "test_registry.h"
#include "views/explain_scores_panel.h"
#include "views/gold_links_panel.h"
#include "views/head_importance_panel.h"
#include "window/dock_scroller.h"
#include "window/reference_fold.h"
#include "window/source_editor.h"

#include <QAbstractItemView>
#include <QCompleter>
#include <QDockWidget>
#include <QHeaderView>
#include <QLineEdit>
#include <QScrollBar>
#include <QTableWidget>
#include <QTest>
#include <QToolButton>

using namespace attnviz;
using namespace attnviz::ui;

class TestSmallWindow : public QObject, attnviz::testing::MainWindowFixture {
    Q_OBJECT
private slots:
    void initTestCase() { setUpWindowTests(QStringLiteral("attnviz-small-window-test")); }
    void init() { openWindow(); }
    void cleanup() { closeWindow(); }

    void bottomDocksShareTabsWhenNarrow();
    void bottomDocksSideBySideWhenWide();
    void docksShownWithTheWindowShareTabs();
    void aCorpusOpenedKeepsTheWindowWidth();
    void interventionsTabbedWithInspectorWhenShort();
    void interventionsUnderInspectorWhenTall();
    void headImportanceTableUnderChartWhenNarrow();
    void everyDockShownKeeps800x600AndScrollsItsContents();
    void aWindowGrownByItsLayoutReturnsToTheAskedSize();
    void theCurrentStepIsWholeWhereTheColumnHasRoom();
    void aStepDockMadeShorterByTheUserStaysSo();
    void aShortWindowFoldsItsFields();
    void theExplanationScoresShowWholeRowsBesideTheInterventions();

private:
    void settle();
    void resizeTo(QSize size);
    QList<QDockWidget*> bottomDocks() const {
        return {w_->beamDock(), w_->corpusDock(), w_->headDock(), w_->headImportanceDock()};
    }
    void knockOutAWord();
};

// Shown and not behind another dock's tab (Qt keeps those "visible", out of sight).
static bool inFront(const QDockWidget* dock) { return dock->isVisible() && !dock->visibleRegion().isEmpty(); }

void TestSmallWindow::settle() {
    for (int i = 0; i < 6; ++i) QCoreApplication::processEvents();
    w_->decodes()->waitForDone();
    for (int i = 0; i < 6; ++i) QCoreApplication::processEvents();
}

void TestSmallWindow::resizeTo(QSize size) {
    settle();
    w_->resize(size);
    settle();
}

void TestSmallWindow::knockOutAWord() {
    Interventions iv;
    iv.knockout = {1};
    QSignalSpy decoded(w_.get(), &MainWindow::decodeFinished);
    w_->setInterventions(iv);
    w_->decodeNow();
    QVERIFY(decoded.wait(20000) || !decoded.isEmpty());
    settle();
}

// Every bottom dock opened in turn at 800×600: the window keeps its width (their minimum widths side by side would
// make it 1,900 px wide); the docks that had no room beside the first share its tabs, the last one opened in front.
void TestSmallWindow::bottomDocksShareTabsWhenNarrow() {
    QVERIFY(typeAndWait(QStringLiteral("i love the cat")));
    resizeTo(QSize(800, 600));
    QDockWidget* last = nullptr;
    for (QDockWidget* dock : bottomDocks()) {
        dock->show();
        settle();
        QVERIFY2(
            w_->size() == QSize(800, 600),
            qPrintable(QStringLiteral("%1 x %2 after %3").arg(w_->width()).arg(w_->height()).arg(dock->objectName())));
        last = dock;
    }
    QVERIFY(inFront(last));
    QCOMPARE(w_->tabifiedDockWidgets(last).size(), bottomDocks().size() - 1);
    for (QDockWidget* dock : bottomDocks())
        if (dock != last) QVERIFY2(!inFront(dock), qPrintable(dock->objectName() + " is not behind a tab"));
}

// Docks shown in the same round as the window (as the command line's --beam, --heads, --corpus are): once it is laid
// out they share one tab group too, and the window keeps the width it was shown at.
void TestSmallWindow::docksShownWithTheWindowShareTabs() {
    QVERIFY(typeAndWait(QStringLiteral("i love the cat")));
    w_->hide();
    settle();
    w_->resize(800, 600);
    w_->show();
    const QList<QDockWidget*> docks{w_->beamDock(), w_->headDock(), w_->corpusDock()};
    for (QDockWidget* dock : docks) dock->show();
    settle();
    QCOMPARE(w_->size(), QSize(800, 600));
    int in_front = 0;
    for (QDockWidget* dock : docks) {
        QCOMPARE(w_->tabifiedDockWidgets(dock).size(), docks.size() - 1);
        in_front += inFront(dock) ? 1 : 0;
    }
    QCOMPARE(in_front, 1);
}

// A corpus opened in an 800 px window: its table would like its columns' width, and the layout grew the window to
// about 910 px for it though the dock's minimum fits; the window keeps its width and the table scrolls.
void TestSmallWindow::aCorpusOpenedKeepsTheWindowWidth() {
    QVERIFY(typeAndWait(QStringLiteral("i love the cat")));
    resizeTo(QSize(800, 600));
    QVERIFY(w_->openCorpus(QStringLiteral(ATTNVIZ_BUILD_CORPORA "/tatoeba/test.tsv")));
    settle();
    QVERIFY(inFront(w_->corpusDock()));
    QCOMPARE(w_->size(), QSize(800, 600));
}

// With room for them, two bottom docks stand side by side, both shown.
void TestSmallWindow::bottomDocksSideBySideWhenWide() {
    QVERIFY(typeAndWait(QStringLiteral("i love the cat")));
    resizeTo(QSize(1400, 900));
    w_->beamDock()->show();
    settle();
    w_->headDock()->show();
    settle();
    QVERIFY(inFront(w_->beamDock()));
    QVERIFY(inFront(w_->headDock()));
    QVERIFY(w_->tabifiedDockWidgets(w_->headDock()).isEmpty());
    QCOMPARE(w_->size(), QSize(1400, 900));
}

// A knockout in a window asked to be 800×600 opens the interventions list in front, in a tab with the cell
// inspector rather than under it (where the right column would need 850 px), and the current step stays shown.
void TestSmallWindow::interventionsTabbedWithInspectorWhenShort() {
    QVERIFY(typeAndWait(QStringLiteral("i love the cat")));
    resizeTo(QSize(800, 600));
    knockOutAWord();
    QVERIFY(inFront(w_->interventionDock()));
    QVERIFY(w_->tabifiedDockWidgets(w_->interventionDock()).contains(w_->inspectorDock()));
    QVERIFY(inFront(w_->stepDock()));
    QCOMPARE(w_->width(), 800);
    w_->beamDock()->show();  // the bottom row's room is measured beside the tabbed right column
    settle();
    QVERIFY(inFront(w_->beamDock()));
    QCOMPARE(w_->width(), 800);
}

// In a tall window the list has its own place under the inspector, both shown.
void TestSmallWindow::interventionsUnderInspectorWhenTall() {
    QVERIFY(typeAndWait(QStringLiteral("i love the cat")));
    resizeTo(QSize(1400, 900));
    knockOutAWord();
    QVERIFY(inFront(w_->interventionDock()));
    QVERIFY(inFront(w_->inspectorDock()));
    QVERIFY(w_->tabifiedDockWidgets(w_->interventionDock()).isEmpty());
    QVERIFY(w_->interventionDock()->y() > w_->inspectorDock()->y());
}

// Narrow, the table goes under the chart and shows every column; wide, it stands beside the chart.
void TestSmallWindow::headImportanceTableUnderChartWhenNarrow() {
    HeadImportancePanel panel(w_->state());
    panel.resize(600, 500);
    panel.show();
    settle();
    QCOMPARE(panel.arrangement(), Qt::Vertical);
    const QTableWidget* table = panel.table();
    QVERIFY(table->y() > 0 && table->x() == 0);
    QVERIFY2(table->horizontalHeader()->length() <= table->viewport()->width(),
             qPrintable(QStringLiteral("columns %1 px in %2 px")
                            .arg(table->horizontalHeader()->length())
                            .arg(table->viewport()->width())));
    panel.resize(1300, 300);
    settle();
    QCOMPARE(panel.arrangement(), Qt::Horizontal);
    QVERIFY(table->x() > 0);
}

// Every dock at once at 800×600 (the bottom five, the explanation scores, the interventions): the window keeps its
// size, and each dock in front either shows its contents whole or scrolls them, never squeezing them below their
// minimum height; the scroll bar reaches their end.
void TestSmallWindow::everyDockShownKeeps800x600AndScrollsItsContents() {
    QVERIFY(typeAndWait(QStringLiteral("the cat sat on the mat with the cat")));
    resizeTo(QSize(800, 600));
    knockOutAWord();
    for (QDockWidget* dock : bottomDocks()) dock->show();
    w_->explainScoresDock()->show();
    settle();
    QCOMPARE(w_->size(), QSize(800, 600));
    int scrolled = 0;
    for (QDockWidget* dock : w_->findChildren<QDockWidget*>()) {
        if (!inFront(dock)) continue;
        const auto* scroller = dynamic_cast<const DockScroller*>(dock->widget());
        QVERIFY2(scroller, qPrintable(dock->objectName() + " does not scroll"));
        const QWidget* contents = scroller->widget();
        const int least = contents->minimumSizeHint().height();
        QVERIFY2(contents->height() >= least, qPrintable(QStringLiteral("%1: contents %2 px, their minimum %3")
                                                             .arg(dock->objectName())
                                                             .arg(contents->height())
                                                             .arg(least)));
        const int hidden = contents->height() - scroller->viewport()->height();
        QCOMPARE(scroller->verticalScrollBar()->maximum(), std::max(0, hidden));
        scrolled += hidden > 0 ? 1 : 0;
    }
    QVERIFY2(scrolled > 0, "no dock needed to scroll: the case is not tested");
}

// A minimum that grows the window for a moment (here the heatmap's; a dock shown before it is tabbed, or a layout
// before its first pass, do it too) leaves the window the size last asked for once the minimum allows.
void TestSmallWindow::aWindowGrownByItsLayoutReturnsToTheAskedSize() {
    QVERIFY(typeAndWait(QStringLiteral("i love the cat")));
    resizeTo(QSize(800, 600));
    w_->heatmapView()->setMinimumHeight(700);
    settle();
    QVERIFY2(w_->height() > 600, "the layout did not grow the window");
    w_->heatmapView()->setMinimumHeight(0);
    settle();
    QCOMPARE(w_->size(), QSize(800, 600));
    resizeTo(QSize(900, 700));  // a new size asked for is the one kept
    w_->heatmapView()->setMinimumHeight(800);
    settle();
    w_->heatmapView()->setMinimumHeight(0);
    settle();
    QCOMPARE(w_->size(), QSize(900, 700));
}

// At 1400×860 the right column has room for the current step's whole panel (chart, candidates, force field) above
// the cell inspector: the step dock takes it from the inspector instead of scrolling; at 800×600 it scrolls.
void TestSmallWindow::theCurrentStepIsWholeWhereTheColumnHasRoom() {
    QVERIFY(typeAndWait(QStringLiteral("i love the cat")));
    const auto* step = dynamic_cast<const DockScroller*>(w_->stepDock()->widget());
    QVERIFY(step);
    resizeTo(QSize(1400, 860));
    QVERIFY(inFront(w_->inspectorDock()));
    QCOMPARE(step->verticalScrollBar()->maximum(), 0);
    QCOMPARE(step->widget()->height(), step->viewport()->height());
    resizeTo(QSize(800, 600));
    QVERIFY(step->verticalScrollBar()->maximum() > 0);
}

// The user drags the edge between the current step and the cell inspector up: the step panel scrolls, and clicking a
// cell or stepping (which lay the window out again) does not undo the drag.
void TestSmallWindow::aStepDockMadeShorterByTheUserStaysSo() {
    QVERIFY(typeAndWait(QStringLiteral("i love the cat")));
    resizeTo(QSize(1400, 860));
    w_->resizeDocks({w_->stepDock(), w_->inspectorDock()}, {200, 500}, Qt::Vertical);
    settle();
    const int dragged = w_->stepDock()->height();
    QVERIFY2(dragged < 260, qPrintable(QStringLiteral("the drag left %1 px").arg(dragged)));
    w_->state()->setSelection(1, 1);
    w_->setCursorStep(1);
    settle();
    QCOMPARE(w_->stepDock()->height(), dragged);
}

// Below kCompactHeight (920 px) the source field is one line until typed in, the reference and gold links are folded behind
// the button beside it (which says a reference is forced), and the notice line takes no room while it is empty; a
// tall window unfolds them.
void TestSmallWindow::aShortWindowFoldsItsFields() {
    w_->activateWindow();  // focus moves (and its events come) in the active window only
    QVERIFY(QTest::qWaitForWindowActive(w_.get()));
    resizeTo(QSize(800, 600));
    SourceEditor* source = w_->sourceEditor();
    QVERIFY(source->isCompact());
    QVERIFY(w_->referenceFold()->isFolded());
    QVERIFY(!w_->referenceEdit()->isVisible());
    QVERIFY(!w_->goldLinks()->isVisible());
    const int one_line = source->height();
    QVERIFY2(one_line < 2 * source->fontMetrics().lineSpacing(), qPrintable(QString::number(one_line)));
    QVERIFY(typeAndWait(QStringLiteral("i love the cat")));  // typing grows it
    settle();
    QVERIFY(source->height() > 2 * source->fontMetrics().lineSpacing());
    source->completer()->popup()->hide();  // the completion list the typing opened, active while shown
    w_->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(w_.get()));
    w_->heatmapView()->setFocus();  // leaving it shrinks it again
    settle();
    QCOMPARE(source->height(), one_line);
    w_->setReferenceText(QStringLiteral("我 爱 猫"));
    QVERIFY(w_->referenceFold()->button()->text().contains(QStringLiteral("forced")));
    QVERIFY(w_->referenceFold()->summary().contains(QStringLiteral("我 爱 猫")));
    w_->referenceFold()->button()->click();  // unfolded by the user
    settle();
    QVERIFY(w_->referenceEdit()->isVisible());
    QVERIFY(w_->goldLinks()->isVisible());
    QVERIFY2(
        w_->goldLinks()->linksEdit()->width() >= 20 * w_->fontMetrics().averageCharWidth(),
        qPrintable(QStringLiteral("the gold links field is %1 px wide").arg(w_->goldLinks()->linksEdit()->width())));
    resizeTo(QSize(1400, 1000));
    QVERIFY(!source->isCompact());
    QVERIFY(!w_->referenceFold()->isFolded());
    QVERIFY(w_->goldLinks()->optionsBesideField());
}

// The interventions dock under the cell inspector (a tall window) and the explanation scores tabbed with the
// inspector, in front: the scores' table shows every row whole, or the panel scrolls; never half a row.
void TestSmallWindow::theExplanationScoresShowWholeRowsBesideTheInterventions() {
    QVERIFY(typeAndWait(QStringLiteral("i love the cat")));
    resizeTo(QSize(1400, 860));
    knockOutAWord();
    QVERIFY(inFront(w_->interventionDock()));
    w_->explainScoresDock()->show();
    w_->explainScoresDock()->raise();
    settle();
    QTableWidget* table = w_->explainScores()->findChild<QTableWidget*>(QStringLiteral("ExplainScoresTable"));
    QVERIFY(table);
    QTRY_VERIFY_WITH_TIMEOUT(table->rowCount() > 1, 30000);
    settle();
    QVERIFY(inFront(w_->explainScoresDock()));
    const int rows = table->verticalHeader()->length();
    QVERIFY2(
        table->viewport()->height() >= rows,
        qPrintable(
            QStringLiteral("the table shows %1 px of its %2 px of rows").arg(table->viewport()->height()).arg(rows)));
}

ATTNVIZ_TEST_MAIN(TestSmallWindow)
#include "test_small_window.moc"
