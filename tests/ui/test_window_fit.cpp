// The main window on the screen it opens on (issue 44, "The window"): the first window fits the screen's available
// room, a geometry saved on a larger screen is brought onto this one, and Getting started stands on the screen clear
// of the heatmap. CTest runs it on a 1024×600 screen (ui_test_window_fit_1024x600) and on a 2048×1200 one at 200 %
// (ui_test_window_fit_200: 1024×600 logical pixels), through the offscreen platform's screen files in tests/ui/;
// on the platform's own 800×800 screen, narrower than the window's least width, the checks that need the room skip.
#include "dialogs/window_placement.h"
#include "main_window_fixture.h"
#include "test_registry.h"

#include <QDialog>
#include <QStyle>
#include <QTest>

using namespace attnviz;
using namespace attnviz::ui;

class TestWindowFit : public QObject, attnviz::testing::MainWindowFixture {
    Q_OBJECT
private slots:
    void initTestCase() { setUpWindowTests(QStringLiteral("attnviz-window-fit-test")); }
    void init() { openWindow(); }
    void cleanup() { closeWindow(); }

    void theFirstWindowFitsItsScreen();
    void aSavedGeometryIsBroughtOntoTheScreen();
    void gettingStartedFitsTheScreenBesideTheHeatmap();

private:
    void settle() {
        for (int i = 0; i < 6; ++i) QCoreApplication::processEvents();
        w_->decodes()->waitForDone();
        for (int i = 0; i < 6; ++i) QCoreApplication::processEvents();
    }
    // Whether the screen has room for the window's least size with its frame.
    bool roomForTheWindow() const {
        const QSize least = w_->minimumSizeHint().expandedTo(w_->minimumSize());
        const QMargins frame = frameMarginsOf(w_.get());
        return availableGeometryOf(w_.get()).size().expandedTo(least.grownBy(frame)) ==
               availableGeometryOf(w_.get()).size();
    }
    static QString text(const QRect& r) {
        return QStringLiteral("%1,%2 %3x%4").arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height());
    }
};

// No saved geometry: the window opens inside its screen's available room, as large as it allows up to 1400×860 (it
// used to be 1400×860 whatever the screen: its bottom row and status bar off a 1366×768 laptop).
void TestWindowFit::theFirstWindowFitsItsScreen() {
    if (!roomForTheWindow()) QSKIP("the screen is narrower than the window's least size");
    settle();
    const QRect available = availableGeometryOf(w_.get());
    QVERIFY2(available.contains(w_->frameGeometry()),
             qPrintable(text(w_->frameGeometry()) + QStringLiteral(" on ") + text(available)));
    // As large as the room allows: the window system's frame was guessed (a title bar) before the window was shown.
    const QSize room = available.marginsRemoved(frameMarginsOf(w_.get())).size();
    const int guessed = w_->style()->pixelMetric(QStyle::PM_TitleBarHeight, nullptr, w_.get());
    QVERIFY2(
        w_->width() >= std::min(1400, room.width()) - guessed && w_->height() >= std::min(860, room.height()) - guessed,
        qPrintable(text(w_->geometry()) + QStringLiteral(" in a room of %1x%2").arg(room.width()).arg(room.height())));
}

// A geometry saved on a larger screen (1400×860, right of this one) opens on this screen, as large as it allows.
void TestWindowFit::aSavedGeometryIsBroughtOntoTheScreen() {
    if (!roomForTheWindow()) QSKIP("the screen is narrower than the window's least size");
    const QRect available = availableGeometryOf(w_.get());
    w_->setGeometry(available.right() + 200, 40, 1400, 860);
    QSettings().setValue(QStringLiteral("MainWindow/geometry"), w_->saveGeometry());
    closeWindow();
    w_ = std::make_unique<MainWindow>();
    w_->setInteractive(false);
    w_->show();
    settle();
    QVERIFY2(available.contains(w_->frameGeometry()),
             qPrintable(text(w_->frameGeometry()) + QStringLiteral(" on ") + text(available)));
}

// Getting started never larger than the screen (its Close button on it), and clear of the heatmap: an 800×600 window
// at the screen's left leaves room for the narrow page beside its heatmap.
void TestWindowFit::gettingStartedFitsTheScreenBesideTheHeatmap() {
    if (!roomForTheWindow()) QSKIP("the screen is narrower than the window's least size");
    const QRect available = availableGeometryOf(w_.get());
    const QMargins frame = frameMarginsOf(w_.get());
    w_->setGeometry(QRect(available.topLeft() + QPoint(frame.left(), frame.top()), QSize(800, 600))
                        .intersected(available.marginsRemoved(frame)));
    settle();
    QDialog* page = w_->showGettingStarted();
    settle();
    QVERIFY2(available.contains(page->frameGeometry()),
             qPrintable(text(page->frameGeometry()) + QStringLiteral(" on ") + text(available)));
    if (available.width() < 1024) return;  // no room beside the heatmap for even the narrow page
    const QRect heatmap(w_->heatmapView()->mapToGlobal(QPoint()), w_->heatmapView()->size());
    QVERIFY2(!page->frameGeometry().intersects(heatmap),
             qPrintable(text(page->frameGeometry()) + QStringLiteral(" over the heatmap at ") + text(heatmap)));
    page->close();
}

ATTNVIZ_TEST_MAIN(TestWindowFit)
#include "test_window_fit.moc"
