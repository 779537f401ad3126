// What a new user tripped on, checked as they would see it: unknown words marked in the heatmap's labels and in the
// reference field, the heatmap staying put while a notice appears, the "Current step" dock in the View menu, every
// toolbar control visible at 1024×700, and the status bar: the hovered cell in plain words, cleared on leaving.
#include "heatmap/heatmap_view.h"
#include "main_window_fixture.h"
#include "test_models.h"
#include "test_registry.h"
#include "window/main_window.h"
#include "window/reference_fold.h"
#include "window/reference_marker.h"

#include <qcustomplot.h>
#include <QAction>
#include <QApplication>
#include <QDir>
#include <QDockWidget>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QToolBar>
#include <QToolButton>

using namespace attnviz;
using namespace attnviz::ui;

namespace {

bool isMarkRed(const QColor& c) { return c.red() > 180 && c.green() < 90 && c.blue() < 90; }

// Pixels of `widget` tinted with the unknown-word red (the wavy underline is thin and antialiased).
int redPixels(QWidget* widget) {
    const QImage image = widget->grab().toImage();
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor c = image.pixelColor(x, y);
            n += c.red() - c.green() > 80 && c.red() - c.blue() > 80;
        }
    return n;
}

}  // namespace

class TestWindowLabels : public QObject, private testing::MainWindowFixture {
    Q_OBJECT

private slots:
    void initTestCase() { setUpWindowTests(QStringLiteral("test_window_labels")); }
    void init() { openWindow(); }
    void cleanup() { closeWindow(); }

    void unknownSourceWordIsMarkedInItsColumnLabel();
    void unknownReferenceWordIsMarkedInFieldAndRowLabel();
    void heatmapDoesNotMoveWhenAWordBecomesUnknown();
    void stepDockIsListedInTheViewMenu();
    void statusBarNamesScoringAndTransformerSizesInWords();
    void everyToolbarControlIsVisibleAt1024x700();
    void statusBarNamesTheHoveredCellAndClearsOnLeaving();
    void aLongStatusMessageIsElidedBeforeTheFixedFields();
    void statusBarSpeaksPlainlyWithSizesInTheTooltip();

private:
    bool setReference(const QString& text) {
        w_->referenceFold()->setFolded(false);  // a short window folds the field away
        QSignalSpy spy(w_.get(), &MainWindow::decodeFinished);
        w_->referenceEdit()->setFocus();
        w_->referenceEdit()->selectAll();
        w_->referenceEdit()->insert(text);  // as an input method commits it (keyClicks is ASCII only)
        return waitDecode(spy);
    }
};

void TestWindowLabels::unknownSourceWordIsMarkedInItsColumnLabel() {
    QVERIFY(typeAndWait(QStringLiteral("i love zebras")));
    HeatmapView* view = w_->heatmapView();
    QCOMPARE(view->data().source_tokens[3], QStringLiteral("zebras"));  // <sos> i love zebras <eos>
    QCOMPARE(view->labelMarks().unknown_cols, QVector<int>{3});
    const QImage image = view->plot()->grab().toImage();
    QVERIFY(isMarkRed(image.pixelColor(view->columnMarkRect(3).center() + QPoint(0, 1))));
    QVERIFY(!isMarkRed(image.pixelColor(view->columnMarkRect(2).center() + QPoint(0, 1))));

    QVERIFY(typeAndWait(QStringLiteral("i love you")));  // all known: no mark
    QVERIFY(view->labelMarks().unknown_cols.isEmpty());
}

void TestWindowLabels::unknownReferenceWordIsMarkedInFieldAndRowLabel() {
    QVERIFY(typeAndWait(QStringLiteral("i love you")));
    QCOMPARE(redPixels(w_->referenceEdit()), 0);
    QVERIFY(setReference(QStringLiteral("我 爱 斑马")));
    QCOMPARE(w_->referenceMarker()->unknownWords(), QStringList{QStringLiteral("斑马")});
    QVERIFY(redPixels(w_->referenceEdit()) > 5);  // the wavy underline
    HeatmapView* view = w_->heatmapView();
    QCOMPARE(view->data().target_tokens[2], QStringLiteral("斑马"));
    QCOMPARE(view->labelMarks().unknown_rows, QVector<int>{2});
    const QImage image = view->plot()->grab().toImage();
    const QRect mark = view->rowMarkRect(2);
    QVERIFY(isMarkRed(image.pixelColor(mark.right(), mark.center().y())));
    QVERIFY2(w_->noticeText().contains(QStringLiteral("reference")), qPrintable(w_->noticeText()));

    QVERIFY(setReference(QStringLiteral("我 爱 你")));  // every word known
    QVERIFY(w_->referenceMarker()->unknownWords().isEmpty());
    QCOMPARE(redPixels(w_->referenceEdit()), 0);
    QVERIFY(view->labelMarks().unknown_rows.isEmpty());
}

void TestWindowLabels::heatmapDoesNotMoveWhenAWordBecomesUnknown() {
    QVERIFY(typeAndWait(QStringLiteral("i love")));
    QVERIFY(!w_->noticeText().contains(QStringLiteral("<unk>")));
    HeatmapView* view = w_->heatmapView();
    const int top = view->mapTo(w_.get(), QPoint(0, 0)).y();
    QSignalSpy spy(w_.get(), &MainWindow::decodeFinished);
    QTest::keyClicks(w_->sourceEditor(), QStringLiteral(" zebras"));
    QVERIFY(waitDecode(spy));
    QVERIFY(w_->noticeText().contains(QStringLiteral("<unk>")));
    QApplication::processEvents();  // the layout settles
    QCOMPARE(view->mapTo(w_.get(), QPoint(0, 0)).y(), top);
}

void TestWindowLabels::stepDockIsListedInTheViewMenu() {
    QAction* toggle = w_->stepDock()->toggleViewAction();
    QMenu* view = nullptr;
    for (QAction* a : w_->menuBar()->actions())
        if (a->menu() && a->menu()->actions().contains(toggle)) view = a->menu();
    QVERIFY(view);
    QCOMPARE(view->title(), QStringLiteral("&View"));
    QCOMPARE(toggle->text(), QStringLiteral("Current step"));
    QVERIFY(w_->stepDock()->isVisible());
    toggle->trigger();
    QVERIFY(!w_->stepDock()->isVisible());
    toggle->trigger();  // back after closing it
    QVERIFY(w_->stepDock()->isVisible());
}

void TestWindowLabels::everyToolbarControlIsVisibleAt1024x700() {
    w_->resize(1024, 700);
    QTRY_COMPARE(w_->size(), QSize(1024, 700));
    QApplication::processEvents();
    const auto bars = w_->findChildren<QToolBar*>();
    QVERIFY(bars.size() >= 4);
    for (QToolBar* bar : bars) {
        QVERIFY(bar->isVisible());
        for (QAction* a : bar->actions()) {
            if (a->isSeparator()) continue;
            QWidget* control = bar->widgetForAction(a);
            QVERIFY2(control && control->isVisible(),
                     qPrintable(bar->windowTitle() + QStringLiteral(": ") + a->text()));
            QVERIFY2(bar->rect().contains(control->geometry()), qPrintable(a->text()));
        }
        // The overflow (extension) button only shows when something did not fit.
        for (QToolButton* b : bar->findChildren<QToolButton*>(QStringLiteral("qt_toolbar_ext_button")))
            QVERIFY2(!b->isVisible(), qPrintable(bar->windowTitle()));
        QVERIFY(w_->rect().contains(bar->geometry()));
    }
}

void TestWindowLabels::statusBarNamesTheHoveredCellAndClearsOnLeaving() {
    QVERIFY(typeAndWait(QStringLiteral("i love zebras")));
    HeatmapView* view = w_->heatmapView();
    QCustomPlot* plot = view->plot();
    const QString target = view->data().target_tokens[0];
    QTest::mouseMove(plot, view->cellCenter(0, 3));
    const QString message = w_->statusText();
    QVERIFY2(message.contains(target) && message.contains(QStringLiteral("zebras")), qPrintable(message));
    const QString percent = QString::number(100.0 * view->data().weights[0][3], 'f', 1);
    QVERIFY2(message.contains(percent + QStringLiteral(" %")), qPrintable(message));
    QVERIFY2(message.contains(QStringLiteral("not in the model's vocabulary")), qPrintable(message));
    QEvent leave(QEvent::Leave);
    QApplication::sendEvent(plot, &leave);
    QVERIFY2(w_->statusText().isEmpty(), qPrintable(w_->statusText()));
}

// At 800 px the hover text of a cell is longer than the room the fixed fields leave: it ends in "…" before the first
// of them (not cut mid-letter under it), its tooltip has it whole, and the window stays 800 px wide.
void TestWindowLabels::aLongStatusMessageIsElidedBeforeTheFixedFields() {
    w_->resize(800, w_->height());  // the offscreen screen is 800 wide: the window fitted to it is 796 with its frame
    QVERIFY(typeAndWait(QStringLiteral("i love zebras and the old cat sat on the mat near the door")));
    HeatmapView* view = w_->heatmapView();
    QTest::mouseMove(view->plot(), view->cellCenter(0, 3));
    const QString whole = w_->statusText();
    QVERIFY2(whole.contains(QStringLiteral("not in the model's vocabulary")), qPrintable(whole));
    auto* line = w_->statusBar()->findChild<QLabel*>(QStringLiteral("statusLine"));
    QVERIFY(line);
    QVERIFY(line->isVisible());
    QVERIFY2(line->text().endsWith(QChar(0x2026)), qPrintable(line->text()));
    QCOMPARE(line->toolTip(), whole);
    QVERIFY(line->fontMetrics().horizontalAdvance(line->text()) <= line->contentsRect().width());
    for (QLabel* field : w_->statusBar()->findChildren<QLabel*>()) {
        if (field == line || !field->isVisible() || field->text().isEmpty()) continue;
        QVERIFY2(line->geometry().right() < field->geometry().left(), qPrintable(field->text()));
    }
    QVERIFY2(w_->width() <= 800, qPrintable(QString::number(w_->width())));  // the message did not widen it
}

void TestWindowLabels::statusBarSpeaksPlainlyWithSizesInTheTooltip() {
    QLabel* model_label = nullptr;
    for (QLabel* l : w_->statusBar()->findChildren<QLabel*>())
        if (l->text().startsWith(QStringLiteral("Model:"))) model_label = l;
    QVERIFY(model_label);
    QCOMPARE(model_label->text(), QStringLiteral("Model: test-task (bahdanau decoder, additive scoring)"));
    const QString tip = model_label->toolTip();
    QVERIFY2(tip.contains(QDir::toNativeSeparators(w_->modelPath())), qPrintable(tip));
    const ModelConfig& c = w_->model()->config;
    QVERIFY2(tip.contains(QStringLiteral("Embedding size %1").arg(c.emb_dim)), qPrintable(tip));
    QVERIFY2(
        tip.contains(QStringLiteral("%1 k parameters").arg(double(w_->model()->parameterCount()) / 1000.0, 0, 'f', 1)),
        qPrintable(tip));
}

// The scoring by its name in words ("scaled dot", the file's scaled_dot), and a Transformer's sizes as its own
// (d_model, heads, layers), never the RNN fields it does not have.
void TestWindowLabels::statusBarNamesScoringAndTransformerSizesInWords() {
    auto modelLabel = [this] {
        for (QLabel* l : w_->statusBar()->findChildren<QLabel*>())
            if (l->text().startsWith(QStringLiteral("Model:"))) return l;
        return static_cast<QLabel*>(nullptr);
    };
    QSignalSpy decoded(w_.get(), &MainWindow::decodeFinished);
    QVERIFY(w_->openModel(scaled_));
    QVERIFY(waitDecode(decoded));
    QCOMPARE(modelLabel()->text(), QStringLiteral("Model: test-task (bahdanau decoder, scaled dot scoring)"));

    QTemporaryDir dir;
    const QString transformer = testing::saveInto(testing::smallTransformer(3, 2), dir, "t.safetensors");
    decoded.clear();
    QVERIFY(w_->openModel(transformer));
    QVERIFY(waitDecode(decoded));
    QVERIFY2(modelLabel()->text().endsWith(QStringLiteral("(transformer decoder, scaled dot scoring)")),
             qPrintable(modelLabel()->text()));
    const TransformerConfig& t = w_->model()->config.transformer;
    const QString tip = modelLabel()->toolTip();
    QVERIFY2(tip.contains(QStringLiteral("d_model %1, %2 heads, %3 encoder and %4 decoder layers")
                              .arg(t.d_model)
                              .arg(t.encoder_nhead)
                              .arg(t.num_encoder_layers)
                              .arg(t.num_decoder_layers)) &&
                 !tip.contains(QStringLiteral("Embedding size")),
             qPrintable(tip));
}

ATTNVIZ_TEST_MAIN(TestWindowLabels)
#include "test_window_labels.moc"
