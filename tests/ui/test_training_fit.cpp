// The training window on a small screen (docs/gui.md, "Small screens"): for every model kind its least size with its
// frame fits the screen's available room, it opens inside that room, and every button, field and label is reachable
// (whole on the screen, or in the form's scroll area once scrolled to; never under another one, never narrower or
// lower than it needs), the probe's heatmap keeps 6 rows and the loss curves a readable size. CTest runs it on an
// 800×600 screen (ui_test_training_fit_800x600) and a 1024×600 one (ui_test_training_fit_1024x600), the offscreen
// platform's screens of tests/ui/; on the platform's own 800×800 screen as well.
#include "dialogs/window_placement.h"
#include "heatmap/heatmap_view.h"
#include "main_window_fixture.h"
#include "test_registry.h"
#include "training/epoch_metrics_table.h"
#include "training/loss_plot.h"
#include "training/training_form.h"
#include "training/training_window.h"

#include <qcustomplot.h>
#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QSlider>
#include <QTest>
#include <cmath>

using namespace attnviz;
using namespace attnviz::ui;

namespace {

QString text(const QRect& r) {
    return QStringLiteral("%1,%2 %3x%4").arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height());
}

QString nameOf(const QWidget* w) {
    QString name = QString::fromUtf8(w->metaObject()->className());
    if (const auto* b = qobject_cast<const QAbstractButton*>(w)) name += QStringLiteral(" \"%1\"").arg(b->text());
    if (const auto* l = qobject_cast<const QLabel*>(w)) name += QStringLiteral(" \"%1\"").arg(l->text());
    return name;
}

bool isControl(const QWidget* w) {
    if (const auto* l = qobject_cast<const QLabel*>(w)) return !l->text().isEmpty() && !l->wordWrap();
    return qobject_cast<const QAbstractButton*>(w) || qobject_cast<const QAbstractSpinBox*>(w) ||
           qobject_cast<const QComboBox*>(w) || qobject_cast<const QLineEdit*>(w) || qobject_cast<const QSlider*>(w);
}

// The least size a layout gives the widget (Qt's qSmartMinSize): its minimum size where set, else its minimum size
// hint, or its size hint for a fixed policy; nothing for an ignored one.
QSize leastSize(const QWidget* w) {
    const QSizePolicy p = w->sizePolicy();
    const QSize hint = w->sizeHint(), least = w->minimumSizeHint();
    QSize s(p.horizontalPolicy() == QSizePolicy::Ignored     ? 0
            : p.horizontalPolicy() & QSizePolicy::ShrinkFlag ? least.width()
                                                             : std::max(hint.width(), least.width()),
            p.verticalPolicy() == QSizePolicy::Ignored     ? 0
            : p.verticalPolicy() & QSizePolicy::ShrinkFlag ? least.height()
                                                           : std::max(hint.height(), least.height()));
    s = s.boundedTo(w->maximumSize());
    if (w->minimumWidth() > 0) s.setWidth(w->minimumWidth());
    if (w->minimumHeight() > 0) s.setHeight(w->minimumHeight());
    return s;
}

// An 8 × 8 picture of the probe (the size of the sample corpora's probes with <sos> and <eos>).
HeatmapData probePicture() {
    HeatmapData d;
    for (int i = 0; i < 8; ++i) {
        d.source_tokens << QStringLiteral("word%1").arg(i);
        d.target_tokens << QStringLiteral("mot%1").arg(i);
        d.weights.emplace_back(8, 0.125f);
    }
    return d;
}

}  // namespace

class TestTrainingFit : public QObject, attnviz::testing::MainWindowFixture {
    Q_OBJECT
private slots:
    void initTestCase();
    void init() { openWindow(); }
    void cleanup() { closeWindow(); }

    void everyKindFitsTheScreen_data();
    void everyKindFitsTheScreen();

private:
    void settle() {
        for (int i = 0; i < 8; ++i) QCoreApplication::processEvents();
    }
    // The controls of the window a user reaches: shown, not the parts of another control, of the table or heatmap.
    QList<QWidget*> controls(TrainingWindow* t) const;
    void checkReachable(TrainingWindow* t);
    void checkApart(const QList<QWidget*>& shown);
    QTemporaryDir dir_;
};

void TestTrainingFit::initTestCase() {
    setUpWindowTests(QStringLiteral("attnviz-training-fit-test"));
    QVERIFY(QDir(dir_.path()).mkpath(QStringLiteral("en_fr")));
    QFile corpus(dir_.filePath(QStringLiteral("en_fr/train.tsv")));
    QVERIFY(corpus.open(QIODevice::WriteOnly));
    for (int i = 0; i < 50; ++i)
        corpus.write("the cat sat on the old mat .\tle chat s'est assis sur le vieux tapis .\n");
}

void TestTrainingFit::everyKindFitsTheScreen_data() {
    QTest::addColumn<QString>("kind");
    for (const char* kind : {"bahdanau", "luong", "transformer", "marian"}) QTest::newRow(kind) << QString(kind);
}

void TestTrainingFit::everyKindFitsTheScreen() {
    QFETCH(QString, kind);
    TrainingWindow* t = w_->showTrainingWindow();
    QComboBox* kinds = t->form()->decoderBox();
    kinds->setCurrentIndex(kinds->findData(kind));
    t->form()->setCorpusFile(dir_.filePath(QStringLiteral("en_fr/train.tsv")));
    t->heatmap()->setData(probePicture());
    settle();
    const QRect available = availableGeometryOf(t);
    const QSize least = t->minimumSizeHint().expandedTo(t->minimumSize()).grownBy(frameMarginsOf(t));
    QVERIFY2(available.width() >= least.width() && available.height() >= least.height(),
             qPrintable(QStringLiteral("least %1x%2 with its frame on %3")
                            .arg(least.width())
                            .arg(least.height())
                            .arg(text(available))));
    fitToScreen(t);  // as MainWindow::showTrainingWindow places it
    settle();
    QVERIFY2(available.contains(t->frameGeometry()),
             qPrintable(text(t->frameGeometry()) + QStringLiteral(" on ") + text(available)));
    checkReachable(t);
    HeatmapView* view = t->heatmap();
    QVERIFY2(view->matrixRect().height() >= 6 * view->minimumCellSize() - 1,
             qPrintable(QStringLiteral("the heatmap's matrix %1 px high").arg(view->matrixRect().height())));
    QVERIFY2(t->lossPlot()->width() >= 300 && t->lossPlot()->height() >= 130,
             qPrintable(QStringLiteral("the curves %1x%2").arg(t->lossPlot()->width()).arg(t->lossPlot()->height())));
    // the legend is not drawn over the curves (its names are shown whole beside the log-scale box), and the value
    // axis's title is whole along its axis
    QCustomPlot* plot = t->lossPlot()->plot();
    plot->replot();
    const QRect curves = plot->axisRect()->rect(), legend = plot->legend->outerRect();
    QVERIFY2(!plot->legend->visible() || !curves.intersects(legend),
             qPrintable(text(curves) + QStringLiteral(" and the legend ") + text(legend)));
    for (QLabel* name : {t->lossPlot()->trainingLegend(), t->lossPlot()->validationLegend()})
        QVERIFY2(name->isVisibleTo(t) && name->width() >= name->sizeHint().width(), qPrintable(name->text()));
    const QFontMetrics metrics(plot->yAxis->labelFont());
    QTRY_VERIFY2(metrics.horizontalAdvance(plot->yAxis->label()) <= plot->axisRect()->height(),  // after a replot
                 qPrintable(plot->yAxis->label() + QStringLiteral(" along %1 px").arg(plot->axisRect()->height())));
    // its tick labels do not run into each other (with no curve yet the axis runs 0 to 1)
    plot->replot();
    const QVector<double> ticks = plot->yAxis->tickVector();
    for (int i = 1; i < ticks.size(); ++i) {
        const double gap = std::abs(plot->yAxis->coordToPixel(ticks[i]) - plot->yAxis->coordToPixel(ticks[i - 1]));
        QVERIFY2(gap >= QFontMetrics(plot->yAxis->tickLabelFont()).height(),
                 qPrintable(QStringLiteral("%1 px between tick labels").arg(gap)));
    }
}

QList<QWidget*> TestTrainingFit::controls(TrainingWindow* t) const {
    QList<QWidget*> out;
    for (QWidget* w : t->findChildren<QWidget*>()) {
        if (!isControl(w) || !w->isVisibleTo(t)) continue;
        bool part = false;
        for (QWidget* p = w->parentWidget(); p && p != t && !part; p = p->parentWidget())
            part = isControl(p) || qobject_cast<HeatmapView*>(p) || qobject_cast<EpochMetricsTable*>(p);
        if (!part) out << w;
    }
    return out;
}

// Each control as large as it needs and whole in view: scrolled to where it is in the form, on the window elsewhere.
void TestTrainingFit::checkReachable(TrainingWindow* t) {
    QScrollArea* scroll = t->formScrollArea();
    const QList<QWidget*> shown = controls(t);
    QVERIFY(shown.size() > 30);
    for (QWidget* w : shown) {
        const QSize need = leastSize(w);
        QVERIFY2(w->width() >= need.width() && w->height() >= need.height(),
                 qPrintable(nameOf(w) + QStringLiteral(" %1x%2, needs %3x%4")
                                            .arg(w->width())
                                            .arg(w->height())
                                            .arg(need.width())
                                            .arg(need.height())));
        if (scroll->widget()->isAncestorOf(w)) {  // scrolled to the whole field (ensureWidgetVisible: its cursor)
            const QPoint centre = w->mapTo(scroll->widget(), w->rect().center());
            scroll->ensureVisible(centre.x(), centre.y(), w->width() / 2 + 1, w->height() / 2 + 1);
            settle();
        }
        QVERIFY2(w->visibleRegion() == QRegion(w->rect()),
                 qPrintable(
                     nameOf(w) +
                     QStringLiteral(" shows %1 of %2").arg(text(w->visibleRegion().boundingRect()), text(w->rect()))));
    }
    checkApart(shown);
}

// No control over another (a label beside its field, a button beside the next).
void TestTrainingFit::checkApart(const QList<QWidget*>& shown) {
    for (int i = 0; i < shown.size(); ++i)
        for (int j = i + 1; j < shown.size(); ++j) {
            const QRect a(shown[i]->mapToGlobal(QPoint()), shown[i]->size());
            const QRect b(shown[j]->mapToGlobal(QPoint()), shown[j]->size());
            QVERIFY2(!a.intersects(b), qPrintable(nameOf(shown[i]) + QStringLiteral(" over ") + nameOf(shown[j])));
        }
}

ATTNVIZ_TEST_MAIN(TestTrainingFit)
#include "test_training_fit.moc"
