// View ▸ Head importance (views/head_importance_panel) on a small random Transformer (2 + 2 layers of 2 heads: 12
// heads): with no corpus open it computes on the model's sample test split, with one open on the corpus browser's
// lines; every number of its table is core's headImportanceReport of the same lines computed here again; the rows
// and the bars go from the most BLEU lost down; a cancelled run or one overtaken by a model change shows nothing; a
// head clicked in the table or the chart is the one the head grid and the heatmap show; an RNN model disables it.
#include "decode/decoding.h"
#include "eval/head_importance.h"
#include "main_window_fixture.h"
#include "state/decode_state.h"
#include "test_files.h"
#include "test_registry.h"
#include "text/tokenizer.h"
#include "views/corpus_browser.h"
#include "views/head_grid.h"
#include "views/head_importance_chart.h"
#include "views/head_importance_panel.h"

#include <qcustomplot.h>
#include <QCheckBox>
#include <QDockWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTest>

#include <cmath>
#include <set>

using namespace attnviz;
using namespace attnviz::ui;

namespace {

using Lines = std::vector<std::pair<std::string, std::string>>;  // source, reference

// `n` sentences of the small vocabulary (a fixed pseudo-random walk), each with the model's own greedy output as its
// reference: the plain model scores BLEU 100 and a head whose removal changes an output loses some of it.
Lines ownOutputs(const Model& m, int n) {
    const std::vector<std::string> words = {"i", "love", "you", "the", "cat", "sat", "on", "mat", "ate", "an", "apple"};
    Lines lines;
    uint32_t state = 7;
    for (int i = 0; i < n; ++i) {
        std::string source;
        const int len = 3 + i % 5;
        for (int k = 0; k < len; ++k) {
            state = state * 1664525u + 1013904223u;
            source += (k ? " " : "") + words[(state >> 16) % words.size()];
        }
        std::string reference;
        for (const std::string& t : greedyDecode(m, tokenizeSource(m, source)).target_tokens)
            if (t != "<eos>") reference += (reference.empty() ? "" : " ") + t;
        lines.emplace_back(source, reference.empty() ? "我" : reference);
    }
    return lines;
}

QByteArray tsv(const Lines& lines) {
    QByteArray out;
    for (const auto& [s, r] : lines) out += QByteArray::fromStdString(s + "\t" + r + "\n");
    return out;
}

std::vector<CorpusExample> examplesOf(const Lines& lines) {
    std::vector<CorpusExample> out;
    for (const auto& [s, r] : lines) {
        CorpusExample ex;
        ex.line = int(out.size()) + 1;
        ex.source = s;
        ex.target = r;
        ex.has_target = true;
        out.push_back(ex);
    }
    return out;
}

double cellValue(const QTableWidget* t, int row, int col) { return t->item(row, col)->data(Qt::UserRole).toDouble(); }

}  // namespace

class TestHeadImportancePanel : public QObject, private testing::MainWindowFixture {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void tableIsCoresHeadImportanceOfTheSampleSplit();
    void headsAreSortedByBleuLost();
    void openCorpusIsUsedAndCancelShowsNothing();
    void modelChangeDropsTheResult();
    void clickShowsTheHeadInTheGrid();
    void rnnModelDisablesThePanel();

private:
    HeadImportancePanel* panel() const { return w_->headImportance(); }
    // Computes and waits for the report; false when none came.
    bool computeAndWait() {
        QSignalSpy spy(panel(), &HeadImportancePanel::computed);
        if (!panel()->compute()) return false;
        return spy.wait(120000);
    }
    void clickRow(int row) {
        QTableWidget* t = panel()->table();
        t->scrollToItem(t->item(row, 0));
        QTest::mouseClick(t->viewport(), Qt::LeftButton, {}, t->visualItemRect(t->item(row, 0)).center());
    }

    QTemporaryDir corpora_;  // <dir>/test-task/test.tsv: the "sample test split"
    QString transformer_;
    Lines split_;
};

void TestHeadImportancePanel::initTestCase() {
    setUpWindowTests(QStringLiteral("attnviz-test-head-importance"));
    const Model m = testing::smallTransformer(5, 2);  // task "test-task"
    transformer_ = testing::saveInto(m, models_dir_, QStringLiteral("test-transformer.safetensors"));
    split_ = ownOutputs(m, 24);
    QVERIFY(QDir(corpora_.path()).mkpath(QStringLiteral("test-task")));
    testing::writeFile(corpora_.filePath(QStringLiteral("test-task/test.tsv")), tsv(split_));
    qputenv("ATTNVIZ_CORPORA", corpora_.path().toUtf8());  // sampleCorpusDirs' first folder
}

void TestHeadImportancePanel::init() {
    openWindow();
    QVERIFY(w_->openModel(transformer_));
    w_->decodes()->waitForDone();
    w_->resize(1400, 900);
    w_->headImportanceDock()->toggleViewAction()->trigger();  // View ▸ Head importance: shown and in front
    QVERIFY(panel()->isVisible());
}

void TestHeadImportancePanel::cleanup() {
    if (w_) panel()->waitForDone();
    closeWindow();
}

void TestHeadImportancePanel::tableIsCoresHeadImportanceOfTheSampleSplit() {
    QVERIFY2(panel()->statusText().contains(QStringLiteral("test-task sample test split")),
             qPrintable(panel()->statusText()));
    QVERIFY(panel()->computeButton()->isEnabled());
    QVERIFY(computeAndWait());
    const HeadImportanceReport want = headImportanceReport(*w_->model(), examplesOf(split_));
    const QTableWidget* t = panel()->table();
    QCOMPARE(t->rowCount(), int(want.heads.size()));
    QCOMPARE(t->rowCount(), 12);
    std::set<std::tuple<int, int, int>> seen;
    for (int row = 0; row < t->rowCount(); ++row) {
        const std::optional<HeadRef> head = panel()->headAtRow(row);
        QVERIFY(head);
        seen.insert({int(head->kind), head->layer, head->head});
        const auto h =
            std::find_if(want.heads.begin(), want.heads.end(), [&](const HeadScore& s) { return s.head == *head; });
        QVERIFY(h != want.heads.end());
        QCOMPARE(t->item(row, HeadImportancePanel::kLayer)->text(), QString::number(head->layer + 1));
        QCOMPARE(t->item(row, HeadImportancePanel::kHead)->text(), QString::number(head->head + 1));
        QCOMPARE(cellValue(t, row, HeadImportancePanel::kBleuOff), h->bleu_off);
        QCOMPARE(t->item(row, HeadImportancePanel::kBleuOff)->text(), QString::number(h->bleu_off, 'f', 2));
        QCOMPARE(cellValue(t, row, HeadImportancePanel::kBleuDelta), h->bleu_off - want.bleu);
        QCOMPARE(cellValue(t, row, HeadImportancePanel::kLogProbDelta), h->mean_log_prob_off - want.mean_log_prob);
        QCOMPARE(cellValue(t, row, HeadImportancePanel::kImportance), h->importance);
        QCOMPARE(t->item(row, HeadImportancePanel::kImportance)->text(), QString::number(h->importance, 'f', 3));
    }
    QCOMPARE(int(seen.size()), 12);  // every head once
    // The references are the model's own outputs: BLEU 100 with every head, as the status line says.
    QCOMPARE(panel()->report()->bleu, 100.0);
    QVERIFY2(panel()->statusText().contains(QStringLiteral("BLEU 100.00")), qPrintable(panel()->statusText()));
}

void TestHeadImportancePanel::headsAreSortedByBleuLost() {
    QVERIFY(computeAndWait());
    const QTableWidget* t = panel()->table();
    const HeadImportanceChart* chart = panel()->chart();
    QCOMPARE(chart->barCount(), t->rowCount());
    std::set<double> distinct;
    for (int row = 0; row < t->rowCount(); ++row) {
        const double delta = cellValue(t, row, HeadImportancePanel::kBleuDelta);
        distinct.insert(delta);
        QCOMPARE(chart->barValue(row), -delta);  // the bar is the BLEU lost of the row beside it
        if (row > 0)
            QVERIFY2(delta >= cellValue(t, row - 1, HeadImportancePanel::kBleuDelta), qPrintable(QString::number(row)));
    }
    QVERIFY2(distinct.size() >= 2, "every head costs the same: the order would not be tested");
    // The top row is the head whose removal costs most, by core's numbers.
    const HeadImportanceReport& r = *panel()->report();
    const double worst = std::min_element(r.heads.begin(), r.heads.end(), [](const HeadScore& a, const HeadScore& b) {
                             return a.bleu_off < b.bleu_off;
                         })->bleu_off;
    QCOMPARE(cellValue(t, 0, HeadImportancePanel::kBleuOff), worst);
    QVERIFY(cellValue(t, 0, HeadImportancePanel::kBleuDelta) < 0);
}

void TestHeadImportancePanel::openCorpusIsUsedAndCancelShowsNothing() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("big.tsv"));
    testing::writeFile(path, tsv(ownOutputs(*w_->model(), 600)));
    QVERIFY(w_->openCorpus(path));
    w_->corpusBrowser()->cancelScoring();
    QVERIFY2(panel()->statusText().contains(QStringLiteral("big.tsv")), qPrintable(panel()->statusText()));
    QSignalSpy computed(panel(), &HeadImportancePanel::computed);
    QVERIFY(panel()->compute());
    QVERIFY(panel()->isComputing());
    QVERIFY(panel()->cancelButton()->isVisible());
    QTest::mouseClick(panel()->cancelButton(), Qt::LeftButton);
    QVERIFY(!panel()->isComputing());
    panel()->waitForDone();
    QTest::qWait(50);  // the worker's finished signal is delivered, and dropped
    QCOMPARE(computed.count(), 0);
    QVERIFY(!panel()->report());
    QCOMPARE(panel()->table()->rowCount(), 0);
    QCOMPARE(panel()->chart()->barCount(), 0);
    QVERIFY(panel()->statusText().startsWith(QStringLiteral("Cancelled")));
    QVERIFY(panel()->computeButton()->isEnabled());
}

void TestHeadImportancePanel::modelChangeDropsTheResult() {
    QVERIFY(computeAndWait());
    QVERIFY(panel()->table()->rowCount() > 0);
    // another Transformer: the old numbers go at once, and a run for the old model never shows
    const QString other =
        testing::saveInto(testing::smallTransformer(9, 1), models_dir_, QStringLiteral("other.safetensors"));
    QVERIFY(panel()->compute());
    QSignalSpy computed(panel(), &HeadImportancePanel::computed);
    QVERIFY(w_->openModel(other));
    QVERIFY(!panel()->isComputing());
    QVERIFY(!panel()->report());
    QCOMPARE(panel()->table()->rowCount(), 0);
    panel()->waitForDone();
    QTest::qWait(50);
    QCOMPARE(computed.count(), 0);
    QVERIFY(!panel()->report());
    // computed again, it is the new model's: 1 decoder layer, so 2 + 2 + 4 heads
    QVERIFY(computeAndWait());
    QCOMPARE(panel()->table()->rowCount(), 8);
    const HeadImportanceReport want = headImportanceReport(*w_->model(), examplesOf(split_));
    QCOMPARE(panel()->report()->bleu, want.bleu);
}

void TestHeadImportancePanel::clickShowsTheHeadInTheGrid() {
    QVERIFY(typeAndWait(QStringLiteral("the cat sat on the mat")));
    QVERIFY(computeAndWait());
    for (int row : {3, 0, 7}) {
        const HeadRef head = *panel()->headAtRow(row);
        clickRow(row);
        QVERIFY(w_->headDock()->isVisible());
        QVERIFY(w_->state()->attentionView() == (AttentionView{head.kind, head.layer, head.head}));
        QVERIFY(w_->headGrid()->kind() == head.kind);
        QVERIFY(!w_->headGrid()->averaged());
        const HeadGridFigure& f = w_->headGrid()->canvas()->figure();
        QCOMPARE(f.selected_layer, head.layer);
        QCOMPARE(f.selected_head, head.head);
        QCOMPARE(panel()->chart()->selected(), row);  // rows still in the chart's order
    }
    // a bar of the chart does the same
    w_->headGrid()->setAveraged(true);
    const int bar = 5;
    const HeadRef head = panel()->sortedHeads()[bar].head;
    QTest::mouseClick(panel()->chart()->plot(), Qt::LeftButton, {}, panel()->chart()->barCenter(bar));
    QVERIFY(w_->state()->attentionView() == (AttentionView{head.kind, head.layer, head.head}));
    QVERIFY(!w_->headGrid()->averaged());
    QVERIFY(panel()->headAtRow(panel()->table()->currentRow()) == head);
}

void TestHeadImportancePanel::rnnModelDisablesThePanel() {
    QVERIFY(w_->openModel(additive_));
    w_->decodes()->waitForDone();
    QVERIFY(!panel()->computeButton()->isEnabled());
    QVERIFY(!panel()->table()->isEnabled());
    QVERIFY2(panel()->statusText().contains(QStringLiteral("RNN")), qPrintable(panel()->statusText()));
    QVERIFY(!panel()->compute());
    QVERIFY(!panel()->isComputing());
    // back on the Transformer it is enabled again
    QVERIFY(w_->openModel(transformer_));
    QVERIFY(panel()->computeButton()->isEnabled());
}

ATTNVIZ_TEST_MAIN(TestHeadImportancePanel)
#include "test_head_importance_panel.moc"
