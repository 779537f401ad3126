// The head grid follows the beam search view as a user meets it, on a small random Transformer (2 + 2 layers, 2
// heads): a click on a hypothesis other than the best in the n-best list puts that hypothesis's every layer and head
// in the grid (the numbers of an independent run of nn/transformer fed the hypothesis's tokens) with its target
// tokens, and the line above the grid names it ("Beam hypothesis 2 of 4, log p −…"); "Back to the main decode"
// restores the window's decode, its numbers, title and cursor, without searching again; so does a new search.
#include "decode/attention_views.h"
#include "decode/beam_hypothesis.h"
#include "main_window_fixture.h"
#include "nn/transformer.h"
#include "state/decode_state.h"
#include "test_registry.h"
#include "views/beam_tree.h"
#include "views/beam_tree_canvas.h"
#include "views/head_grid.h"
#include "window/main_window.h"

#include <QDockWidget>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

using namespace attnviz;
using namespace attnviz::ui;

namespace {

Model peakedTransformer() {
    ModelConfig c;
    c.decoder = DecoderKind::Transformer;
    c.score = ScoreKind::ScaledDot;
    c.tokenizer = {TokenizerKind::Word, TokenizerKind::Whitespace, true};
    c.transformer = {8, 2, 2, 2, 16, false, Activation::Relu};
    Model m = makeRandomTransformerModel(c, testing::smallSourceVocab(), testing::smallTargetVocab(), {5, true});
    m.transformer.generator_weight *= 3.0f;  // peaked distributions: hypotheses that differ
    return m;
}

// nn/transformer's forward pass on `source_ids`, the decoder fed <sos> and then `target_ids` but the last.
std::vector<TransformerStep> runEngine(const Model& m, const std::vector<int>& source_ids,
                                       const std::vector<int>& target_ids) {
    const Transformer net(m.config.transformer, m.transformer);
    const TransformerEncoding encoding = net.encode(source_ids);
    std::vector<TransformerStep> steps;
    TransformerDecoderState cache;
    int token = kSos;
    for (int id : target_ids) {
        steps.emplace_back();
        net.step(encoding, cache, token, steps.back());
        token = id;
    }
    return steps;
}

bool closeMatrix(const HeadMatrix& shown, const Mat& engine) {
    if (int(shown.size()) != engine.rows()) return false;
    for (int i = 0; i < engine.rows(); ++i) {
        if (int(shown[size_t(i)].size()) != engine.cols()) return false;
        for (int j = 0; j < engine.cols(); ++j)
            if (std::abs(shown[size_t(i)][size_t(j)] - engine(i, j)) > 1e-6f) return false;
    }
    return true;
}

}  // namespace

class TestHeadGridBeam : public QObject, private testing::MainWindowFixture {
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup() { closeWindow(); }

    void otherHypothesisFillsTheGrid();
    void backToTheMainDecode();

private:
    HeadGridView* grid() const { return w_->headGrid(); }
    BeamTreeView* beam() const { return w_->beamTree(); }
    const DecodeResult& shown() const { return w_->state()->decode()->result; }
    // The rank (from 0) of a finished hypothesis whose tokens are not the window's decode's; -1 if none.
    int otherRank() const;
    void clickNbest(int rank);

    QString transformer_;
    std::shared_ptr<const Model> model_;
};

void TestHeadGridBeam::initTestCase() {
    setUpWindowTests(QStringLiteral("attnviz-test-head-grid-beam"));
    transformer_ = testing::saveInto(peakedTransformer(), models_dir_, QStringLiteral("test-transformer.safetensors"));
    model_ = std::make_shared<const Model>(peakedTransformer());
}

void TestHeadGridBeam::init() {
    openWindow();
    QVERIFY(w_->openModel(transformer_));
    w_->decodes()->waitForDone();
    w_->resize(1400, 900);
    w_->headDock()->show();
    w_->beamDock()->show();
    QVERIFY(typeAndWait(QStringLiteral("the cat ate an apple")));
    beam()->setBeamWidth(4);
    QVERIFY(beam()->result());
    QVERIFY(grid()->hasHeads());
}

int TestHeadGridBeam::otherRank() const {
    const BeamResult& tree = *beam()->result();
    for (size_t k = 1; k < tree.finished.size(); ++k) {
        std::vector<int> ids;
        for (int n : beamPath(tree, tree.finished[k])) ids.push_back(tree.nodes[size_t(n)].token);
        if (ids != shown().target_ids) return int(k);
    }
    return -1;
}

void TestHeadGridBeam::clickNbest(int rank) {
    QListWidget* list = beam()->nbestList();
    const QRect rect = list->visualItemRect(list->item(rank));
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, rect.center());
}

void TestHeadGridBeam::otherHypothesisFillsTheGrid() {
    QVERIFY(grid()->decodeTitle().startsWith(QStringLiteral("The window's decode")));
    QVERIFY(!grid()->mainDecodeButton()->isVisible());
    const int rank = otherRank();
    QVERIFY2(rank > 0, "a hypothesis other than the window's decode");
    const BeamResult& tree = *beam()->result();
    const int leaf = tree.finished[size_t(rank)];
    std::vector<int> ids;
    std::vector<std::string> tokens;
    for (int n : beamPath(tree, leaf)) {
        ids.push_back(tree.nodes[size_t(n)].token);
        tokens.emplace_back(model_->target_vocab.token(ids.back()));
    }
    const std::vector<int> source_ids = shown().source_ids;

    clickNbest(rank);
    QVERIFY(w_->state()->hypothesis());
    QCOMPARE(w_->state()->hypothesis()->node, leaf);
    QCOMPARE(shown().target_ids, ids);
    QCOMPARE(attentionViewAxes(shown(), AttentionKind::Cross).rows, tokens);
    // "Beam hypothesis 2 of 4, log p −3.14": rank from 1, the search's total with a minus sign.
    const QString log_p = QString::number(-tree.nodes[size_t(leaf)].total_log_prob, 'f', 2);
    QCOMPARE(
        grid()->decodeTitle(),
        QStringLiteral("Beam hypothesis %1 of %2, log p \u2212%3").arg(rank + 1).arg(tree.finished.size()).arg(log_p));
    QVERIFY(grid()->mainDecodeButton()->isVisible());

    const std::vector<TransformerStep> run = runEngine(*model_, source_ids, ids);
    grid()->setKind(AttentionKind::Cross);
    const HeadGridFigure& f = grid()->canvas()->figure();
    QCOMPARE(f.layers(), 2);
    QCOMPARE(int(f.cells[0][0].size()), int(ids.size()));
    for (int l = 0; l < 2; ++l)
        for (int h = 0; h < 2; ++h)
            QVERIFY2(closeMatrix(f.cells[size_t(l)][size_t(h)], crossAttentionMatrix(run, l, h)),
                     qPrintable(QString("cross layer %1 head %2").arg(l).arg(h)));
    grid()->setKind(AttentionKind::DecoderSelf);
    QVERIFY(closeMatrix(grid()->canvas()->figure().cells[1][0], decoderSelfAttentionMatrix(run, 1, 0)));
}

void TestHeadGridBeam::backToTheMainDecode() {
    grid()->setKind(AttentionKind::Cross);
    const HeadGridFigure main_figure = grid()->canvas()->figure();
    const std::vector<int> main_ids = shown().target_ids;
    w_->state()->setCursor(2);
    const int rank = otherRank();
    QVERIFY(rank > 0);
    clickNbest(rank);
    QVERIFY(shown().target_ids != main_ids);
    QVERIFY(grid()->canvas()->figure().cells != main_figure.cells);

    QSignalSpy searched(beam(), &BeamTreeView::searched);
    QTest::mouseClick(grid()->mainDecodeButton(), Qt::LeftButton);
    QVERIFY(!w_->state()->hypothesis());
    QCOMPARE(shown().target_ids, main_ids);
    QCOMPARE(w_->state()->cursor(), 2);
    QVERIFY(grid()->canvas()->figure().cells == main_figure.cells);
    QVERIFY(grid()->decodeTitle().startsWith(QStringLiteral("The window's decode")));
    QVERIFY(!grid()->mainDecodeButton()->isVisible());
    // The tree stays (no new search) with nothing selected; a hypothesis can be chosen again.
    QCOMPARE(searched.count(), 0);
    QCOMPARE(beam()->canvas()->selectedNode(), -1);
    clickNbest(rank);
    QVERIFY(w_->state()->hypothesis());
    QCOMPARE(w_->state()->hypothesis()->rank, rank);
    // A new search (another width) has other hypotheses: the window's decode comes back.
    beam()->setBeamWidth(5);
    QVERIFY(!w_->state()->hypothesis());
    QCOMPARE(shown().target_ids, main_ids);
    QVERIFY(grid()->decodeTitle().startsWith(QStringLiteral("The window's decode")));
    // Closing the beam search dock goes back to the window's decode as well: no hypothesis is left on screen
    // without the view that chose it.
    clickNbest(otherRank());
    QVERIFY(w_->state()->hypothesis());
    w_->beamDock()->close();
    QVERIFY(!w_->state()->hypothesis());
    QCOMPARE(shown().target_ids, main_ids);
}

ATTNVIZ_TEST_MAIN(TestHeadGridBeam)
#include "test_head_grid_beam.moc"
