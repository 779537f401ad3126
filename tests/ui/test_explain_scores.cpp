// View ▸ Which explanation is right? (views/explain_scores_panel): for the sentence shown, each method's AER,
// precision and recall against the typed gold links, its AOPC beside the random order's and its rank correlation with
// occlusion, each cell equal to core's measureLine on the decode shown; without gold links the AER columns stay
// empty; a new sentence never shows the old sentence's numbers.
#include "eval/alignment.h"
#include "explain/measures.h"
#include "main_window_fixture.h"
#include "state/decode_state.h"
#include "test_registry.h"
#include "views/explain_scores_panel.h"
#include "views/gold_links_panel.h"

#include <QDockWidget>
#include <QSignalSpy>
#include <QTableWidget>
#include <QtTest>

#include <cmath>

using namespace attnviz;
using namespace attnviz::testing;
using namespace attnviz::ui;

namespace {

QString shown(double v) { return std::isnan(v) ? QStringLiteral("—") : QString::number(v, 'f', 3); }

}  // namespace

class TestExplainScores : public QObject, MainWindowFixture {
    Q_OBJECT
private slots:
    void initTestCase() { setUpWindowTests(QStringLiteral("attnviz-test-explain-scores")); }
    void init() { openWindow(); }
    void cleanup() {
        if (w_) w_->explainScores()->waitForDone();
        closeWindow();
    }
    void everyCellIsCoresMeasure();
    void withoutGoldLinksOnlyFaithfulnessIsShown();
    void aNewSentenceNeverShowsTheOldNumbers();

private:
    ExplainScoresPanel* panel() const { return w_->explainScores(); }
    bool showAndWait() {
        QSignalSpy spy(panel(), &ExplainScoresPanel::measured);
        w_->explainScoresDock()->show();
        return !spy.isEmpty() || spy.wait(60000);
    }
    QString cellText(int row, int col) const {
        const QTableWidgetItem* item = panel()->table()->item(row, col);
        return item ? item->text() : QString();
    }
};

void TestExplainScores::everyCellIsCoresMeasure() {
    w_->setReferenceText(kAppleReference);
    QVERIFY(typeAndWait(kAppleSource));
    QVERIFY(w_->goldLinks()->setLinks(kAppleLinks).isEmpty());
    QVERIFY(showAndWait());
    const DecodeResult& r = w_->state()->decode()->result;
    const GoldAlignment gold = parseAlignment(kAppleLinks.toStdString());
    const std::vector<ExplainMethod> methods = methodsFor(w_->model()->config);
    const LineMeasures want = measureLine(*w_->state()->decodedModel(), r, &gold, methods,
                                          w_->goldLinks()->alignOptions(), ExplainScoresPanel::kRandomSeed);
    QCOMPARE(panel()->table()->rowCount(), int(methods.size()) + 1);
    for (size_t i = 0; i < methods.size(); ++i) {
        const ExplainMeasures& m = want.methods[i];
        QCOMPARE(cellText(int(i), 0), shown(m.aer.aer()));
        QCOMPARE(cellText(int(i), 1), shown(m.aer.precision()));
        QCOMPARE(cellText(int(i), 2), shown(m.aer.recall()));
        QCOMPARE(cellText(int(i), 3), shown(m.aopc.mean()));
        QCOMPARE(cellText(int(i), 4), shown(m.occlusion_spearman.mean()));
    }
    QCOMPARE(cellText(int(methods.size()), 3), shown(want.random.aopc.mean()));
    // occlusion agrees with itself
    const auto occ = std::find(methods.begin(), methods.end(), ExplainMethod::Occlusion) - methods.begin();
    QCOMPARE(cellText(int(occ), 4), QStringLiteral("1.000"));
    // attention's AER here is the gold panel's own number (the same links, the same options)
    QCOMPARE(cellText(0, 0), shown(w_->goldLinks()->counts()->aer()));
}

void TestExplainScores::withoutGoldLinksOnlyFaithfulnessIsShown() {
    QVERIFY(typeAndWait(QStringLiteral("the cat sat on the mat")));
    QVERIFY(showAndWait());
    const LineMeasures want =
        measureLine(*w_->state()->decodedModel(), w_->state()->decode()->result, nullptr,
                    methodsFor(w_->model()->config), AlignOptions{}, ExplainScoresPanel::kRandomSeed);
    QCOMPARE(cellText(0, 0), QStringLiteral("—"));
    QCOMPARE(cellText(0, 3), shown(want.methods[0].aopc.mean()));
    QVERIFY(panel()->statusText().contains(QStringLiteral("reference")));
}

void TestExplainScores::aNewSentenceNeverShowsTheOldNumbers() {
    QVERIFY(typeAndWait(QStringLiteral("the cat sat on the mat")));
    QVERIFY(showAndWait());
    QSignalSpy spy(panel(), &ExplainScoresPanel::measured);
    QVERIFY(typeAndWait(QStringLiteral("i love you")));
    QVERIFY(!panel()->measures().has_value() || spy.count() > 0);  // the old numbers are gone at once
    QVERIFY(!spy.isEmpty() || spy.wait(60000));
    const LineMeasures want =
        measureLine(*w_->state()->decodedModel(), w_->state()->decode()->result, nullptr,
                    methodsFor(w_->model()->config), AlignOptions{}, ExplainScoresPanel::kRandomSeed);
    QCOMPARE(cellText(1, 3), shown(want.methods[1].aopc.mean()));
}

ATTNVIZ_TEST_MAIN(TestExplainScores)
#include "test_explain_scores.moc"
