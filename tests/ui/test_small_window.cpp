// The window asked to be 800×600 (docs/gui.md, "Never squeezed"): it keeps its width with every bottom dock shown (a
// dock that has no room beside the others goes into a tab with them), and the interventions list goes into a tab
// with the cell inspector, in front. (Its height still grows to the right column's and the heatmap's minimums.) A large window keeps the docks side by side. The head importance dock puts
// its table under the chart when it is too narrow for both side by side.
#include "main_window_fixture.h"
#include "state/decode_state.h"
#include "test_registry.h"
#include "views/head_importance_panel.h"

#include <QDockWidget>
#include <QHeaderView>
#include <QTableWidget>
#include <QTest>

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

private:
    void settle();
    void resizeTo(QSize size);
    QList<QDockWidget*> bottomDocks() const {
        return {w_->beamDock(), w_->compareDock(), w_->corpusDock(), w_->headDock(), w_->headImportanceDock()};
    }
    void knockOutAWord();
};

// Shown and not behind another dock's tab (Qt keeps those "visible", out of sight).
static bool inFront(const QDockWidget* dock) { return dock->isVisible() && !dock->visibleRegion().isEmpty(); }

void TestSmallWindow::settle() {
    for (int i = 0; i < 6; ++i) QCoreApplication::processEvents();
    w_->worker()->waitForDone();
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
// (Its height may grow: the heatmap's least rows and a bottom dock's minimum need more than 600 px.)
void TestSmallWindow::bottomDocksShareTabsWhenNarrow() {
    QVERIFY(typeAndWait(QStringLiteral("i love the cat")));
    resizeTo(QSize(800, 600));
    QDockWidget* last = nullptr;
    for (QDockWidget* dock : bottomDocks()) {
        dock->show();
        settle();
        QVERIFY2(w_->width() == 800,
                 qPrintable(QStringLiteral("%1 wide after %2").arg(w_->width()).arg(dock->objectName())));
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
    QCOMPARE(w_->width(), 800);
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
    QCOMPARE(w_->width(), 800);
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

ATTNVIZ_TEST_MAIN(TestSmallWindow)
#include "test_small_window.moc"
