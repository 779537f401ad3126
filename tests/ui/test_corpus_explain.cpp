// The corpus browser's explanation columns: choosing "Explain: METHOD" adds that method's AER (lines with gold links)
// and AOPC on each line's reference, each cell the engine's measures of that line (core's measureMethod on the forced
// decode of the reference); the columns sort by number, follow a change of model, and go away with "No explanation
// columns".
#include "decode/decoding.h"
#include "explain/measures.h"
#include "heatmap/explanation_data.h"
#include "main_window_fixture.h"
#include "state/decode_state.h"
#include "test_files.h"
#include "test_registry.h"
#include "views/corpus_browser.h"
#include "views/corpus_table_model.h"

#include <QComboBox>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QtTest>

#include <cmath>

using namespace attnviz;
using namespace attnviz::ui;

namespace {

const char* const kCorpusWithLinks =
    "i love you\t我 爱 你\t0-0 1-1 2-2\n"
    "the cat sat on the mat\t猫 坐 在 垫子 上\t0-0 1-0 2-1 3-2 5-3 5-4\n"
    "the cat ate an apple\t猫 吃 了 一个 苹果\n"
    "you sat\t你 坐\n";

}  // namespace

class TestCorpusExplain : public QObject, private testing::MainWindowFixture {
    Q_OBJECT
private slots:
    void initTestCase();
    void init();
    void cleanup() { closeWindow(); }
    void columnsAreTheEnginesMeasuresOfEachLine();
    void columnsSortByNumberAndGoAway();
    void aNewModelExplainsAgain();

private:
    CorpusBrowser* browser() const { return w_->corpusBrowser(); }
    bool chooseAndWait(ExplainMethod method);
    void checkAgainstEngine(ExplainMethod method);
    QTemporaryDir dir_;
    QString corpus_;
};

void TestCorpusExplain::initTestCase() {
    setUpWindowTests(QStringLiteral("test_corpus_explain"));
    corpus_ = dir_.filePath(QStringLiteral("explain.tsv"));
    testing::writeFile(corpus_, kCorpusWithLinks);
}

void TestCorpusExplain::init() {
    openWindow();
    QSignalSpy done(browser(), &CorpusBrowser::scoringFinished);
    QVERIFY(w_->openCorpus(corpus_));
    QVERIFY(done.wait(20000));
}

bool TestCorpusExplain::chooseAndWait(ExplainMethod method) {
    QComboBox* box = browser()->explainBox();
    const int i = box->findData(int(method));
    if (i < 0) return false;
    QSignalSpy done(browser(), &CorpusBrowser::explainFinished);
    box->setCurrentIndex(i);
    emit box->activated(i);
    return !done.isEmpty() || done.wait(30000);
}

void TestCorpusExplain::checkAgainstEngine(ExplainMethod method) {
    const CorpusTableModel* m = browser()->tableModel();
    const Model& model = *w_->model();
    QCOMPARE(m->explainMethod(), std::optional<ExplainMethod>(method));
    for (int r = 0; r < m->rowCount(); ++r) {
        const CorpusExample& ex = m->examples()[size_t(r)];
        const DecodeResult forced = forcedDecode(model, ex.source, ex.target);
        const ExplainMeasures want = measureMethod(model, forced, ex.has_alignment ? &ex.alignment : nullptr,
                                                   explainDecode(model, forced, method).values, AlignOptions{});
        const QString aer = m->index(r, CorpusTableModel::MethodAer).data().toString();
        QCOMPARE(aer, ex.has_alignment ? QString::number(want.aer.aer(), 'f', 3) : QString());
        QCOMPARE(m->index(r, CorpusTableModel::MethodAopc).data(CorpusTableModel::SortRole).toDouble(),
                 want.aopc.mean());
    }
    QVERIFY(
        m->headerData(CorpusTableModel::MethodAopc, Qt::Horizontal).toString().contains(explainMethodTitle(method)));
}

void TestCorpusExplain::columnsAreTheEnginesMeasuresOfEachLine() {
    QVERIFY(browser()->tableView()->isColumnHidden(CorpusTableModel::MethodAer));
    QVERIFY(chooseAndWait(ExplainMethod::Occlusion));
    QVERIFY(!browser()->tableView()->isColumnHidden(CorpusTableModel::MethodAer));
    checkAgainstEngine(ExplainMethod::Occlusion);
    QVERIFY(chooseAndWait(ExplainMethod::Attention));
    checkAgainstEngine(ExplainMethod::Attention);
}

void TestCorpusExplain::columnsSortByNumberAndGoAway() {
    QVERIFY(chooseAndWait(ExplainMethod::GradInput));
    QTableView* table = browser()->tableView();
    table->sortByColumn(CorpusTableModel::MethodAopc, Qt::DescendingOrder);
    const QSortFilterProxyModel* p = browser()->proxyModel();
    for (int r = 1; r < p->rowCount(); ++r)
        QVERIFY(p->index(r - 1, CorpusTableModel::MethodAopc).data(CorpusTableModel::SortRole).toDouble() >=
                p->index(r, CorpusTableModel::MethodAopc).data(CorpusTableModel::SortRole).toDouble());
    QComboBox* box = browser()->explainBox();
    box->setCurrentIndex(0);
    emit box->activated(0);
    QVERIFY(table->isColumnHidden(CorpusTableModel::MethodAopc));
    QVERIFY(!browser()->tableModel()->explainMethod());
}

void TestCorpusExplain::aNewModelExplainsAgain() {
    QVERIFY(chooseAndWait(ExplainMethod::GradNorm));
    QSignalSpy done(browser(), &CorpusBrowser::explainFinished);
    QVERIFY(w_->openModel(dot_));
    QVERIFY(!done.isEmpty() || done.wait(30000));
    checkAgainstEngine(ExplainMethod::GradNorm);
}

ATTNVIZ_TEST_MAIN(TestCorpusExplain)
#include "test_corpus_explain.moc"
