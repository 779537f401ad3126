// Windows on the screen they open on (issue 44, "The window"): a window larger than the screen's available room is
// made to fit it with its frame, one saved on a screen that is gone comes back onto this one, one that fits stays as
// it is; a window opened beside others (Getting started) goes beside the main window where the screen has room,
// over the right column rather than the heatmap where it has none, and off a training window in front of both.
#include "dialogs/window_placement.h"
#include "test_registry.h"

#include <QTest>

using namespace attnviz::ui;

class TestWindowPlacement : public QObject {
    Q_OBJECT
private slots:
    void aWindowLargerThanTheScreenIsMadeToFitWithItsFrame();
    void aWindowSavedOnAScreenThatIsGoneComesBack();
    void aWindowThatFitsStaysAsItIs();
    void aDialogGoesBesideTheWindowWhereTheScreenHasRoom();
    void aDialogOverAFullScreenWindowLeavesTheHeatmapClear();
    void aDialogKeepsOffATrainingWindowInFront();
};

namespace {
const QRect kLaptop(0, 0, 1366, 740);  // 1366×768 less a 28-pixel panel
const QMargins kFrame(1, 30, 1, 1);    // a title bar and a thin border
qint64 area(const QRect& r) { return r.isEmpty() ? 0 : qint64(r.width()) * r.height(); }
}  // namespace

// Today's first window, 1400×860, on a 1366×768 laptop: its frame lies on the screen, as large as the screen allows.
void TestWindowPlacement::aWindowLargerThanTheScreenIsMadeToFitWithItsFrame() {
    const QRect fitted = fitInside(QRect(-17, -60, 1400, 860), kLaptop, kFrame);
    QCOMPARE(fitted, QRect(1, 30, 1364, 709));
    QVERIFY(kLaptop.contains(fitted.marginsAdded(kFrame)));
    // At 200 % the same screen is 683×370 logical pixels: the window still fits it.
    const QRect at200(0, 0, 683, 370);
    QVERIFY(at200.contains(fitInside(QRect(0, 0, 1400, 860), at200, kFrame).marginsAdded(kFrame)));
}

void TestWindowPlacement::aWindowSavedOnAScreenThatIsGoneComesBack() {
    const QRect saved(1900, 200, 1000, 700);  // on a second monitor right of the laptop
    const QRect fitted = fitInside(saved, kLaptop, kFrame);
    QCOMPARE(fitted.size(), saved.size());
    QVERIFY(kLaptop.contains(fitted.marginsAdded(kFrame)));
    QCOMPARE(fitted.right() + kFrame.right(), kLaptop.right());  // moved the least: to the right edge
}

void TestWindowPlacement::aWindowThatFitsStaysAsItIs() {
    const QRect inside(100, 80, 800, 600);
    QCOMPARE(fitInside(inside, kLaptop, kFrame), inside);
}

// A 900-pixel window on a 1920-pixel screen: the dialog stands beside it, touching none of it.
void TestWindowPlacement::aDialogGoesBesideTheWindowWhereTheScreenHasRoom() {
    const QRect screen(0, 0, 1920, 1050), window(100, 100, 900, 700), heatmap(110, 250, 600, 500);
    const QRect placed = placeBeside({QSize(640, 560), QSize(400, 560)}, screen, {heatmap, window});
    QCOMPARE(placed.size(), QSize(640, 560));
    QVERIFY(screen.contains(placed));
    QVERIFY(!placed.intersects(window));
    QCOMPARE(placed.left(), window.right() + 1);  // beside it, not across the screen
}

// The window fills the laptop's screen; the heatmap takes its left 900 pixels, the right column the rest: the
// narrower dialog covers the right column only.
void TestWindowPlacement::aDialogOverAFullScreenWindowLeavesTheHeatmapClear() {
    const QRect window = kLaptop, heatmap(10, 200, 900, 500);
    const QRect placed = placeBeside({QSize(640, 560), QSize(400, 560)}, kLaptop, {heatmap, window});
    QVERIFY(kLaptop.contains(placed));
    QCOMPARE(area(placed.intersected(heatmap)), 0);
    QCOMPARE(placed.width(), 400);
}

// `attnviz --train`: the training window stands in front of the main window; the dialog avoids it first, then the
// heatmap.
void TestWindowPlacement::aDialogKeepsOffATrainingWindowInFront() {
    const QRect screen(0, 0, 1920, 1050), window(0, 0, 1400, 860), heatmap(10, 200, 1000, 600);
    const QRect training(200, 100, 1100, 800);
    const QRect placed = placeBeside({QSize(640, 560), QSize(400, 560)}, screen, {training, heatmap, window});
    QVERIFY(screen.contains(placed));
    QCOMPARE(area(placed.intersected(training)), 0);
    QCOMPARE(area(placed.intersected(heatmap)), 0);
}

ATTNVIZ_TEST_MAIN(TestWindowPlacement)
#include "test_window_placement.moc"
