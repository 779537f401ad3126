// The cell inspector and the diagnostics in the main window, driven as a user would: a click on a heatmap cell inspects
// it (the inspector's numbers are the engine's and the decode's) without moving the decoder; the coverage row is the
// column sums of the rows shown, in the window and in exports; the status bar shows the sentence's confidence.
#include "decode/decoding.h"
#include "eval/attention_diagnostics.h"
#include "eval/cell_explanation.h"
#include "heatmap/heatmap_export.h"
#include "heatmap/heatmap_renderer.h"
#include "heatmap/heatmap_scene.h"
#include "heatmap/heatmap_view.h"
#include "main_window_fixture.h"
#include "state/decode_state.h"
#include "test_models.h"
#include "test_registry.h"
#include "views/cell_inspector.h"
#include "views/gold_links_panel.h"
#include "window/main_window.h"

#include <QAction>
#include <QDockWidget>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace attnviz;
using namespace attnviz::ui;
using attnviz::testing::saveInto;
using attnviz::testing::smallConfig;
using attnviz::testing::smallModel;

class TestCellInspector : public QObject, private testing::MainWindowFixture {
    Q_OBJECT

private slots:
    void initTestCase() { setUpWindowTests(QStringLiteral("test_cell_inspector")); }
    void init() { openWindow(); }
    void cleanup() { closeWindow(); }

    void clickInspectsTheCellWithoutStepping();
    void localSpanShowsItsWindow();
    void coverageRowIsTheColumnSums();
    void exportsDrawTheDiagnostics();
    void statusBarShowsTheConfidence();
    void goldLinkShownIsTheLinkThatMarksTheCell();
    void onlyCellsTheHeatmapShowsAreDescribed();

private:
    void click(int row, int col) {
        HeatmapView* view = w_->heatmapView();
        QTest::mouseClick(view->plot(), Qt::LeftButton, {}, view->cellCenter(row, col));
    }
    static bool close(double a, double b, double tol) { return std::abs(a - b) <= tol * (1.0 + std::abs(b)); }
};

void TestCellInspector::clickInspectsTheCellWithoutStepping() {
    QVERIFY(typeAndWait(QStringLiteral("i love the cat")));
    QVERIFY(QTest::qWaitForWindowExposed(w_.get()));
    const PrefixDecoding* d = w_->state()->decode();
    QVERIFY(d && d->steps.size() >= 2);
    const int T = w_->stepCount();
    QCOMPARE(w_->cursorStep(), T);

    click(1, 2);
    QCOMPARE(w_->cursorStep(), T);  // the decoder did not move: every row stays shown
    QCOMPARE(w_->heatmapView()->visibleRows(), -1);
    QCOMPARE(w_->state()->selectedRow(), 1);
    QCOMPARE(w_->state()->selectedColumn(), 2);
    const auto& shown = w_->cellInspector()->explanation();
    QVERIFY(shown.has_value());
    QCOMPARE(shown->step, 1);
    QCOMPARE(shown->source, 2);
    // The engine's numbers, and the decode's own score and weight.
    const CellExplanation engine = explainCell(*w_->model(), d->source.ids, d->steps[1], 1, 2);
    QCOMPARE(shown->score, engine.score);
    QCOMPARE(shown->weight, engine.weight);
    QCOMPARE(shown->rank, engine.rank);
    QCOMPARE(shown->share, engine.share);
    QVERIFY(close(shown->score, d->steps[1].scores[2], 1e-5));
    QVERIFY(close(shown->weight, d->steps[1].attention[2], 1e-6));
    const QString text = w_->cellInspector()->text();
    QVERIFY2(text.contains(QString::number(double(engine.weight), 'g', 5)), qPrintable(text));
    QVERIFY2(text.contains(QString::number(double(engine.score), 'g', 5)), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("v · tanh(W s + U h")), qPrintable(text));  // the additive formula

    // While stepping: a click in a shown row inspects it and leaves the cursor where it is.
    w_->setCursorStep(2);
    click(0, 1);
    QCOMPARE(w_->cursorStep(), 2);
    QCOMPARE(w_->cellInspector()->explanation()->step, 0);
    QCOMPARE(w_->cellInspector()->explanation()->source, 1);
    // Stepping is still the keys' job.
    QTest::keyClick(w_->heatmapView(), Qt::Key_Right);
    QCOMPARE(w_->cursorStep(), std::min(3, T));
}

void TestCellInspector::localSpanShowsItsWindow() {
    ModelConfig cfg = smallConfig(DecoderKind::Luong, ScoreKind::General, SpanKind::LocalP);
    cfg.window = 1;
    const QString path = saveInto(smallModel(cfg, 31, 3.0f), models_dir_, QStringLiteral("local-p.safetensors"));
    QVERIFY(w_->openModel(path));
    QVERIFY(typeAndWait(QStringLiteral("the cat sat on the mat .")));
    QVERIFY(QTest::qWaitForWindowExposed(w_.get()));
    const PrefixDecoding* d = w_->state()->decode();
    const StepRecord& first = d->steps[0];
    int j = 0;  // a position inside the first row's window
    while (std::isnan(first.scores[size_t(j)])) ++j;
    click(0, j);
    const auto& x = w_->cellInspector()->explanation();
    QVERIFY(x.has_value());
    QVERIFY(x->in_window);
    QVERIFY(close(x->center, first.center, 1e-6));
    QCOMPARE(x->half_width, 1);
    QVERIFY(x->lo <= j && j <= x->hi);
    const double dist = j - double(first.center);  // σ = D / 2 = 0.5
    QVERIFY(close(x->gaussian, std::exp(-dist * dist / (2 * 0.25)), 1e-5));
    QVERIFY(close(x->weight, first.attention[size_t(j)], 1e-6));
    const QString text = w_->cellInspector()->text();
    QVERIFY2(text.contains(QStringLiteral("[%1, %2]").arg(x->lo).arg(x->hi)), qPrintable(text));
    QVERIFY2(text.contains(QString::number(double(x->gaussian), 'g', 5)), qPrintable(text));
}

void TestCellInspector::coverageRowIsTheColumnSums() {
    QVERIFY(typeAndWait(QStringLiteral("you ate an apple yesterday")));
    QVERIFY(w_->heatmapView()->diagnostics().coverage.coverage.empty());  // off by default
    w_->diagnosticsAction()->setChecked(true);
    QVERIFY(w_->heatmapView()->style().diagnostics);
    const DecodeResult& r = w_->state()->decode()->result;
    auto check = [&](int rows) {
        const HeatmapDiagnostics& shown = w_->heatmapView()->diagnostics();
        QCOMPARE(shown.coverage.coverage.size(), r.source_tokens.size());
        for (size_t j = 0; j < r.source_tokens.size(); ++j) {
            double sum = 0;
            for (int t = 0; t < rows; ++t) sum += double(r.attention[size_t(t)][j]);
            QVERIFY2(close(shown.coverage.coverage[j], sum, 1e-9), qPrintable(QString("column %1").arg(j)));
            const CoverageMark expected = sum > 1.5 ? CoverageMark::OverAttended
                                          : sum < 0.5 && j > 0 && j + 1 < r.source_tokens.size()
                                              ? CoverageMark::Neglected
                                              : CoverageMark::None;
            QCOMPARE(shown.coverage.marks[j], expected);
        }
        QCOMPARE(shown.rows.size(), r.attention.size());
        for (size_t t = 0; t < r.attention.size(); ++t)
            QVERIFY(close(shown.rows[t].entropy, w_->state()->decode()->steps[t].entropy, 1e-6));
    };
    check(int(r.attention.size()));
    w_->setCursorStep(1);  // stepping: the coverage of the rows shown so far
    check(1);
    w_->diagnosticsAction()->setChecked(false);
    QVERIFY(!w_->heatmapView()->style().diagnostics);
}

void TestCellInspector::exportsDrawTheDiagnostics() {
    QVERIFY(typeAndWait(QStringLiteral("i love you")));
    w_->diagnosticsAction()->setChecked(true);
    const ExportOptions with = w_->exportOptions();
    QVERIFY(with.style.diagnostics);  // the window's option goes into its exports
    HeatmapRenderer renderer(w_->heatmapView()->data(), with.style);
    const QImage drawn = renderer.toImage(QSize(800, 600), 96);
    const SourceCoverage expected = sourceCoverage(w_->state()->decode()->result.attention);
    QCOMPARE(renderer.scene().diagnostics().coverage.coverage, expected.coverage);
    // The coverage row takes room under the matrix: the matrix of the same figure without it is taller.
    const QRect matrix = renderer.scene().axisRect()->rect();
    ExportOptions without = with;
    without.style.diagnostics = false;
    HeatmapRenderer plain(w_->heatmapView()->data(), without.style);
    plain.toImage(QSize(800, 600), 96);
    QVERIFY(plain.scene().axisRect()->rect().height() > matrix.height());
    // ... and it is drawn there: bars (grey, blue or red) on the white paper under the matrix.
    int inked = 0;
    for (int y = matrix.bottom() + 4; y < matrix.bottom() + 24; ++y)
        for (int x = matrix.left(); x <= matrix.right(); ++x) inked += drawn.pixelColor(x, y) != QColor(Qt::white);
    QVERIFY2(inked > 20, qPrintable(QString::number(inked)));
}

void TestCellInspector::statusBarShowsTheConfidence() {
    QVERIFY(typeAndWait(QStringLiteral("the cat sat on the mat")));
    const SentenceConfidence c = sentenceConfidence(w_->state()->decode()->result.attention);
    QVERIFY2(w_->confidenceText().contains(QString::number(c.confidence, 'f', 2)), qPrintable(w_->confidenceText()));
    QVERIFY(c.confidence <= 0);
    w_->sourceEditor()->clear();  // no sentence, no confidence
    QTRY_VERIFY(w_->confidenceText().isEmpty());
}

// One numbering: the inspector names a cell's gold link, and typing that link into the gold links field marks that
// very cell; a cell of <sos> or <eos> has none.
void TestCellInspector::goldLinkShownIsTheLinkThatMarksTheCell() {
    QVERIFY(typeAndWait(QStringLiteral("i love the cat")));
    QVERIFY(QTest::qWaitForWindowExposed(w_.get()));
    // The model's own output as the reference, so that the rows stay the same and gold links apply.
    std::vector<std::string> words = w_->state()->decode()->result.target_tokens;
    QVERIFY(words.size() >= 3 && words.back() == "<eos>");
    words.pop_back();
    QString reference;
    for (const std::string& t : words) reference += QString::fromStdString(t) + QLatin1Char(' ');
    QSignalSpy decoded(w_.get(), &MainWindow::decodeFinished);
    w_->setReferenceText(reference.trimmed());
    QVERIFY(decoded.wait(20000) || !decoded.isEmpty());
    w_->decodes()->waitForDone();

    click(1, 2);  // target word 1 ← source position 2, the word "love"
    const QString text = w_->cellInspector()->text();
    QVERIFY2(text.contains(QStringLiteral("gold link 1-1")), qPrintable(text));
    w_->goldLinks()->setLinks(QStringLiteral("1-1"));
    const std::vector<AlignmentMark>& marks = w_->heatmapView()->style().alignment_marks;
    QVERIFY(std::any_of(marks.begin(), marks.end(), [](const AlignmentMark& m) { return m.row == 1 && m.col == 2; }));

    click(1, 0);  // <sos>
    QVERIFY2(w_->cellInspector()->text().contains(QStringLiteral("no gold link")),
             qPrintable(w_->cellInspector()->text()));
}

// The inspector never describes a cell that is not drawn: a row not decoded yet at the current step, or a cell of a
// Transformer's head or self-attention view (whose weights are not the rows it takes apart).
void TestCellInspector::onlyCellsTheHeatmapShowsAreDescribed() {
    QVERIFY(typeAndWait(QStringLiteral("i love the cat")));
    QVERIFY(QTest::qWaitForWindowExposed(w_.get()));
    click(2, 1);
    QVERIFY(w_->cellInspector()->explanation().has_value());
    w_->setCursorStep(1);  // row 2 is no longer drawn
    QVERIFY(!w_->cellInspector()->explanation().has_value());
    QVERIFY2(w_->cellInspector()->text().contains(QStringLiteral("not decoded yet")),
             qPrintable(w_->cellInspector()->text()));
    w_->setCursorStep(3);
    QVERIFY(w_->cellInspector()->explanation().has_value());  // drawn again: described again

    const QString transformer =
        saveInto(testing::smallTransformer(41), models_dir_, QStringLiteral("transformer.safetensors"));
    QVERIFY(w_->openModel(transformer));
    QVERIFY(typeAndWait(QStringLiteral("i love the cat")));
    w_->state()->setSelection(1, 1);
    QVERIFY(w_->cellInspector()->explanation().has_value());
    w_->state()->setAttentionView(AttentionView{AttentionKind::EncoderSelf, 0, 0});
    QVERIFY(!w_->cellInspector()->explanation().has_value());
    QVERIFY2(w_->cellInspector()->text().contains(QStringLiteral("cross-attention rows only")),
             qPrintable(w_->cellInspector()->text()));
}

ATTNVIZ_TEST_MAIN(TestCellInspector)
#include "test_cell_inspector.moc"
