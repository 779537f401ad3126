// The heatmap is never squeezed, hidden or mislabelled (issues 30 and 44): one window and one model driven through
// every bottom dock × window size (1400×900, and the small screens 800×600 and 1024×600) × sentence length ×
// coverage on/off, each layout read from the widgets' geometry and HeatmapView's accessors: no cell below the minimum
// cell size, the matrix keeps 8 rows' room where the window is big enough and 6 at 600 pixels high with any dock,
// whose contents then show kDockContentLines lines (not only its toolbar), every row and column reachable by the
// scroll bars, the current row and the selected cell scrolled into view and their outlines inside the matrix (also
// once scrolled away), no label over another, "coverage" whole, no blank band above the column labels, the legend's
// entries exactly with the coverage and shown whenever they are, under the plot and clear of every label. The compare
// view's maps, in their tab, keep 8 rows and 8 columns of readable cells with nothing drawn over another. Also: the
// wheel scrolls and Ctrl+wheel zooms, and the step chart shows no scale without bars.
#include "heatmap/fitted_title.h"
#include "heatmap/heatmap_legend.h"
#include "heatmap/heatmap_view.h"
#include "main_window_fixture.h"
#include "state/decode_state.h"
#include "test_registry.h"
#include "views/compare_view.h"
#include "window/dock_scroller.h"
#include "window/step_panel.h"

#include <qcustomplot.h>
#include <QAction>
#include <QDockWidget>
#include <QFontMetricsF>
#include <QScrollBar>
#include <QTest>
#include <QWheelEvent>

#include <algorithm>

using namespace attnviz;
using namespace attnviz::ui;

namespace {

// `n` words of the fixture's source vocabulary, and a reference of `n` words of its target vocabulary (n + 1 rows
// with <eos>): the heatmap's size does not depend on what the random model would decode.
QString sourceOf(int n) {
    const QStringList words{"the",  "cat", "sat", "on", "the",   "mat",       "i",
                            "love", "you", "ate", "an", "apple", "yesterday", ","};
    QStringList out;
    for (int i = 0; i + 1 < n; ++i) out << words[i % words.size()];
    return (out << QStringLiteral(".")).join(u' ');
}
QString referenceOf(int n) {
    const QStringList words{"猫", "坐", "在", "垫子", "上", "我", "爱", "你", "吃", "了", "一个", "苹果", "昨天"};
    QStringList out;
    for (int i = 0; i + 1 < n; ++i) out << words[i % words.size()];
    return (out << QStringLiteral("。")).join(u' ');
}

enum Dock { BeamDock = 1, ImportanceDock = 2, CorpusDock = 4, HeadsDock = 8, AllDocks = 15 };

bool insideWithin(const QRectF& outer, const QRectF& inner, double slack = 1.0) {
    return outer.adjusted(-slack, -slack, slack, slack).contains(inner);
}

// Where the written tick labels of `axis` lie in plot pixels, for the ticks inside its range (the ones drawn), in
// the axis' own font: left axis right-aligned left of the axis rect, top axis above it (turned: one line wide).
QList<QRectF> tickLabelRects(QCPAxis* axis) {
    QList<QRectF> rects;
    const QFontMetricsF fm(axis->tickLabelFont());
    const QRect a = axis->axisRect()->rect();
    const double gap = axis->tickLengthOut() + axis->tickLabelPadding();
    const QVector<double> ticks = axis->tickVector();
    const QVector<QString> labels = axis->tickVectorLabels();
    for (int i = 0; i < ticks.size() && i < labels.size(); ++i) {
        if (!axis->range().contains(ticks[i]) || labels[i].isEmpty()) continue;
        const double at = axis->coordToPixel(ticks[i]);
        const double w = fm.horizontalAdvance(labels[i]), h = fm.height();
        if (axis->axisType() == QCPAxis::atLeft)
            rects << QRectF(a.left() - gap - w, at - h / 2, w, h);
        else if (axis->axisType() == QCPAxis::atRight)
            rects << QRectF(a.right() + gap, at - h / 2, w, h);
        else if (axis->tickLabelRotation() == 0)
            rects << QRectF(at - w / 2, a.top() - gap - h, w, h);
        else
            rects << QRectF(at - h / 2, a.top() - gap - w, h, w);
    }
    return rects;
}

// The first pair of rectangles that overlap by more than a pixel, named; "" when none do.
QString overlapping(const QList<QRectF>& rects, const QString& what) {
    for (int i = 0; i < rects.size(); ++i)
        for (int j = i + 1; j < rects.size(); ++j)
            if (const QRectF both = rects[i].intersected(rects[j]); both.width() > 1 && both.height() > 1)
                return QStringLiteral("%1 %2 and %3 overlap").arg(what).arg(i).arg(j);
    return {};
}

}  // namespace

class TestHeatmapLayout : public QObject, private testing::MainWindowFixture {
    Q_OBJECT

private slots:
    void initTestCase() {
        setUpWindowTests(QStringLiteral("test_heatmap_layout"));
        openWindow();
    }
    void cleanupTestCase() { closeWindow(); }

    void heatmapStaysReadable_data();
    void heatmapStaysReadable();
    void wheelScrollsAndCtrlWheelZooms();
    void stepChartShowsNoScaleWithoutBars();
    void compareMapsAreReadable();

private:
    void showSentence(int words);
    void showDocks(int docks);
    void settle();
    void checkLabels(const QString& when);
    void checkOutlines(const QString& when);
    void checkSmallScreen(int docks);
};

void TestHeatmapLayout::settle() {
    // Queued dock fits, resizes and the view's resets, each posting the next: a few rounds of the event loop.
    for (int i = 0; i < 6; ++i) QCoreApplication::processEvents();
    w_->decodes()->waitForDone();
    for (int i = 0; i < 6; ++i) QCoreApplication::processEvents();
}

// The sentence of `words` words forced onto its reference, shown at its last step (as after a decode).
void TestHeatmapLayout::showSentence(int words) {
    if (w_->sourceText() == sourceOf(words)) return;
    QSignalSpy decoded(w_.get(), &MainWindow::decodeFinished);
    w_->setReferenceText(referenceOf(words));
    w_->setSourceText(sourceOf(words));
    w_->decodeNow();
    QVERIFY(waitDecode(decoded));
    w_->decodes()->waitForDone();
    QTRY_COMPARE(w_->heatmapView()->data().rows(), words + 1);
}

void TestHeatmapLayout::showDocks(int docks) {
    const std::pair<QDockWidget*, int> all[] = {{w_->beamDock(), BeamDock},
                                                {w_->headImportanceDock(), ImportanceDock},
                                                {w_->corpusDock(), CorpusDock},
                                                {w_->headDock(), HeadsDock}};
    for (auto [dock, bit] : all)
        if (!(docks & bit)) dock->hide();
    for (auto [dock, bit] : all)
        if (docks & bit) dock->show();
}

void TestHeatmapLayout::heatmapStaysReadable_data() {
    QTest::addColumn<int>("words");
    QTest::addColumn<QSize>("size");
    QTest::addColumn<int>("docks");
    QTest::addColumn<bool>("coverage");
    const std::pair<int, const char*> docks[] = {
        {0, "no dock"},         {BeamDock, "beam"},   {ImportanceDock, "head importance"},
        {CorpusDock, "corpus"}, {HeadsDock, "heads"}, {AllDocks, "all docks"}};
    // Long before short: a short sentence after a long one is a case of its own (the labels' room).
    for (int words : {40, 20, 5})
        for (QSize size : {QSize(1400, 900), QSize(800, 600), QSize(1024, 600)})
            for (auto [bits, name] : docks)
                for (bool coverage : {false, true})
                    QTest::addRow("%d words, %dx%d, %s%s", words, size.width(), size.height(), name,
                                  coverage ? ", coverage" : "")
                        << words << size << bits << coverage;
}

void TestHeatmapLayout::heatmapStaysReadable() {
    QFETCH(int, words);
    QFETCH(QSize, size);
    QFETCH(int, docks);
    QFETCH(bool, coverage);
    showSentence(words);
    if (QTest::currentTestFailed()) return;
    w_->diagnosticsAction()->setChecked(coverage);
    showDocks(docks);
    settle();  // the window's minimum size follows the docks shown
    w_->resize(size);
    settle();
    // The window keeps the size asked for, 800×600 too, with every dock: what does not fit scrolls.
    const QSize got = w_->size();
    QVERIFY2(got == size, qPrintable(QStringLiteral("the window is %1 x %2").arg(got.width()).arg(got.height())));
    HeatmapView* view = w_->heatmapView();
    const int T = view->data().rows(), S = view->data().cols();
    QCOMPARE(w_->cursorStep(), w_->stepCount());  // at the end, as after a decode: the current row is the last
    w_->state()->setSelection(T - 1, S - 1);      // the last cell, as a click there would
    settle();

    const QRect matrix = view->matrixRect();
    const int least = view->minimumCellSize();
    // Cells never below the minimum; the matrix keeps 8 rows (or all) where the window has the room.
    const QRectF cell = view->cellRect(T - 1, S - 1);
    QVERIFY2(cell.height() >= least - 0.5 && cell.width() >= least - 0.5,
             qPrintable(QStringLiteral("cell %1 x %2 in a matrix %3 x %4, plot %5 x %6, window %7 x %8")
                            .arg(cell.width())
                            .arg(cell.height())
                            .arg(matrix.width())
                            .arg(matrix.height())
                            .arg(view->plot()->width())
                            .arg(view->plot()->height())
                            .arg(got.width())
                            .arg(got.height())));
    if (got.height() >= 900) {
        const int rows = std::min(T, 8);
        QVERIFY2(
            matrix.height() >= rows * least - 1,
            qPrintable(
                QStringLiteral("matrix %1 px high, %2 rows need %3").arg(matrix.height()).arg(rows).arg(rows * least)));
    }
    if (got.height() <= 600) checkSmallScreen(docks);
    checkOutlines(QStringLiteral("after the decode"));
    checkLabels(QStringLiteral("after the decode"));

    // Every row and column reachable: at each end of the scroll bars the first / last one lies inside the matrix.
    QScrollBar* vbar = view->verticalScrollBar();
    QScrollBar* hbar = view->horizontalScrollBar();
    for (auto [v, h] : {std::pair{vbar->minimum(), hbar->minimum()}, std::pair{vbar->maximum(), hbar->maximum()}}) {
        vbar->setValue(v);
        hbar->setValue(h);
        const bool start = v == vbar->minimum();
        const QRectF end = start ? view->cellRect(0, 0) : view->cellRect(T - 1, S - 1);
        QVERIFY2(insideWithin(matrix, end),
                 qPrintable(QStringLiteral("%1 cell outside the matrix when scrolled").arg(start ? "first" : "last")));
        checkOutlines(start ? QStringLiteral("scrolled to the start") : QStringLiteral("scrolled to the end"));
        checkLabels(start ? QStringLiteral("scrolled to the start") : QStringLiteral("scrolled to the end"));
    }
    w_->state()->setSelection(-1, -1);
}

// 600 pixels high (800×600, 1024×600): the matrix shows 6 rows (or all) at the minimum cell size, and each bottom
// dock in front shows kDockContentLines lines of its contents (or all of them) through its scroll area.
void TestHeatmapLayout::checkSmallScreen(int docks) {
    HeatmapView* view = w_->heatmapView();
    const int T = view->data().rows(), least = view->minimumCellSize();
    const int rows = int(view->matrixRect().height() / view->cellRect(T - 1, 0).height());
    qInfo("%d x %d, docks %d, coverage %d: %d rows in view, cells %.1f px", w_->width(), w_->height(), docks,
          int(w_->diagnosticsAction()->isChecked()), rows, view->cellRect(T - 1, 0).height());
    // Every dock at once (tabbed: the tab bar takes a line) with the coverage row and its legend: the docks at their
    // least, the heatmap keeps 4 rows (docs/gui.md, "Small screens").
    const int wanted = docks == AllDocks && w_->diagnosticsAction()->isChecked() ? 4 : 6;
    QVERIFY2(view->matrixRect().height() >= std::min(T, wanted) * least - 1,
             qPrintable(QStringLiteral("%1 rows in view, %2 wanted").arg(rows).arg(wanted)));
    // One dock: kDockContentLines lines of it; all of them, tabbed (the tab bar takes a line): the heatmap's 6 rows
    // first, the dock in front its least (a few lines, the rest scrolled).
    const int lines = (docks == AllDocks ? DockScroller::kScrolledLines : MainWindow::kDockContentLines) *
                      w_->fontMetrics().lineSpacing();
    for (QDockWidget* dock : {w_->beamDock(), w_->headImportanceDock(), w_->corpusDock(), w_->headDock()}) {
        if (!dock->isVisible() || dock->visibleRegion().isEmpty()) continue;
        const auto* scroller = dynamic_cast<const DockScroller*>(dock->widget());
        QVERIFY(scroller);
        const int shown = scroller->viewport()->height(), whole = scroller->widget()->minimumSizeHint().height();
        qInfo("  %s: %d px of its contents shown (%d lines wanted, %d px whole)", qPrintable(dock->objectName()), shown,
              MainWindow::kDockContentLines, whole);
        QVERIFY2(shown >= std::min(lines, whole) - 1,
                 qPrintable(QStringLiteral("%1 shows %2 px of its contents").arg(dock->objectName()).arg(shown)));
    }
}

// The current row's and the selected cell's outlines inside the matrix; both in view after a decode or a selection.
void TestHeatmapLayout::checkOutlines(const QString& when) {
    HeatmapView* view = w_->heatmapView();
    const QRect matrix = view->matrixRect(), row = view->currentRowOutline(), cell = view->selectedCellOutline();
    const bool scrolled = when.startsWith(QLatin1String("scrolled"));
    QVERIFY2(scrolled || !row.isEmpty(), qPrintable(when + QStringLiteral(": the current row is out of view")));
    QVERIFY2(scrolled || !cell.isEmpty(), qPrintable(when + QStringLiteral(": the selected cell is out of view")));
    QVERIFY2(row.isEmpty() || insideWithin(matrix, row),
             qPrintable(when + QStringLiteral(": the current row's outline leaves the matrix")));
    QVERIFY2(cell.isEmpty() || insideWithin(matrix, cell),
             qPrintable(when + QStringLiteral(": the selected cell's outline leaves the matrix")));
}

// No label over another (row labels, column labels, the colour scale's numbers, "coverage"), "coverage" inside the
// plot, and no blank band above the column labels.
void TestHeatmapLayout::checkLabels(const QString& when) {
    HeatmapView* view = w_->heatmapView();
    QCustomPlot* plot = view->plot();
    const QList<QRectF> rows = tickLabelRects(plot->yAxis), columns = tickLabelRects(plot->xAxis2);
    QCPColorScale* scale = nullptr;
    for (int i = 0; i < plot->plotLayout()->elementCount(); ++i)
        if (auto* s = qobject_cast<QCPColorScale*>(plot->plotLayout()->elementAt(i))) scale = s;
    QVERIFY(scale);
    const QList<QRectF> numbers = tickLabelRects(scale->axis());
    QString overlap = overlapping(rows, QStringLiteral("row labels"));
    if (overlap.isEmpty()) overlap = overlapping(columns, QStringLiteral("column labels"));
    if (overlap.isEmpty()) overlap = overlapping(numbers, QStringLiteral("colour scale numbers"));
    QVERIFY2(overlap.isEmpty(), qPrintable(when + QStringLiteral(": ") + overlap));
    QVERIFY2(numbers.size() >= 2, qPrintable(when + QStringLiteral(": the colour scale has no numbers")));
    if (const QRectF label = view->coverageLabelRect(); !label.isNull()) {
        QVERIFY2(label.left() >= 0, qPrintable(when + QStringLiteral(": \"coverage\" is cut at the plot's edge")));
        for (const QRectF& r : rows)
            QVERIFY2(!label.intersects(r.adjusted(1, 1, -1, -1)),
                     qPrintable(when + QStringLiteral(": \"coverage\" over a row label")));
    }
    // The legend (no gold links here: coverage and entropy only) while the coverage is drawn, at any height (the
    // rows' checks above hold with it): under the plot and over none of its labels.
    HeatmapLegendStrip* legend = view->legend();
    const bool coverage = w_->diagnosticsAction()->isChecked();
    QCOMPARE(legend->entries(), heatmapLegendEntries(view->style()));
    QCOMPARE(legend->entries().empty(), !coverage);
    QVERIFY2(
        legend->isVisible() == coverage,
        qPrintable(when + (coverage ? QStringLiteral(": no legend") : QStringLiteral(": a legend without coverage"))));
    if (legend->isVisible()) {
        const QRectF strip(plot->mapFrom(view, legend->geometry().topLeft()), QSizeF(legend->size()));
        QVERIFY2(strip.top() >= plot->height(), qPrintable(when + QStringLiteral(": the legend is inside the plot")));
        QVERIFY2(QRectF(view->rect()).contains(QRectF(legend->geometry())),
                 qPrintable(when + QStringLiteral(": the legend is cut")));
        for (const QList<QRectF>* labels : {&rows, &columns, &numbers})
            for (const QRectF& r : *labels)
                QVERIFY2(!strip.intersects(r.adjusted(1, 1, -1, -1)),
                         qPrintable(when + QStringLiteral(": the legend over a label")));
        QVERIFY2(!strip.intersects(view->coverageLabelRect()),
                 qPrintable(when + QStringLiteral(": the legend over \"coverage\"")));
    }
    // Above the column labels, the plot's margin only (and a pixel or two of rounding): the matrix's top is the
    // tallest written label's room (of the whole sentence, in view or not, so that it stays put while scrolling).
    QCPAxis* key = plot->xAxis2;
    const QFontMetricsF fm(key->tickLabelFont());
    double tallest = 0;
    for (const QString& label : key->ticker().dynamicCast<QCPAxisTickerText>()->ticks())
        tallest = std::max(tallest, key->tickLabelRotation() == 0 ? fm.height() : fm.horizontalAdvance(label));
    const double room = key->tickLengthOut() + key->tickLabelPadding() + tallest + key->padding() + key->offset();
    const double blank = view->matrixRect().top() - room - plot->plotLayout()->margins().top();
    QVERIFY2(blank <= 6, qPrintable(when + QStringLiteral(": %1 px blank above the column labels").arg(blank)));
}

// With scroll bars, the wheel scrolls (cells keep their size) and Ctrl+wheel zooms around the pointer.
void TestHeatmapLayout::wheelScrollsAndCtrlWheelZooms() {
    showSentence(40);
    showDocks(0);
    w_->resize(1400, 900);
    settle();
    HeatmapView* view = w_->heatmapView();
    QScrollBar* vbar = view->verticalScrollBar();
    QVERIFY(vbar->maximum() > 0);
    vbar->setValue(vbar->maximum() / 2);
    const int before = vbar->value();
    const double cell = view->cellRect(0, 0).height();
    auto wheel = [view](int delta, Qt::KeyboardModifiers modifiers) {
        const QPointF at = view->matrixRect().center();
        QWheelEvent event(at, view->plot()->mapToGlobal(at), QPoint(), QPoint(0, delta), Qt::NoButton, modifiers,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(view->plot(), &event);
        QApplication::processEvents();
    };
    wheel(-120, Qt::NoModifier);  // one notch towards the user: down the rows
    QVERIFY2(vbar->value() > before, qPrintable(QStringLiteral("%1 -> %2").arg(before).arg(vbar->value())));
    QCOMPARE(view->cellRect(0, 0).height(), cell);
    wheel(120, Qt::ControlModifier);
    QVERIFY2(view->cellRect(0, 0).height() > cell * 1.1,
             qPrintable(QStringLiteral("%1 -> %2").arg(cell).arg(view->cellRect(0, 0).height())));
    view->resetView();
}

// Before the first step and with no sentence, the chart has no bars: no axis numbered 0 to 1 either.
void TestHeatmapLayout::stepChartShowsNoScaleWithoutBars() {
    showSentence(5);
    QCustomPlot* chart = w_->stepPanel()->barChart();
    QVERIFY(chart->yAxis->tickLabels());  // the last step's bars and their scale
    w_->setCursorStep(0);
    QVERIFY(!chart->yAxis->tickLabels());
    QVERIFY(chart->xAxis->tickVectorLabels().isEmpty() || !chart->xAxis->tickLabels());
    w_->setCursorStep(w_->stepCount());
    QVERIFY(chart->yAxis->tickLabels());
    w_->setSourceText(QString());  // no sentence
    QApplication::processEvents();
    QVERIFY(!chart->yAxis->tickLabels());
    QVERIFY(chart->xAxis->tickVectorLabels().isEmpty() || !chart->xAxis->tickLabels());
}

// The compare view in its tab, at 1400×900 and at 800×600, on a 40-word sentence: each of its three maps shows 8 rows
// and 8 columns of cells of at least its minimum size (in a strip under the heatmap a map was about 100 pixels wide:
// 1 row × 2 columns), its title whole, its colour scale clear of the matrix and of the H / ln S column.
void TestHeatmapLayout::compareMapsAreReadable() {
    showSentence(40);
    showDocks(0);
    w_->diagnosticsAction()->setChecked(true);
    w_->compareView()->setModelB(dot_);
    w_->showCompare();
    for (QSize size : {QSize(1400, 900), QSize(800, 600)}) {
        w_->resize(size);
        settle();
        w_->compareView()->waitForDone();
        settle();
        QCOMPARE(w_->size(), size);
        CompareView* view = w_->compareView();
        QVERIFY(view->decodeB());
        for (HeatmapView* map : {view->viewA(), view->viewB(), view->viewDifference()}) {
            const QString where =
                QStringLiteral("%1x%2, %3").arg(size.width()).arg(size.height()).arg(map->style().title);
            const int least = map->minimumCellSize();
            const QRect matrix = map->matrixRect();
            const QRectF cell = map->cellRect(0, 0);
            QVERIFY2(cell.width() >= least - 0.5 && cell.height() >= least - 0.5, qPrintable(where));
            QVERIFY2(matrix.height() >= 8 * least - 1 && matrix.width() >= 8 * least - 1,
                     qPrintable(where + QStringLiteral(": matrix %1 x %2").arg(matrix.width()).arg(matrix.height())));
            QCustomPlot* plot = map->plot();
            for (int i = 0; i < plot->plotLayout()->elementCount(); ++i) {
                QCPLayoutElement* e = plot->plotLayout()->elementAt(i);
                if (auto* scale = qobject_cast<QCPColorScale*>(e))  // right of the matrix and its entropy column's room
                    QVERIFY2(scale->outerRect().left() >= plot->axisRect()->outerRect().right() - 1,
                             qPrintable(where + QStringLiteral(": the colour scale over the H / ln S column")));
                if (auto* title = qobject_cast<QCPTextElement*>(e))
                    QVERIFY2(fitTitle(title->text(), title->font(), plot->width()).text == title->text(),
                             qPrintable(where + QStringLiteral(": the title is shortened")));
            }
        }
    }
    w_->showCompare(false);
    w_->diagnosticsAction()->setChecked(false);
}

ATTNVIZ_TEST_MAIN(TestHeatmapLayout)
#include "test_heatmap_layout.moc"
