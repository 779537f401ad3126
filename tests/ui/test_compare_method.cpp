// The compare view with an explanation method as B (View ▸ Compare models, "This model: METHOD"): B's rows are the
// method's matrix for A's decode as shares of each row's magnitude, the difference map is those shares − the
// attention, the table's ρ column is each row's rank correlation of the attention and the method's own values (core's
// rowShares, rowSpearman and explainDecode on the decode shown), the summary gives their mean, and the method stays
// B when the sentence or the model changes.
#include "explain/explanation.h"
#include "explain/measures.h"
#include "heatmap/explanation_data.h"
#include "heatmap/heatmap_view.h"
#include "main_window_fixture.h"
#include "state/decode_state.h"
#include "test_registry.h"
#include "views/compare_rows_model.h"
#include "views/compare_view.h"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QTableView>
#include <QtTest>

#include <cmath>

using namespace attnviz;
using namespace attnviz::ui;

class TestCompareMethod : public QObject, private testing::MainWindowFixture {
    Q_OBJECT
private slots:
    void initTestCase() { setUpWindowTests(QStringLiteral("test_compare_method")); }
    void init();
    void cleanup() {
        if (w_) view()->waitForDone();
        closeWindow();
    }
    void theBoxOffersEveryMethodOfTheModel();
    void bIsTheMethodsRowSharesAndRhoIsCores();
    void theMethodStaysBAcrossSentencesAndModels();

private:
    CompareView* view() const { return w_->compareView(); }
    bool chooseMethod(ExplainMethod method);
    bool waitForPair();
    Mat attentionOf(const DecodeResult& r) const;
};

void TestCompareMethod::init() {
    openWindow();
    w_->compareAction()->trigger();
    QVERIFY(view()->isActive());
}

bool TestCompareMethod::chooseMethod(ExplainMethod method) {
    QComboBox* box = view()->modelBox();
    const int i = box->findData(QStringLiteral("method:%1").arg(QLatin1String(methodInfo(method).name)));
    if (i < 0) return false;
    box->setCurrentIndex(i);
    emit box->activated(i);
    return waitForPair();
}

bool TestCompareMethod::waitForPair() {
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < 20000) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        const PrefixDecoding* a = w_->state()->decode();
        if (a && !view()->isBusy() && view()->decodeA() && view()->decodeB() &&
            view()->decodeA()->target_ids == a->result.target_ids &&
            view()->decodeA()->source_ids == a->result.source_ids)
            return true;
    }
    return false;
}

Mat TestCompareMethod::attentionOf(const DecodeResult& r) const {
    Mat m(Eigen::Index(r.attention.size()), Eigen::Index(r.source_ids.size()));
    for (Eigen::Index t = 0; t < m.rows(); ++t)
        for (Eigen::Index j = 0; j < m.cols(); ++j) m(t, j) = r.attention[size_t(t)][size_t(j)];
    return m;
}

void TestCompareMethod::theBoxOffersEveryMethodOfTheModel() {
    QComboBox* box = view()->modelBox();
    for (ExplainMethod m : methodsFor(w_->model()->config)) {
        const int i = box->findData(QStringLiteral("method:%1").arg(QLatin1String(methodInfo(m).name)));
        QCOMPARE(i >= 0, m != ExplainMethod::Attention);  // attention is A itself
    }
    QCOMPARE(box->findData(QStringLiteral("method:rollout")), -1);  // an RNN model
}

void TestCompareMethod::bIsTheMethodsRowSharesAndRhoIsCores() {
    QVERIFY(typeAndWait(QStringLiteral("the cat sat on the mat")));
    QVERIFY(chooseMethod(ExplainMethod::GradInput));
    QCOMPARE(view()->methodB(), std::optional<ExplainMethod>(ExplainMethod::GradInput));
    const DecodeResult& a = w_->state()->decode()->result;
    const Explanation e = explainDecode(*w_->state()->decodedModel(), a, ExplainMethod::GradInput);
    const Mat shares = rowShares(e.values);
    const DecodeResult* b = view()->decodeB();
    for (Eigen::Index t = 0; t < shares.rows(); ++t) {
        QVERIFY(std::abs(shares.row(t).sum() - 1.0f) < 1e-5f);
        for (Eigen::Index j = 0; j < shares.cols(); ++j) QCOMPARE(b->attention[size_t(t)][size_t(j)], shares(t, j));
    }
    // the difference map: shares − attention, cell by cell
    const auto diff = view()->viewDifference()->data().weights;
    QCOMPARE(diff[1][2], shares(1, 2) - a.attention[1][2]);
    // ρ per row: core's rank correlation of the attention and the method's own (signed) values
    const std::vector<double> want = rowSpearman(attentionOf(a), e.values);
    QCOMPARE(view()->rankCorrelation().size(), want.size());
    auto* rows = static_cast<CompareRowsModel*>(view()->distanceTable()->model());
    for (size_t t = 0; t < want.size(); ++t) {
        const double got =
            rows->index(int(t), CompareRowsModel::RankCorrelation).data(CompareRowsModel::ValueRole).toDouble();
        QVERIFY(std::isnan(want[t]) ? std::isnan(got) : got == want[t]);
    }
    QVERIFY(!view()->distanceTable()->isColumnHidden(CompareRowsModel::RankCorrelation));
    QVERIFY2(view()->summaryText().contains(QStringLiteral("mean ρ")), qPrintable(view()->summaryText()));
    // B's map says what its rows are, and the exported comparison names the method
    QVERIFY(view()->viewB()->style().title.contains(explainMethodTitle(ExplainMethod::GradInput)));
    QCOMPARE(view()->comparison().b_method, std::string("grad_input"));
    // a sibling as B again: no ρ column
    QComboBox* box = view()->modelBox();
    box->setCurrentIndex(0);
    emit box->activated(0);
    QVERIFY(waitForPair());
    QVERIFY(!view()->methodB());
    QVERIFY(view()->distanceTable()->isColumnHidden(CompareRowsModel::RankCorrelation));
}

void TestCompareMethod::theMethodStaysBAcrossSentencesAndModels() {
    QVERIFY(typeAndWait(QStringLiteral("the cat sat")));
    QVERIFY(chooseMethod(ExplainMethod::Occlusion));
    QVERIFY(typeAndWait(QStringLiteral("i love you")));
    QVERIFY(waitForPair());
    QCOMPARE(view()->methodB(), std::optional<ExplainMethod>(ExplainMethod::Occlusion));
    const Explanation e =
        explainDecode(*w_->state()->decodedModel(), w_->state()->decode()->result, ExplainMethod::Occlusion);
    QCOMPARE(view()->decodeB()->attention[0][1], rowShares(e.values)(0, 1));
    // another model: its own occlusion
    QVERIFY(w_->openModel(dot_));
    w_->decodes()->waitForDone();
    QVERIFY(waitForPair());
    QCOMPARE(view()->methodB(), std::optional<ExplainMethod>(ExplainMethod::Occlusion));
    const Explanation dot =
        explainDecode(*w_->state()->decodedModel(), w_->state()->decode()->result, ExplainMethod::Occlusion);
    QCOMPARE(view()->decodeB()->attention[0][1], rowShares(dot.values)(0, 1));
}

ATTNVIZ_TEST_MAIN(TestCompareMethod)
#include "test_compare_method.moc"
