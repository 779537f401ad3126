// The window's "Explain by" choice (docs/gui.md): the toolbar box and View ▸ Explain by put a method of core/explain
// on the heatmap for the decode shown. The cells equal core's explainDecode on that decode, signed methods use the
// diverging map on a scale fitted to ± their largest value, the attention comes back with "Attention", a result
// computed for an older sentence is never shown, and rollout is offered for a Transformer only.
#include "explain/explanation.h"
#include "heatmap/explanation_data.h"
#include "main_window_fixture.h"
#include "state/decode_state.h"
#include "test_registry.h"
#include "window/explain_worker.h"

#include <QAction>
#include <QComboBox>
#include <QSignalSpy>
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
    w_->worker()->waitForDone();
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

ATTNVIZ_TEST_MAIN(TestExplainSelector)
#include "test_explain_selector.moc"
