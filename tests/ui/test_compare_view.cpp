// The window's compare view driven as a user would: open View ▸ Compare models, pick a sibling from the combo, type,
// step. Checked against the engine: B is the sibling's forced decode on A's output, the difference map holds B − A
// cell by cell, the distances and means are core's compare (eval/compare.h), the AER is core's against typed gold
// links; both sides move when stepping; the exports have the asked size and the engine's numbers.
#include "main_window_fixture.h"
#include "test_files.h"

#include "eval/compare.h"
#include "heatmap/heatmap_view.h"
#include "io/model_file.h"
#include "state/decode_state.h"
#include "test_registry.h"
#include "text/tokenizer.h"
#include "views/compare_rows_model.h"
#include "views/compare_view.h"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QImage>
#include <QLineEdit>
#include <QTableView>
#include <QtTest>
#include <nlohmann/json.hpp>

#include <cmath>

using namespace attnviz;
using namespace attnviz::ui;

namespace {

// Clearly red pixels (the positive end of the diverging map; viridis has no such colour) in columns [x0, x1).
int reddishPixels(const QImage& image, int x0, int x1) {
    int n = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = x0; x < x1; ++x) {
            const QRgb p = image.pixel(x, y);
            n += qRed(p) > qGreen(p) + 30 && qRed(p) > qBlue(p) + 30;
        }
    return n;
}

std::vector<std::string> wordsOf(const QStringList& list) {
    std::vector<std::string> out;
    for (const QString& s : list) out.push_back(s.toStdString());
    return out;
}

}  // namespace

class TestCompareView : public QObject, private testing::MainWindowFixture {
    Q_OBJECT

private slots:
    void initTestCase() { setUpWindowTests(QStringLiteral("test_compare_view")); }
    void init();
    void cleanup() { closeWindow(); }

    void pickSiblingTypeAndStep();
    void differenceAndDistancesAreTheEngines();
    void goldLinksGiveEachSidesAer();
    void exportsHaveTheSizeAndTheNumbers();
    void aModelWithOtherVocabulariesIsRefused();
    void hiddenViewDecodesNothing();
    void openingBAsTheModelNeverComparesItWithItself();
    void bTakesTheInterventionsOfA();

private:
    CompareView* view() const { return w_->compareView(); }
    bool waitForPair();
    bool chooseInBox(const QString& path);
    DecodeResult engineB(const QString& path) const;

    QTemporaryDir out_dir_;
};

void TestCompareView::init() {
    openWindow();
    QVERIFY(w_->compareView());
    QVERIFY(!w_->compareShown());  // hidden until asked for
    w_->compareAction()->trigger();
    QVERIFY(w_->compareShown());
    QVERIFY(view()->isActive());
}

// Waits until B's decode for the decode the window shows has arrived.
bool TestCompareView::waitForPair() {
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

// Chooses `path` in the "Compare with" box as a click would.
bool TestCompareView::chooseInBox(const QString& path) {
    QComboBox* box = view()->modelBox();
    for (int i = 0; i < box->count(); ++i)
        if (QFileInfo(box->itemData(i).toString()) == QFileInfo(path)) {
            box->setCurrentIndex(i);
            emit box->activated(i);
            return true;
        }
    return false;
}

// What the engine gives for B on the window's decode of A: the sibling loaded here, its own tokenization of the
// sentence, forced onto A's output ids.
DecodeResult TestCompareView::engineB(const QString& path) const {
    const Model b = loadModel(path.toStdString());
    const DecodeResult& a = w_->state()->decode()->result;
    const TokenizedText source = tokenizeSource(b, w_->sourceText().toStdString());
    return forcedDecode(b, source, TokenizedText{a.target_tokens, a.target_ids});
}

void TestCompareView::pickSiblingTypeAndStep() {
    // The box lists the two siblings (not A itself), A's explanation methods and "Open…"; the first sibling is
    // chosen at once.
    QComboBox* box = view()->modelBox();
    int models = 0;
    for (int i = 0; i < box->count(); ++i)  // a separator has no text
        models += box->itemText(i).isEmpty() || box->itemData(i).toString().startsWith("method:") ? 0 : 1;
    QCOMPARE(models, 3);
    QVERIFY(box->itemText(0).contains(QStringLiteral(".safetensors — ")));
    QVERIFY(!view()->modelBPath().isEmpty());
    QVERIFY(QFileInfo(view()->modelBPath()) != QFileInfo(additive_));

    QVERIFY(chooseInBox(scaled_));
    QCOMPARE(QFileInfo(view()->modelBPath()), QFileInfo(scaled_));
    QVERIFY(typeAndWait(QStringLiteral("the cat sat on the mat")));
    QVERIFY(waitForPair());
    const int T = int(view()->decodeA()->target_tokens.size());
    QVERIFY(T >= 2);
    QCOMPARE(view()->decodeB()->target_ids, view()->decodeA()->target_ids);  // B follows A's output
    for (HeatmapView* v : {view()->viewA(), view()->viewB(), view()->viewDifference()}) {
        QCOMPARE(v->matrixSize(), QSize(8, T));
        QCOMPARE(v->visibleRows(), -1);
    }

    // Stepping the window moves the three maps and the table together.
    w_->step(MainWindow::Step::First);
    w_->step(MainWindow::Step::Forward);
    for (HeatmapView* v : {view()->viewA(), view()->viewB(), view()->viewDifference()}) {
        QCOMPARE(v->visibleRows(), 1);
        QCOMPARE(v->style().current_row, 0);
        QVERIFY(std::isfinite(v->cellValue(0, 0)));
        QVERIFY(std::isnan(v->cellValue(1, 0)));  // not decoded yet at this step
    }
    QCOMPARE(view()->distanceTable()->selectionModel()->selectedRows().value(0).row(), 0);
    // The Right key on a compare map steps, as on the main heatmap.
    view()->viewB()->setFocus();
    QTest::keyClick(view()->viewB(), Qt::Key_Right);
    QCOMPARE(w_->cursorStep(), 2);
    QCOMPARE(view()->viewA()->visibleRows(), 2);
    QCOMPARE(view()->viewDifference()->style().current_row, 1);
    // A click on a line of the table steps there.
    const QModelIndex line = view()->distanceTable()->model()->index(T - 1, 0);
    emit view()->distanceTable()->clicked(line);
    QCOMPARE(w_->cursorStep(), T);
    QCOMPARE(view()->viewB()->visibleRows(), -1);
}

void TestCompareView::differenceAndDistancesAreTheEngines() {
    QVERIFY(chooseInBox(dot_));
    QVERIFY(typeAndWait(QStringLiteral("i ate an apple yesterday")));
    QVERIFY(waitForPair());
    const DecodeResult& a = w_->state()->decode()->result;
    const DecodeResult b = engineB(dot_);
    QCOMPARE(view()->decodeB()->attention, b.attention);

    // The difference map holds B − A of the engine's decodes, cell by cell, on a scale centred on 0.
    HeatmapView* diff = view()->viewDifference();
    QVERIFY(diff->style().diverging);
    double largest = 0;
    for (size_t t = 0; t < a.attention.size(); ++t)
        for (size_t j = 0; j < a.attention[t].size(); ++j) {
            const double want = double(b.attention[t][j] - a.attention[t][j]);
            QCOMPARE(diff->cellValue(int(t), int(j)), want);
            largest = std::max(largest, std::abs(want));
        }
    QVERIFY(largest > 0.05);  // the two models really differ
    QCOMPARE(view()->viewA()->cellValue(0, 1), double(a.attention[0][1]));

    // The table's distances and the means are core's compare of the same decodes.
    const std::vector<RowComparison> rows = compareRows(a, b);
    const QAbstractItemModel* table = view()->distanceTable()->model();
    QCOMPARE(table->rowCount(), int(rows.size()));
    for (int t = 0; t < table->rowCount(); ++t) {
        QCOMPARE(table->index(t, CompareRowsModel::TotalVariation).data(CompareRowsModel::ValueRole).toDouble(),
                 rows[size_t(t)].tv);
        QCOMPARE(table->index(t, CompareRowsModel::JensenShannon).data(CompareRowsModel::ValueRole).toDouble(),
                 rows[size_t(t)].js);
        QCOMPARE(table->index(t, CompareRowsModel::ArgmaxA).data(CompareRowsModel::ValueRole).toInt(),
                 rows[size_t(t)].argmax_a);
        QCOMPARE(table->index(t, CompareRowsModel::Target).data().toString().toStdString(), a.target_tokens[size_t(t)]);
    }
    const AttentionComparison want = comparisonSummary(compareAttention(a, b));
    QCOMPARE(view()->summary().mean_tv, want.mean_tv);
    QCOMPARE(view()->summary().mean_js, want.mean_js);
    QCOMPARE(view()->summary().argmax_agreement, want.argmax_agreement);
    QVERIFY(!view()->summary().aer_a);
    QVERIFY2(view()->summaryText().contains(QString::number(want.mean_tv, 'f', 3)), qPrintable(view()->summaryText()));
}

void TestCompareView::goldLinksGiveEachSidesAer() {
    QVERIFY(chooseInBox(dot_));
    QVERIFY(!view()->goldEdit()->isEnabled());  // gold links are for a typed reference
    w_->setReferenceText(QStringLiteral("我 昨天 吃 了 一个 苹果"));
    QVERIFY(typeAndWait(QStringLiteral("i ate an apple yesterday")));
    QVERIFY(waitForPair());
    QVERIFY(view()->goldEdit()->isEnabled());
    QCOMPARE(wordsOf(QStringList{"我", "昨天", "吃", "了", "一个", "苹果", "<eos>"}), view()->decodeA()->target_tokens);

    QTest::keyClicks(view()->goldEdit(), QStringLiteral("0-0 4-1 2-2 2-3 3-4 3-5"));
    const GoldAlignment gold = makeGoldAlignment({{0, 0}, {4, 1}, {2, 2}, {2, 3}, {3, 4}, {3, 5}});
    const DecodeResult& a = w_->state()->decode()->result;
    const AttentionComparison want = comparisonSummary(compareAttention(a, engineB(dot_), &gold));
    QVERIFY(view()->summary().aer_a && view()->summary().aer_b);
    QCOMPARE(*view()->summary().aer_a, *want.aer_a);
    QCOMPARE(*view()->summary().aer_b, *want.aer_b);
    QVERIFY2(view()->summaryText().contains(QStringLiteral("AER")), qPrintable(view()->summaryText()));

    // A link outside the sentence is named, and gives no AER; text that is not Pharaoh is refused.
    view()->goldEdit()->setText(QStringLiteral("9-0"));
    QVERIFY(!view()->summary().aer_a);
    QVERIFY2(view()->summaryText().contains(QStringLiteral("9-0")), qPrintable(view()->summaryText()));
    QVERIFY(!view()->setGoldLinks(QStringLiteral("0-x")).isEmpty());
    QVERIFY(!view()->summary().aer_a);
}

void TestCompareView::exportsHaveTheSizeAndTheNumbers() {
    QVERIFY(chooseInBox(dot_));
    QVERIFY(typeAndWait(QStringLiteral("the cat sat on the mat")));
    QVERIFY(waitForPair());
    ExportOptions options;
    options.width = 1200;
    options.height = 400;
    options.dpi = 96;
    QString error;
    const QString dir = out_dir_.path();
    for (auto part :
         {CompareView::Part::A, CompareView::Part::B, CompareView::Part::Difference, CompareView::Part::Comparison}) {
        const QString png = dir + QStringLiteral("/part%1.png").arg(int(part));
        QVERIFY2(view()->exportPart(part, png, options, &error), qPrintable(error));
        QCOMPARE(QImage(png).size(), QSize(1200, 400));
        for (const char* ext : {"svg", "pdf"}) {
            const QString path = dir + QStringLiteral("/part%1.%2").arg(int(part)).arg(QLatin1String(ext));
            QVERIFY2(view()->exportPart(part, path, options, &error), qPrintable(error));
            QVERIFY(QFileInfo(path).size() > 1000);
        }
    }
    // The whole comparison: A (viridis) on the left third, the difference (red where B looks more) on the right.
    const QImage whole(dir + QStringLiteral("/part%1.png").arg(int(CompareView::Part::Comparison)));
    QCOMPARE(reddishPixels(whole, 0, 400), 0);
    QVERIFY(reddishPixels(whole, 800, 1200) > 50);

    // B's own JSON is B's decode; the comparison's CSV has the table's distances.
    const QString b_json = dir + QStringLiteral("/b.json"), csv = dir + QStringLiteral("/cmp.csv");
    QVERIFY2(view()->exportPart(CompareView::Part::B, b_json, options, &error), qPrintable(error));
    const nlohmann::json b = nlohmann::json::parse(testing::readFile(b_json).toStdString());
    QCOMPARE(b["attention"].get<std::vector<std::vector<float>>>(), view()->decodeB()->attention);
    QCOMPARE(b["config"]["score"].get<std::string>(), std::string("dot"));
    QVERIFY2(view()->exportPart(CompareView::Part::Comparison, csv, options, &error), qPrintable(error));
    const QStringList lines = QString::fromUtf8(testing::readFile(csv)).split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), int(view()->rows().size()) + 1);
    for (int t = 0; t < int(view()->rows().size()); ++t) {
        const QStringList f = lines[t + 1].split(u',');
        QCOMPARE(f[1].toDouble(), view()->rows()[size_t(t)].tv);
        QCOMPARE(f[2].toDouble(), view()->rows()[size_t(t)].js);
    }
    // The difference's JSON holds B − A.
    const QString d_json = dir + QStringLiteral("/d.json");
    QVERIFY2(view()->exportPart(CompareView::Part::Difference, d_json, options, &error), qPrintable(error));
    const nlohmann::json d = nlohmann::json::parse(testing::readFile(d_json).toStdString());
    QCOMPARE(d["difference"][0][1].get<float>(),
             view()->decodeB()->attention[0][1] - view()->decodeA()->attention[0][1]);
    QCOMPARE(d["tv"].get<double>(), view()->summary().mean_tv);
}

void TestCompareView::aModelWithOtherVocabulariesIsRefused() {
    const QString other =
        testing::saveInto(makeRandomModel(testing::smallConfig(DecoderKind::Bahdanau, ScoreKind::Dot),
                                          testing::smallSourceVocab(), testing::vocabWith({"je", "t'", "aime"}), 5),
                          out_dir_, QStringLiteral("other.safetensors"));
    const QString before = view()->modelBPath();
    QVERIFY(!view()->setModelB(other));
    QVERIFY2(view()->errorText().contains(QStringLiteral("cannot be compared")), qPrintable(view()->errorText()));
    QVERIFY2(view()->errorText().contains(QStringLiteral("target vocabularies differ")),
             qPrintable(view()->errorText()));
    QCOMPARE(view()->modelBPath(), before);  // the previous B stays
    QVERIFY(!view()->setModelB(out_dir_.filePath(QStringLiteral("missing.safetensors"))));
    QVERIFY(view()->errorText().contains(QStringLiteral("missing.safetensors")));
}

void TestCompareView::hiddenViewDecodesNothing() {
    w_->compareAction()->trigger();
    QVERIFY(!view()->isActive());
    QVERIFY(typeAndWait(QStringLiteral("i love you")));
    QVERIFY(!view()->isBusy());
    QVERIFY(!view()->decodeA() || view()->decodeA()->target_ids != w_->state()->decode()->result.target_ids ||
            view()->decodeA()->source_ids != w_->state()->decode()->result.source_ids);
    w_->compareAction()->trigger();  // shown again: the pair for the sentence shown
    QVERIFY(waitForPair());
}

void TestCompareView::openingBAsTheModelNeverComparesItWithItself() {
    QVERIFY(typeAndWait(QStringLiteral("i love you")));
    QVERIFY(chooseInBox(scaled_));
    QVERIFY(waitForPair());
    // the user opens B's own file as the model: B moves to another sibling
    QVERIFY(w_->openModel(scaled_));
    QTRY_VERIFY_WITH_TIMEOUT(w_->state()->decodedModel() == w_->model(), 20000);  // the new model's decode
    QVERIFY(waitForPair());
    QVERIFY(QFileInfo(view()->modelBPath()) != QFileInfo(scaled_));
    QVERIFY(QFileInfo(view()->modelBPath()) == QFileInfo(additive_) ||
            QFileInfo(view()->modelBPath()) == QFileInfo(dot_));
    QCOMPARE(view()->decodeB()->attention, engineB(view()->modelBPath()).attention);
}

// A word knocked out in the window is knocked out of B too, so that both models are compared under the same
// intervention; the summary says so. B's decode is the engine's forced decode with the same knockout.
void TestCompareView::bTakesTheInterventionsOfA() {
    QVERIFY(typeAndWait(QStringLiteral("i love the cat")));
    QVERIFY(waitForPair());
    const QString b_path = QFileInfo(w_->compareView()->modelBPath()).absoluteFilePath();
    QVERIFY(!b_path.isEmpty());
    Interventions iv;
    iv.knockout = {2};
    QSignalSpy decoded(w_.get(), &MainWindow::decodeFinished);
    w_->setInterventions(iv);  // as the command line's --knockout: the decode follows
    w_->decodeNow();
    QVERIFY(decoded.wait(20000) || !decoded.isEmpty());
    QVERIFY(waitForPair());
    QCOMPARE(w_->state()->decode()->interventions.knockout, std::vector<int>{2});
    const Model b = loadModel(b_path.toStdString());
    const DecodeResult& a = w_->state()->decode()->result;
    DecodeOptions options;
    options.interventions = iv;
    const DecodeResult expected = forcedDecode(b, tokenizeSource(b, w_->sourceText().toStdString()),
                                               TokenizedText{a.target_tokens, a.target_ids}, options);
    QCOMPARE(view()->decodeB()->attention, expected.attention);
    for (const auto& row : view()->decodeB()->attention) QCOMPARE(row[2], 0.0f);  // the column B no longer reads
    QVERIFY2(view()->summaryText().contains(QStringLiteral("same interventions")), qPrintable(view()->summaryText()));
}

ATTNVIZ_TEST_MAIN(TestCompareView)
#include "test_compare_view.moc"
