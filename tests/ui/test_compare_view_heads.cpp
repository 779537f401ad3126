// The compare view's head choosers driven as a user would (views/head_choice_box.h): a small Transformer (A) beside
// an RNN sibling (B). Choosing "Layer 2 · head 1" puts in A's map exactly the head grid's thumbnail of that head (a
// different route to the same numbers), the table's distances become those of that head's rows against B's, the
// titles and the whole comparison's JSON say which head; the default entry gives back the decode's `attention`; an RNN
// side's chooser is disabled.
#include "main_window_fixture.h"

#include "eval/compare.h"
#include "eval/compare_heads.h"
#include "heatmap/comparison_export.h"
#include "state/decode_state.h"
#include "test_registry.h"
#include "views/compare_view.h"
#include "views/head_choice_box.h"
#include "views/head_grid.h"
#include "views/head_grid_painter.h"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QtTest>
#include <nlohmann/json.hpp>

using namespace attnviz;
using namespace attnviz::ui;

class TestCompareViewHeads : public QObject, private testing::MainWindowFixture {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup() { closeWindow(); }

    void rnnSidesHaveNothingToChoose();
    void transformerHeadBesideAnRnn();

private:
    CompareView* view() const { return w_->compareView(); }
    bool waitForPair();
    bool choose(QComboBox* box, const QString& text);
    bool chooseModelB(const QString& path);

    QString transformer_;
    QTemporaryDir out_dir_;
};

void TestCompareViewHeads::initTestCase() {
    setUpWindowTests(QStringLiteral("test_compare_view_heads"));
    // A sibling of the fixture's RNN models: the same vocabularies and tokenizers, 2 decoder layers of 2 heads.
    transformer_ = testing::saveInto(testing::smallTransformer(21, 2), models_dir_,
                                     QStringLiteral("test-transformer.safetensors"));
}

void TestCompareViewHeads::init() {
    openWindow();
    w_->resize(1400, 900);
    w_->compareAction()->trigger();
    QVERIFY(view()->isActive());
}

bool TestCompareViewHeads::waitForPair() {
    const PrefixDecoding* a = w_->state()->decode();
    if (!a) return false;
    QElapsedTimer timer;
    timer.start();
    while (timer.elapsed() < 20000) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        if (!view()->isBusy() && view()->decodeA() && view()->decodeA()->target_ids == a->result.target_ids &&
            view()->decodeA()->source_ids == a->result.source_ids)
            return true;
    }
    return false;
}

// Picks the entry reading `text` as a click would.
bool TestCompareViewHeads::choose(QComboBox* box, const QString& text) {
    const int i = box->findText(text);
    if (i < 0 || !box->isEnabled()) return false;
    box->setCurrentIndex(i);
    emit box->activated(i);
    return true;
}

// Chooses `path` in the "Compare with" box as a click would.
bool TestCompareViewHeads::chooseModelB(const QString& path) {
    QComboBox* box = view()->modelBox();
    for (int i = 0; i < box->count(); ++i)
        if (QFileInfo(box->itemData(i).toString()) == QFileInfo(path)) {
            box->setCurrentIndex(i);
            emit box->activated(i);
            return true;
        }
    return false;
}

void TestCompareViewHeads::rnnSidesHaveNothingToChoose() {
    QVERIFY(chooseModelB(dot_));
    QVERIFY(typeAndWait(QStringLiteral("i love you")));
    QVERIFY(waitForPair());
    for (HeadChoiceBox* box : {view()->headBoxA(), view()->headBoxB()}) {
        QVERIFY(!box->isEnabled());
        QCOMPARE(box->count(), 1);
        QVERIFY2(box->currentText().contains(QStringLiteral("RNN")), qPrintable(box->currentText()));
        QVERIFY(box->choice().isDefault());
    }
    QCOMPARE(view()->viewA()->style().title, QStringLiteral("A: additive"));  // an RNN's title names no head
}

void TestCompareViewHeads::transformerHeadBesideAnRnn() {
    QVERIFY(w_->openModel(transformer_));
    w_->decodes()->waitForDone();
    QVERIFY(chooseModelB(additive_));
    w_->headDock()->show();
    w_->headGrid()->setKind(AttentionKind::Cross);
    QVERIFY(typeAndWait(QStringLiteral("the cat sat on the mat")));
    QVERIFY(waitForPair());

    // A's chooser lists the default, then per layer its mean and its heads; B (an RNN) has nothing to choose.
    HeadChoiceBox* box = view()->headBoxA();
    QVERIFY(box->isEnabled());
    QCOMPARE(box->count(), 1 + 2 * (1 + 2));
    QVERIFY(!view()->headBoxB()->isEnabled());
    const std::vector<RowComparison> spec_rows = view()->rows();
    QVERIFY(view()->viewA()->style().title.endsWith(QStringLiteral("mean of heads, last layer")));

    QVERIFY(choose(box, QStringLiteral("Layer 2 · head 1")));
    QCOMPARE(box->choice(), (AttentionView{AttentionKind::Cross, 1, 0}));
    // A's map is the head grid's thumbnail of layer 2, head 1, cell by cell.
    const HeadMatrix& thumb = w_->headGrid()->canvas()->figure().cells[1][0];
    const DecodeResult& b = *view()->decodeB();
    QCOMPARE(view()->viewA()->matrixSize(), QSize(int(thumb[0].size()), int(thumb.size())));
    const std::vector<RowComparison>& rows = view()->rows();
    QCOMPARE(rows.size(), thumb.size());
    int changed = 0;
    for (size_t t = 0; t < thumb.size(); ++t) {
        for (size_t j = 0; j < thumb[t].size(); ++j)
            QCOMPARE(view()->viewA()->cellValue(int(t), int(j)), double(thumb[t][j]));
        // The table's distances are those of the head's rows against B's.
        QCOMPARE(rows[t].tv, totalVariation(thumb[t], b.attention[t]));
        QCOMPARE(rows[t].js, jensenShannon(thumb[t], b.attention[t]));
        QCOMPARE(rows[t].argmax_a, rowArgmax(thumb[t]));
        changed += std::abs(rows[t].tv - spec_rows[t].tv) > 1e-4;
    }
    QVERIFY(changed > 0);
    double tv = 0;
    for (const RowComparison& r : rows) tv += r.tv;
    QVERIFY(std::abs(view()->summary().mean_tv - tv / double(rows.size())) < 1e-12);

    // The titles, on screen and in the exported figure, say which head; the numbers' JSON says so too.
    QCOMPARE(view()->viewA()->style().title, QStringLiteral("A: transformer\nlayer 2 · head 1"));
    QCOMPARE(view()->viewB()->style().title.section(u'\n', 0, 0), QStringLiteral("B: bahdanau-additive"));
    QCOMPARE(view()->viewB()->style().title.count(u'\n'), 1);  // two lines as A's, so that the maps line up
    const std::vector<HeatmapPanel> panels = comparisonPanels(view()->comparison(), HeatmapStyle{});
    QCOMPARE(panels[0].style.title, view()->viewA()->style().title);
    const QString json_path = out_dir_.filePath(QStringLiteral("cmp.json"));
    QString error;
    QVERIFY2(view()->exportPart(CompareView::Part::Comparison, json_path, ExportOptions{}, &error), qPrintable(error));
    QFile f(json_path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const nlohmann::json j = nlohmann::json::parse(f.readAll().toStdString());
    QCOMPARE(j["head_a"].dump(), std::string(R"({"head":1,"layer":2})"));
    QVERIFY(j["head_b"].is_null());
    QCOMPARE(j["attention_a"][1][2].get<double>(), double(thumb[1][2]));
    QCOMPARE(j["tv"].get<double>(), view()->summary().mean_tv);

    // A layer's mean, then the default again: the decode's `attention` and its distances come back.
    QVERIFY(choose(box, QStringLiteral("Layer 1 · average of heads")));
    QCOMPARE(view()->viewA()->style().title, QStringLiteral("A: transformer\nlayer 1 · mean of heads"));
    QVERIFY(choose(box, box->itemText(0)));
    QVERIFY(box->choice().isDefault());
    for (size_t t = 0; t < spec_rows.size(); ++t) QCOMPARE(view()->rows()[t].tv, spec_rows[t].tv);

    // Back to an RNN as A: its chooser is disabled and the default is chosen.
    QVERIFY(choose(box, QStringLiteral("Layer 2 · head 2")));
    QVERIFY(w_->openModel(additive_));
    w_->decodes()->waitForDone();
    QVERIFY(!box->isEnabled());
    QVERIFY(box->choice().isDefault());
}

ATTNVIZ_TEST_MAIN(TestCompareViewHeads)
#include "test_compare_view_heads.moc"
