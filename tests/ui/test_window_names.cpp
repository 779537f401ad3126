// The window names what it shows (issue 44's smaller findings): the colour-map box names the diverging map while a
// signed explanation is drawn with it; a knocked-out word carries a tape no script's strokes look like; the status
// bar's attention confidence says which way is best; a model of another task opens with its own sentence; in
// Chinese the training form and the Siblings menu name kinds and scorings in Chinese, not in the engine's words.
#include "main_window_fixture.h"
#include "state/decode_state.h"
#include "test_registry.h"
#include "training/training_form.h"
#include "window/language.h"
#include "window/siblings_menu.h"

#include <QAction>
#include <QComboBox>
#include <QImage>
#include <QSignalSpy>
#include <QToolBar>

using namespace attnviz;
using namespace attnviz::ui;

class TestWindowNames : public QObject, private testing::MainWindowFixture {
    Q_OBJECT

private slots:
    void initTestCase() { setUpWindowTests(QStringLiteral("test_window_names")); }
    void init() { openWindow(); }
    void cleanup() {
        closeWindow();
        setLanguage(QStringLiteral("en"));
    }

    void colourMapBoxNamesTheDivergingMapWhileShown();
    void knockedOutWordCarriesATape();
    void confidenceSaysWhichWayIsBest();
    void modelOfAnotherTaskOpensWithItsOwnSentence();
    void chineseNamesKindsAndScorings();

private:
    QComboBox* colourMapBox() const;
};

QComboBox* TestWindowNames::colourMapBox() const {
    auto* bar = w_->findChild<QToolBar*>(QStringLiteral("ViewToolBar"));
    return bar ? bar->findChild<QComboBox*>() : nullptr;
}

void TestWindowNames::colourMapBoxNamesTheDivergingMapWhileShown() {
    QVERIFY(typeAndWait(QStringLiteral("i love you")));
    QComboBox* box = colourMapBox();
    QVERIFY(box);
    QCOMPARE(box->currentData().toString(), w_->colormap());
    QSignalSpy explained(w_->state(), &DecodeState::explanationChanged);
    w_->setExplainMethod(ExplainMethod::GradInput);  // signed: the diverging map
    QTRY_VERIFY_WITH_TIMEOUT(w_->state()->explanation() != nullptr, 20000);
    QVERIFY(w_->heatmapView()->style().diverging);
    QCOMPARE(box->currentIndex(), -1);  // no map of the list is shown: the box says which is
    QVERIFY2(box->placeholderText().startsWith(QStringLiteral("RdBu")), qPrintable(box->placeholderText()));
    w_->setExplainMethod(ExplainMethod::Attention);
    QTRY_VERIFY(!w_->heatmapView()->style().diverging);
    QCOMPARE(box->currentData().toString(), w_->colormap());
}

// The mark under a knocked-out word's label is a solid dark tape (with a white bar along its middle) across the
// column, not a thin cross that reads as a stroke of a Chinese character.
void TestWindowNames::knockedOutWordCarriesATape() {
    QVERIFY(typeAndWait(QStringLiteral("i love you")));
    Interventions iv;
    iv.knockout = {2};
    w_->setInterventions(iv);
    QSignalSpy decoded(w_.get(), &MainWindow::decodeFinished);
    w_->decodeNow();
    QVERIFY(waitDecode(decoded));
    QTRY_COMPARE(w_->heatmapView()->style().interventions.knockout, std::vector<int>{2});
    const QRect mark = w_->heatmapView()->columnMarkRect(2);
    QVERIFY(mark.width() > 20);
    const QImage shown = w_->heatmapView()->grab().toImage();
    for (const QPoint at :
         {mark.center() - QPoint(mark.width() * 3 / 8, 0), mark.center() + QPoint(mark.width() * 3 / 8, 0)}) {
        const QColor c = shown.pixelColor(at);  // beside the bar, on the tape
        QVERIFY2(c.red() < 80 && c.green() < 80 && c.blue() < 80, qPrintable(c.name()));
    }
    const QColor bar = shown.pixelColor(mark.center());
    QVERIFY2(bar.lightness() > 200, qPrintable(bar.name()));
}

void TestWindowNames::confidenceSaysWhichWayIsBest() {
    QVERIFY(typeAndWait(QStringLiteral("i love you")));
    QVERIFY2(w_->confidenceText().contains(QStringLiteral("(0 is best")), qPrintable(w_->confidenceText()));
}

// A trained model of the dates task opened over a translation model: "I love you." means nothing to it.
void TestWindowNames::modelOfAnotherTaskOpensWithItsOwnSentence() {
    QVERIFY(typeAndWait(QStringLiteral("i love you")));
    w_->setReferenceText(QStringLiteral("我 爱 你"));
    Model dates = testing::smallModel(testing::smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 21, 3.0f);
    dates.task = "dates";
    const QString path = testing::saveInto(dates, models_dir_, QStringLiteral("dates-trained.safetensors"));
    QVERIFY(w_->openModel(path));
    QCOMPARE(w_->sourceText(), QStringLiteral("9/24/75"));
    QCOMPARE(w_->state()->referenceText(), QString());
    // a sibling of the same task keeps the sentence
    QVERIFY(w_->openModel(additive_));
    w_->setSourceText(QStringLiteral("i love you"));
    QVERIFY(w_->openModel(dot_));
    QCOMPARE(w_->sourceText(), QStringLiteral("i love you"));
}

void TestWindowNames::chineseNamesKindsAndScorings() {
    QVERIFY(setLanguage(QStringLiteral("zh_CN")));
    closeWindow();
    openWindow();  // built in Chinese
    TrainingForm form;
    QStringList kinds, scorings;
    for (int i = 0; i < form.decoderBox()->count(); ++i) kinds << form.decoderBox()->itemText(i);
    for (int i = 0; i < form.scoreBox()->count(); ++i) scorings << form.scoreBox()->itemText(i);
    QVERIFY2(!kinds.contains(QStringLiteral("bahdanau")) && kinds.first().startsWith(QStringLiteral("Bahdanau")),
             qPrintable(kinds.join(u'|')));
    QVERIFY2(scorings.contains(QStringLiteral("加性")) && scorings.contains(QStringLiteral("点积")),
             qPrintable(scorings.join(u'|')));
    QCOMPARE(form.decoderBox()->itemData(0).toString(), QStringLiteral("bahdanau"));  // the engine's name underneath
    QStringList entries;
    for (QAction* a : w_->siblingsMenu()->actions()) entries << a->text();
    QVERIFY2(entries.contains(QStringLiteral("test-bahdanau-dot — 点积")), qPrintable(entries.join(u'|')));
}

ATTNVIZ_TEST_MAIN(TestWindowNames)
#include "test_window_names.moc"
