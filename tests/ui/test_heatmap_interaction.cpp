// The heatmap as a user works it: the matrix does not move sideways while stepping, zoom in / out /
// reset from the View menu's shortcuts, the context menu copies the engine's weights as TSV and inspects the cell
// under the mouse, hiding <sos>/<eos> keeps a row marked, zero cells in Greys stay apart from the paper, single
// characters (the dates task) stand upright.
#include "decode/decoding.h"
#include "heatmap/heatmap_view.h"
#include "main_window_fixture.h"
#include "state/decode_state.h"
#include "test_registry.h"
#include "window/heatmap_actions.h"

#include <qcustomplot.h>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QContextMenuEvent>
#include <QFontMetrics>
#include <QFontMetricsF>
#include <QLineEdit>
#include <QMenu>
#include <QTest>
#include <QTimer>

#include <cmath>
#include <memory>

using namespace attnviz;
using attnviz::testing::kMatReference;
using attnviz::testing::kMatSource;
using namespace attnviz::ui;

namespace {

// Opens the heatmap's context menu over data cell (row, col) as a right click does, then chooses the item named
// `item` with the keyboard. Returns whether the item was there and enabled.
bool chooseFromContextMenu(HeatmapView* view, int row, int col, const QString& item) {
    auto chosen = std::make_shared<bool>(false);  // shared: safe even if the menu never opened
    QTimer::singleShot(10, [chosen, item] {
        auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
        if (!menu) return;
        for (QAction* a : menu->actions())
            if (a->objectName() == item && a->isEnabled()) {
                menu->setActiveAction(a);
                *chosen = true;
            }
        if (*chosen)
            QTest::keyClick(menu, Qt::Key_Return);
        else
            menu->close();
    });
    const QPoint at = view->cellCenter(row, col);
    QContextMenuEvent event(QContextMenuEvent::Mouse, at, view->plot()->mapToGlobal(at));
    QApplication::sendEvent(view->plot(), &event);  // returns when the menu closed
    return *chosen;
}

// Whether the current-row outline (a white line on a dark rim) runs along the top edge of data row `row` (>= 1,
// shown, as is the row above it), read from the drawn picture between the centres of columns `col` and `next_col`.
// Viridis has no white and undecoded rows are a light grey: a white pixel there is the outline.
bool rowOutlined(HeatmapView* view, int row, int col, int next_col) {
    const QImage image = view->plot()->grab().toImage();
    const QPoint a = view->cellCenter(row, col), b = view->cellCenter(row, next_col);
    const QPoint above = view->cellCenter(row - 1, col);
    const int edge = (above.y() + a.y()) / 2;
    const int x = (a.x() + b.x()) / 2;
    for (int y = edge - 2; y <= edge + 2; ++y) {
        const QColor c = image.pixelColor(x, y);
        if (std::min({c.red(), c.green(), c.blue()}) >= 250) return true;
    }
    return false;
}

// The fixture's model forced onto a known output (it ends in <eos>): seven rows whatever the random weights say.
HeatmapData zeros(const QStringList& source, int rows) {
    HeatmapData d;
    d.source_tokens = source;
    for (int r = 0; r < rows; ++r) d.target_tokens << QStringLiteral("t%1").arg(r);
    d.weights.assign(size_t(rows), std::vector<float>(size_t(source.size()), 0.0f));
    return d;
}

}  // namespace

class TestHeatmapInteraction : public QObject, private testing::MainWindowFixture {
    Q_OBJECT

private slots:
    void initTestCase() { setUpWindowTests(QStringLiteral("test_heatmap_interaction")); }
    void init() { openWindow(); }
    void cleanup() { closeWindow(); }

    void matrixKeepsItsPlaceWhileStepping();
    void zoomShortcutsChangeTheCellSizeAndResetRestoresIt();
    void contextMenuCopiesTheEnginesWeights();
    void contextMenuInspectsTheCellUnderTheMouse();
    void hidingSpecialsKeepsTheCurrentRowMarked();
    void greysZeroCellsStandApartFromThePaper();
    void singleCharactersStandUpright();
};

void TestHeatmapInteraction::matrixKeepsItsPlaceWhileStepping() {
    QVERIFY(typeAndWait(kMatSource));
    QCustomPlot* plot = w_->heatmapView()->plot();
    const int T = w_->stepCount();
    QVERIFY(T >= 2);
    QList<int> lefts;
    for (int cursor = 0; cursor <= T; ++cursor) {
        w_->setCursorStep(cursor);
        lefts << plot->axisRect()->left();
    }
    for (int cursor = T; cursor >= 0; --cursor) {  // and back
        w_->setCursorStep(cursor);
        lefts << plot->axisRect()->left();
    }
    for (int left : lefts) QCOMPARE(left, lefts.first());
    // The column is wide enough for the widest target label of the whole output, reached or not.
    const QFontMetrics fm(plot->yAxis->tickLabelFont());
    int widest = 0;
    for (const QString& t : w_->heatmapView()->data().target_tokens) widest = std::max(widest, fm.horizontalAdvance(t));
    QVERIFY2(lefts.first() >= widest, qPrintable(QStringLiteral("%1 < %2").arg(lefts.first()).arg(widest)));
}

void TestHeatmapInteraction::zoomShortcutsChangeTheCellSizeAndResetRestoresIt() {
    // Long enough that the first view shows only the first columns, so that zooming out shows more.
    QStringList words;
    for (int i = 0; i < 12; ++i) words << QStringLiteral("the cat sat on the mat .");
    QVERIFY(typeAndWait(words.join(u' ')));
    HeatmapView* view = w_->heatmapView();
    auto cellWidth = [view] { return double(view->cellCenter(0, 2).x() - view->cellCenter(0, 1).x()); };
    QVERIFY(QTest::qWaitForWindowExposed(w_.get()));
    w_->activateWindow();
    QApplication::setActiveWindow(w_.get());
    QVERIFY(QTest::qWaitForWindowActive(w_.get()));
    view->setFocus();
    const double first = cellWidth();
    QTest::keySequence(w_.get(), QKeySequence(QKeySequence::ZoomIn));
    const double larger = cellWidth();
    QVERIFY2(std::abs(larger - first * HeatmapView::kZoomStep) <= 1.5,
             qPrintable(QStringLiteral("%1 -> %2").arg(first).arg(larger)));
    QTest::keySequence(w_.get(), QKeySequence(QKeySequence::ZoomOut));
    QTest::keySequence(w_.get(), QKeySequence(QKeySequence::ZoomOut));
    const double smaller = cellWidth();
    QVERIFY2(smaller < first - 1, qPrintable(QStringLiteral("%1 -> %2").arg(first).arg(smaller)));
    QTest::keySequence(w_.get(), QKeySequence(QStringLiteral("Ctrl+0")));
    QCOMPARE(cellWidth(), first);
    // The View menu lists them with their standard keys.
    HeatmapActions* actions = w_->heatmapActions();
    QCOMPARE(actions->zoomInAction()->shortcut(), QKeySequence(QKeySequence::ZoomIn));
    QCOMPARE(actions->zoomOutAction()->shortcut(), QKeySequence(QKeySequence::ZoomOut));
    QCOMPARE(actions->zoomResetAction()->shortcut(), QKeySequence(QStringLiteral("Ctrl+0")));
    QVERIFY(!actions->zoomInAction()->associatedObjects().isEmpty());  // in a menu, so that the keys work
}

void TestHeatmapInteraction::contextMenuCopiesTheEnginesWeights() {
    QVERIFY(typeAndWait(kMatSource));
    QSignalSpy decoded(w_.get(), &MainWindow::decodeFinished);
    w_->referenceEdit()->setText(kMatReference);
    QVERIFY(waitDecode(decoded));
    w_->hideSpecialsAction()->trigger();
    w_->setCursorStep(3);  // three rows decoded and shown
    QApplication::clipboard()->clear();
    QVERIFY(chooseFromContextMenu(w_->heatmapView(), 1, 2, QStringLiteral("copyCellValues")));
    const QStringList lines = QApplication::clipboard()->text().split(u'\n', Qt::SkipEmptyParts);
    const DecodeResult expected = forcedDecode(*w_->model(), kMatSource.toStdString(), kMatReference.toStdString());
    // Header: the shown source tokens (no <sos>/<eos>) after an empty corner.
    QStringList header{QString()};
    for (size_t c = 1; c + 1 < expected.source_tokens.size(); ++c)
        header << QString::fromStdString(expected.source_tokens[c]);
    QCOMPARE(lines.value(0).split(u'\t'), header);
    QCOMPARE(lines.size(), 1 + 3);
    for (int r = 0; r < 3; ++r) {
        const QStringList cells = lines[r + 1].split(u'\t');
        QCOMPARE(cells.value(0), QString::fromStdString(expected.target_tokens[size_t(r)]));
        QCOMPARE(cells.size(), header.size());
        for (int k = 1; k < cells.size(); ++k) {
            bool ok = false;
            const float value = cells[k].toFloat(&ok);
            QVERIFY(ok);
            QCOMPARE(value, expected.attention[size_t(r)][size_t(k)]);  // column k is source token k: <sos> hidden
        }
    }
}

void TestHeatmapInteraction::contextMenuInspectsTheCellUnderTheMouse() {
    QVERIFY(typeAndWait(kMatSource));
    QSignalSpy decoded(w_.get(), &MainWindow::decodeFinished);
    w_->referenceEdit()->setText(kMatReference);
    QVERIFY(waitDecode(decoded));
    w_->setCursorStep(3);
    QVERIFY(chooseFromContextMenu(w_->heatmapView(), 1, 4, QStringLiteral("inspectCell")));
    QCOMPARE(w_->state()->selectedRow(), 1);
    QCOMPARE(w_->state()->selectedColumn(), 4);
    QCOMPARE(w_->heatmapView()->style().selected_row, 1);  // marked in the heatmap
    QCOMPARE(w_->heatmapView()->style().selected_col, 4);
    QCOMPARE(w_->cursorStep(), 3);  // inspecting does not step
    // Outside the matrix there is no cell to inspect.
    auto offered = std::make_shared<bool>(true);
    QTimer::singleShot(10, [offered] {
        if (auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget())) {
            for (QAction* a : menu->actions())
                if (a->objectName() == QLatin1String("inspectCell")) *offered = a->isEnabled();
            menu->close();
        }
    });
    const QPoint corner(2, w_->heatmapView()->plot()->height() - 2);
    QContextMenuEvent event(QContextMenuEvent::Mouse, corner, w_->heatmapView()->plot()->mapToGlobal(corner));
    QApplication::sendEvent(w_->heatmapView()->plot(), &event);
    QVERIFY(!*offered);
    QCOMPARE(w_->state()->selectedRow(), 1);
}

void TestHeatmapInteraction::hidingSpecialsKeepsTheCurrentRowMarked() {
    QVERIFY(typeAndWait(kMatSource));
    QSignalSpy decoded(w_.get(), &MainWindow::decodeFinished);
    w_->referenceEdit()->setText(kMatReference);
    QVERIFY(waitDecode(decoded));
    HeatmapView* view = w_->heatmapView();
    const int T = view->data().rows();
    QCOMPARE(view->data().target_tokens.last(), QStringLiteral("<eos>"));
    QCOMPARE(w_->cursorStep(), T);  // at the end: the current row is the <eos> row
    QVERIFY(rowOutlined(view, T - 1, 1, 2));
    QVERIFY(!rowOutlined(view, T - 2, 1, 2));
    w_->hideSpecialsAction()->trigger();
    QVERIFY(w_->hideSpecialsAction()->isChecked());
    QCOMPARE(view->matrixSize().height(), T - 1);  // the <eos> row is hidden ...
    QVERIFY(rowOutlined(view, T - 2, 1, 2));       // ... and the last row shown is marked instead
    w_->setCursorStep(2);
    QVERIFY(rowOutlined(view, 1, 1, 2));
    QVERIFY(!rowOutlined(view, T - 2, 1, 2));
}

void TestHeatmapInteraction::greysZeroCellsStandApartFromThePaper() {
    HeatmapView view;
    QPalette palette = view.palette();
    palette.setColor(QPalette::Base, Qt::white);
    view.setPalette(palette);
    view.resize(600, 400);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setColormap(QStringLiteral("greys"));
    view.setData(zeros({QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")}, 2));
    const QImage image = view.plot()->grab().toImage();
    // Read a few pixels below the cells' centres: the target labels' tick marks are level with the centres.
    const QPoint a = view.cellCenter(0, 0) + QPoint(0, 3), b = view.cellCenter(0, 1) + QPoint(0, 3);
    QCOMPARE(image.pixelColor(a), QColor(Qt::white));  // a zero cell keeps its colour ...
    auto darkest = [&](int from, int to) {
        int v = 255;
        for (int x = from; x <= to; ++x) v = std::min(v, image.pixelColor(x, a.y()).red());
        return v;
    };
    QVERIFY(darkest(a.x(), b.x()) < 235);  // ... and a line parts it from its neighbour
    const int half = (b.x() - a.x()) / 2;
    QVERIFY(darkest(a.x() - half - 2, a.x()) < 235);                         // and from the paper around the matrix
    QCOMPARE(image.pixelColor(a.x() - half - 4, a.y()), QColor(Qt::white));  // the paper itself
    // Viridis' zero is dark: no grid needed, cells meet directly.
    view.setColormap(QStringLiteral("viridis"));
    const QImage plain = view.plot()->grab().toImage();
    QCOMPARE(plain.pixelColor(a.x() + half, a.y()), plain.pixelColor(a));
}

void TestHeatmapInteraction::singleCharactersStandUpright() {
    // A date, character by character, in cells too narrow for "<sos>": the characters stand upright (turning a
    // single character does not make it narrower); words in the same cells are turned.
    QStringList chars{QStringLiteral("<sos>")};
    for (QChar ch : QStringLiteral("march 3, 2019 and 17 june 2020 later"))
        chars << (ch == u' ' ? QStringLiteral("▁") : QString(ch));
    chars << QStringLiteral("<eos>");
    HeatmapView view;
    view.resize(420, 300);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setData(zeros(chars, 3));
    view.fitAll();
    QCPAxis* key = view.plot()->xAxis2;
    const double cell = view.cellCenter(0, 2).x() - view.cellCenter(0, 1).x();
    QVERIFY2(cell < QFontMetricsF(key->tickLabelFont()).horizontalAdvance(QStringLiteral("<sos>")),
             qPrintable(QString::number(cell)));
    QCOMPARE(key->tickLabelRotation(), 0.0);
    auto ticks = key->ticker().dynamicCast<QCPAxisTickerText>()->ticks();
    QCOMPARE(ticks.value(chars.size() - 1), QStringLiteral("<eos>"));  // the last label is kept
    QStringList words{QStringLiteral("<sos>")};
    for (int i = 1; i + 1 < chars.size(); ++i) words << QStringLiteral("w%1").arg(i * 10);
    words << QStringLiteral("<eos>");
    view.setData(zeros(words, 3));
    view.fitAll();
    QCOMPARE(key->tickLabelRotation(), -90.0);
}

ATTNVIZ_TEST_MAIN(TestHeatmapInteraction)
#include "test_heatmap_interaction.moc"
