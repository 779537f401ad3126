// The window's "Explain by" choice (docs/gui.md): the toolbar box and View ▸ Explain by put a method of core/explain
// on the heatmap for the decode shown. The cells equal core's explainDecode on that decode, signed methods use the
// diverging map on a scale fitted to ± their largest value, the attention comes back with "Attention", a result
// computed for an older sentence is never shown, and rollout is offered for a Transformer only. The step panel's
// bars and the cell inspector show the method's numbers (integrated gradients with its completeness gap), and a
// right-click on a step's candidate asks "why this token and not that one?".
#include "explain/explanation.h"
#include "heatmap/explanation_data.h"
#include "main_window_fixture.h"
#include "state/decode_state.h"
#include "test_registry.h"
#include "views/cell_inspector.h"
#include "window/explain_worker.h"
#include "window/step_panel.h"

#include <qcustomplot.h>
#include <QAction>
#include <QComboBox>
#include <QFontMetrics>
#include <QMenu>
#include <QSignalSpy>
#include <QTreeWidget>
#include <QtTest>

using namespace attnviz;
using namespace attnviz::ui;

class TestExplainSelector : public QObject, public testing::MainWindowFixture {
    Q_OBJECT
private slots:
    void initTestCase() { setUpWindowTests(QStringLiteral("test_explain_selector")); }
    void init() { openWindow(); }
    void cleanup() {
        if (w_) w_->explainWorker()->waitForDone();
        closeWindow();
    }
    void eachMethodShowsCoresMatrix_data();
    void eachMethodShowsCoresMatrix();
    void attentionComesBack();
    void aNewSentenceNeverShowsTheOldExplanation();
    void rolloutIsForTransformersOnly();
    void theMenuAndTheBoxAgree();
    void theStepPanelShowsTheMethodsRow();
    void integratedGradientsShowTheirCompletenessGap();
    void theAxisTitleFitsTheChartWhileComputing();
    void theInspectorShowsTheMethodsNumber();
    void whyThisAndNotThatExplainsTheContrast();

private:
    // Chooses `method` in the toolbar box as a user would, and waits for its matrix.
    bool chooseAndWait(ExplainMethod method);
};

bool TestExplainSelector::chooseAndWait(ExplainMethod method) {
    QComboBox* box = w_->explainBox();
    const int i = box->findData(int(method));
    if (i < 0) return false;
    QSignalSpy spy(w_->state(), &DecodeState::explanationChanged);
    box->setCurrentIndex(i);
    emit box->activated(i);
    return !spy.isEmpty() || spy.wait(20000);
}

void TestExplainSelector::eachMethodShowsCoresMatrix_data() {
    QTest::addColumn<int>("method");
    for (const MethodInfo& m : explainMethods())
        if (m.method != ExplainMethod::Attention && !m.transformer_only) QTest::newRow(m.name) << int(m.method);
}

void TestExplainSelector::eachMethodShowsCoresMatrix() {
    QFETCH(int, method);
    const auto chosen = ExplainMethod(method);
    QVERIFY(typeAndWait(QStringLiteral("the cat sat on the mat")));
    QVERIFY(chooseAndWait(chosen));
    const Explanation want = explainDecode(*w_->state()->decodedModel(), w_->state()->decode()->result, chosen);
    const auto shown = shownWeights(*w_->heatmapView());
    QCOMPARE(Eigen::Index(shown.size()), want.values.rows());
    for (Eigen::Index t = 0; t < want.values.rows(); ++t)
        for (Eigen::Index j = 0; j < want.values.cols(); ++j)
            QCOMPARE(float(shown[size_t(t)][size_t(j)]), want.values(t, j));
    const HeatmapStyle& style = w_->heatmapView()->style();
    QCOMPARE(style.diverging, methodInfo(chosen).is_signed);
    QVERIFY(style.fit_range);
    QCOMPARE(style.scale_label, explainMethodTitle(chosen));
    QVERIFY(w_->attentionViewText().contains(explainMethodTitle(chosen)));
}

void TestExplainSelector::attentionComesBack() {
    QVERIFY(typeAndWait(QStringLiteral("i love you")));
    const auto attention = shownWeights(*w_->heatmapView());
    QVERIFY(chooseAndWait(ExplainMethod::Occlusion));
    QVERIFY(shownWeights(*w_->heatmapView()) != attention);
    w_->setExplainMethod(ExplainMethod::Attention);
    QCOMPARE(shownWeights(*w_->heatmapView()), attention);
    QVERIFY(!w_->heatmapView()->style().diverging);
    QVERIFY(!w_->heatmapView()->style().fit_range);
    QVERIFY(w_->attentionViewText().isEmpty());
}

void TestExplainSelector::aNewSentenceNeverShowsTheOldExplanation() {
    QVERIFY(typeAndWait(QStringLiteral("the cat ate an apple")));
    QVERIFY(chooseAndWait(ExplainMethod::IntegratedGradients));
    // a new sentence: the attention at once, then the method's matrix for the new decode only
    QSignalSpy spy(w_->state(), &DecodeState::explanationChanged);
    QVERIFY(typeAndWait(QStringLiteral("i love you")));
    QVERIFY(w_->state()->explanation() == nullptr || w_->state()->explanation()->values.cols() == 5);
    QVERIFY(!spy.isEmpty() || spy.wait(20000));
    const Explanation want =
        explainDecode(*w_->state()->decodedModel(), w_->state()->decode()->result, ExplainMethod::IntegratedGradients);
    QCOMPARE(w_->state()->explanation()->values, want.values);
    QCOMPARE(Eigen::Index(shownWeights(*w_->heatmapView()).front().size()), Eigen::Index(5));  // <sos> i love you <eos>
}

void TestExplainSelector::rolloutIsForTransformersOnly() {
    QComboBox* box = w_->explainBox();
    const int rollout = box->findData(int(ExplainMethod::Rollout));
    QVERIFY(rollout >= 0);
    // an RNN model: the item is disabled and asking for it keeps the attention
    QCOMPARE(box->itemData(rollout, Qt::UserRole - 1).toInt(), 0);
    w_->setExplainMethod(ExplainMethod::Rollout);
    QCOMPARE(w_->explainMethod(), ExplainMethod::Attention);
    // a Transformer: rollout is the decode's attention carried through the encoder's self-attention
    const QString path = testing::saveInto(testing::smallTransformer(5), models_dir_, "test-transformer.safetensors");
    QVERIFY(w_->openModel(path));
    w_->decodes()->waitForDone();
    QVERIFY(typeAndWait(QStringLiteral("the cat sat")));
    QVERIFY(!box->itemData(rollout, Qt::UserRole - 1).isValid());
    QVERIFY(chooseAndWait(ExplainMethod::Rollout));
    const Explanation want =
        explainDecode(*w_->state()->decodedModel(), w_->state()->decode()->result, ExplainMethod::Rollout);
    QCOMPARE(w_->state()->explanation()->values, want.values);
    // back to an RNN model: rollout falls back to attention
    QVERIFY(w_->openModel(additive_));
    QCOMPARE(w_->explainMethod(), ExplainMethod::Attention);
}

void TestExplainSelector::theMenuAndTheBoxAgree() {
    QVERIFY(typeAndWait(QStringLiteral("the cat")));
    QAction* grad = nullptr;
    for (QAction* a : w_->findChildren<QAction*>())
        if (a->isCheckable() && a->data().isValid() && a->data().toInt() == int(ExplainMethod::GradNorm) &&
            a->text() == explainMethodTitle(ExplainMethod::GradNorm))
            grad = a;
    QVERIFY(grad);
    QSignalSpy spy(w_->state(), &DecodeState::explanationChanged);
    grad->trigger();
    QVERIFY(!spy.isEmpty() || spy.wait(20000));
    QCOMPARE(w_->explainBox()->currentData().toInt(), int(ExplainMethod::GradNorm));
    QVERIFY(grad->isChecked());
}

void TestExplainSelector::theStepPanelShowsTheMethodsRow() {
    QVERIFY(typeAndWait(QStringLiteral("the cat sat on the mat")));
    QVERIFY(chooseAndWait(ExplainMethod::GradInput));
    const Explanation want =
        explainDecode(*w_->state()->decodedModel(), w_->state()->decode()->result, ExplainMethod::GradInput);
    w_->state()->setCursor(2);  // row 1
    const QVector<double> bars = w_->stepPanel()->barValues();
    QCOMPARE(Eigen::Index(bars.size()), want.values.cols());
    for (Eigen::Index j = 0; j < want.values.cols(); ++j) QCOMPARE(float(bars[int(j)]), want.values(1, j));
    QCOMPARE(w_->stepPanel()->barsLabel(), explainMethodTitle(ExplainMethod::GradInput));
    QVERIFY(w_->stepPanel()->gapText().isEmpty());
    // back to attention: the step's own weights
    w_->setExplainMethod(ExplainMethod::Attention);
    const auto& attention = w_->state()->decode()->steps[1].attention;
    QCOMPARE(w_->stepPanel()->barValues().front(), double(attention.front()));
    QCOMPARE(w_->stepPanel()->barsLabel(), QStringLiteral("attention"));
}

// In a short window the chart is about 120 pixels high: while integrated gradients are computed the bars are the
// attention and the axis says "attention" (the title line says what is coming); once they arrive the axis names the
// method, elided to the chart's height, never cut by the plot's edges.
void TestExplainSelector::theAxisTitleFitsTheChartWhileComputing() {
    QVERIFY(typeAndWait(QStringLiteral("i love you")));
    w_->resize(800, 600);
    QCoreApplication::processEvents();
    StepPanel* panel = w_->stepPanel();
    QCustomPlot* chart = panel->barChart();
    const auto fits = [chart](const QString& title) {
        return QFontMetrics(chart->yAxis->labelFont()).horizontalAdvance(title) <= chart->axisRect()->height();
    };
    QComboBox* box = w_->explainBox();
    const int i = box->findData(int(ExplainMethod::IntegratedGradients));
    QSignalSpy arrived(w_->state(), &DecodeState::explanationChanged);
    box->setCurrentIndex(i);
    emit box->activated(i);  // the worker's result comes through the event loop: still computing here
    QVERIFY(!w_->state()->explanation());
    QCOMPARE(panel->axisTitle(), QStringLiteral("attention"));
    QVERIFY2(panel->titleText().contains(QStringLiteral("computing")), qPrintable(panel->titleText()));
    QVERIFY(fits(panel->axisTitle()));
    QVERIFY(!arrived.isEmpty() || arrived.wait(20000));
    QTRY_VERIFY(w_->state()->explanation());
    QCoreApplication::processEvents();
    QVERIFY(!panel->titleText().contains(QStringLiteral("computing")));
    QVERIFY2(fits(panel->axisTitle()), qPrintable(panel->axisTitle()));
    QVERIFY(explainMethodTitle(ExplainMethod::IntegratedGradients).startsWith(panel->axisTitle().chopped(1)) ||
            panel->axisTitle() == explainMethodTitle(ExplainMethod::IntegratedGradients));
}

void TestExplainSelector::integratedGradientsShowTheirCompletenessGap() {
    QVERIFY(typeAndWait(QStringLiteral("i love you")));
    QVERIFY(chooseAndWait(ExplainMethod::IntegratedGradients));
    const Explanation want =
        explainDecode(*w_->state()->decodedModel(), w_->state()->decode()->result, ExplainMethod::IntegratedGradients);
    w_->state()->setCursor(1);  // row 0
    const QString gap = QString::number(completenessGap(want, 0), 'g', 3);
    QVERIFY2(w_->stepPanel()->gapText().contains(gap), qPrintable(w_->stepPanel()->gapText() + " lacks " + gap));
}

void TestExplainSelector::theInspectorShowsTheMethodsNumber() {
    QVERIFY(typeAndWait(QStringLiteral("the cat sat")));
    QVERIFY(chooseAndWait(ExplainMethod::Occlusion));
    const Explanation want =
        explainDecode(*w_->state()->decodedModel(), w_->state()->decode()->result, ExplainMethod::Occlusion);
    w_->state()->setSelection(0, 2);
    const QString text = w_->cellInspector()->text();
    QVERIFY2(text.contains(explainMethodTitle(ExplainMethod::Occlusion)), qPrintable(text));
    QVERIFY2(text.contains(QString::number(double(want.values(0, 2)), 'g', 5)), qPrintable(text));
}

void TestExplainSelector::whyThisAndNotThatExplainsTheContrast() {
    QVERIFY(typeAndWait(QStringLiteral("the cat sat on the mat")));
    w_->state()->setCursor(1);  // step 1: row 0
    QTreeWidget* list = w_->stepPanel()->candidateList();
    QTreeWidgetItem* other = nullptr;
    const int produced = w_->state()->decode()->steps[0].token;
    for (int i = 0; i < list->topLevelItemCount() && !other; ++i)
        if (list->topLevelItem(i)->data(0, Qt::UserRole).toInt() != produced) other = list->topLevelItem(i);
    QVERIFY(other);
    const int token = other->data(0, Qt::UserRole).toInt();
    QMenu* menu = w_->stepPanel()->showCandidateMenu(other, QPoint(0, 0));
    QVERIFY(menu);
    QSignalSpy spy(w_->state(), &DecodeState::explanationChanged);
    menu->actions().front()->trigger();  // "Why … and not …?"
    menu->close();
    QVERIFY(!spy.isEmpty() || spy.wait(20000));
    // attention does not read the objective: the window moved to occlusion, with the contrast at row 0 only
    QCOMPARE(w_->explainMethod(), ExplainMethod::Occlusion);
    ExplainOptions options;
    options.contrast = Contrast{0, token};
    const DecodeResult& r = w_->state()->decode()->result;
    const Explanation want = explainDecode(*w_->state()->decodedModel(), r, ExplainMethod::Occlusion, options);
    const Explanation plain = explainDecode(*w_->state()->decodedModel(), r, ExplainMethod::Occlusion);
    QCOMPARE(w_->state()->explanation()->values, want.values);
    QVERIFY(want.values.row(0) != plain.values.row(0));
    QCOMPARE(want.values.bottomRows(r.target_ids.size() - 1), plain.values.bottomRows(r.target_ids.size() - 1));
    QVERIFY(w_->attentionViewText().contains(QString::fromStdString(w_->model()->target_vocab.token(token))));
    // and back to the token alone
    QSignalSpy again(w_->state(), &DecodeState::explanationChanged);
    w_->explainContrast(std::nullopt);
    QVERIFY(!again.isEmpty() || again.wait(20000));
    QCOMPARE(w_->state()->explanation()->values, plain.values);
}

ATTNVIZ_TEST_MAIN(TestExplainSelector)
#include "test_explain_selector.moc"
