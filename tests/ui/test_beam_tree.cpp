// The beam search dock driven as a user would: the width box makes the engine's search (the same nodes, drawn),
// width 1 is the window's greedy decode, a click on a node or an n-best entry shows that hypothesis' rows in the
// heatmap, forcing a token at a node searches again from there, a new sentence searches again, a hidden dock does
// not search until shown.
#include "decode/decoding.h"
#include "heatmap/heatmap_view.h"
#include "main_window_fixture.h"
#include "state/decode_state.h"
#include "test_models.h"
#include "test_registry.h"
#include "text/tokenizer.h"
#include "views/beam_tree.h"
#include "views/beam_tree_canvas.h"
#include "window/main_window.h"
#include "window/step_panel.h"

#include <QCheckBox>
#include <QDockWidget>
#include <QListWidget>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>
#include <cmath>

#include <string>
#include <vector>

using namespace attnviz;
using namespace attnviz::ui;

namespace {

std::vector<int> pathTo(const BeamResult& b, int node) {
    std::vector<int> path;
    for (int n = node; n > 0; n = b.nodes[size_t(n)].parent) path.push_back(n);
    return {path.rbegin(), path.rend()};
}

// The rows of a hypothesis as the heatmap would show them.
std::vector<std::vector<double>> rowsOf(const BeamResult& b, int node) {
    std::vector<std::vector<double>> rows;
    for (int n : pathTo(b, node)) rows.emplace_back(b.attention(n).begin(), b.attention(n).end());
    return rows;
}

}  // namespace

class TestBeamTree : public QObject, private testing::MainWindowFixture {
    Q_OBJECT

private slots:
    void initTestCase() { setUpWindowTests(QStringLiteral("attnviz-test-beam-tree")); }
    void init();
    void cleanup() { closeWindow(); }

    void widthFourDrawsTheEnginesTree();
    void widthOneIsTheGreedyDecode();
    void clickingANodeShowsItsRows();
    void forcingATokenSearchesAgain();
    void newSentenceSearchesAgain();
    void hiddenDockWaitsUntilShown();
    void nbestListWritesOutputsAsTheModelSpellsThem();
    void lengthPenaltyRanksAsTheEngine();

private:
    BeamTreeView* view() const { return w_->beamTree(); }
    BeamResult engineSearch(int width) const {
        return beamSearch(*view()->model(), w_->state()->decode()->source, width);
    }

    const QString sentence_ = QStringLiteral("the cat ate an apple");
};

void TestBeamTree::init() {
    openWindow();
    w_->beamDock()->show();
    QVERIFY(typeAndWait(sentence_));
}

void TestBeamTree::widthFourDrawsTheEnginesTree() {
    QSignalSpy searched(view(), &BeamTreeView::searched);
    view()->widthBox()->setValue(4);
    QCOMPARE(searched.count(), 1);
    const BeamResult expected = engineSearch(4);
    const BeamResult* shown = view()->result();
    QVERIFY(shown);
    QCOMPARE(shown->nodes.size(), expected.nodes.size());
    int pruned = 0;
    for (size_t i = 0; i < expected.nodes.size(); ++i) {
        QCOMPARE(shown->nodes[i].token, expected.nodes[i].token);
        QCOMPARE(shown->nodes[i].total_log_prob, expected.nodes[i].total_log_prob);
        QCOMPARE(shown->nodes[i].in_beam, expected.nodes[i].in_beam);
        QVERIFY(!view()->canvas()->nodeRect(int(i)).isNull());  // every node is drawn
        QCOMPARE(view()->canvas()->nodeAt(view()->canvas()->nodeRect(int(i)).center()), int(i));
        pruned += !expected.nodes[i].in_beam;
    }
    QVERIFY(pruned > 0);
    QCOMPARE(shown->best.target_ids, expected.best.target_ids);
    // The n-best list: every finished hypothesis, best first.
    QCOMPARE(view()->nbestList()->count(), int(expected.finished.size()));
    QCOMPARE(view()->nbestList()->item(0)->data(Qt::UserRole).toInt(), expected.finished.front());
    // Without the pruned nodes only the kept ones are drawn.
    view()->prunedBox()->setChecked(false);
    for (size_t i = 0; i < expected.nodes.size(); ++i)
        QCOMPARE(view()->canvas()->nodeRect(int(i)).isNull(), !expected.nodes[i].in_beam);
}

// The length penalty box searches again with that penalty: the tree, n-best order and best hypothesis are the
// engine's with the same DecodeOptions::length_penalty.
void TestBeamTree::lengthPenaltyRanksAsTheEngine() {
    view()->widthBox()->setValue(4);
    QSignalSpy searched(view(), &BeamTreeView::searched);
    view()->lengthPenaltyBox()->setValue(2.0);
    QCOMPARE(searched.count(), 1);
    DecodeOptions o;
    o.length_penalty = 2.0;
    const BeamResult expected = beamSearch(*view()->model(), w_->state()->decode()->source, 4, o);
    const BeamResult* shown = view()->result();
    QVERIFY(shown);
    QCOMPARE(shown->finished, expected.finished);
    QCOMPARE(shown->best.target_ids, expected.best.target_ids);
    QCOMPARE(view()->nbestList()->item(0)->data(Qt::UserRole).toInt(), expected.finished.front());
    QVERIFY2(expected.finished != engineSearch(4).finished, "the penalty changed nothing here: the test sees nothing");
    // Each line shows what it ranks by, the total / L^α, before its total log-probability.
    QCOMPARE(view()->nbestList()->count(), int(expected.finished.size()));
    for (int i = 0; i < view()->nbestList()->count(); ++i) {
        const BeamNode& end = expected.nodes[size_t(expected.finished[size_t(i)])];
        const QString numbers = QStringLiteral("%1. %2 (Σ %3)")
                                    .arg(i + 1)
                                    .arg(end.total_log_prob / std::pow(end.step + 1.0, 2.0), 0, 'f', 3)
                                    .arg(end.total_log_prob, 0, 'f', 3);
        QVERIFY2(view()->nbestList()->item(i)->text().startsWith(numbers),
                 qPrintable(view()->nbestList()->item(i)->text() + " / " + numbers));
    }
}

void TestBeamTree::widthOneIsTheGreedyDecode() {
    std::vector<int> greedy;
    for (const StepRecord& s : w_->state()->decode()->steps) greedy.push_back(s.token);
    view()->setBeamWidth(1);
    QVERIFY(view()->result());
    QCOMPARE(view()->result()->best.target_ids, greedy);
    QCOMPARE(view()->result()->finished.size(), size_t(1));
}

void TestBeamTree::clickingANodeShowsItsRows() {
    view()->setBeamWidth(4);
    const BeamResult& tree = *view()->result();
    int node = -1;  // a pruned hypothesis two tokens long: not what the window decoded
    for (size_t i = 1; i < tree.nodes.size() && node < 0; ++i)
        if (!tree.nodes[i].in_beam && tree.nodes[i].step == 2) node = int(i);
    QVERIFY(node > 0);
    const QRect rect = view()->canvas()->nodeRect(node);
    QTest::mouseClick(view()->canvas(), Qt::LeftButton, {}, rect.center());
    QCOMPARE(view()->canvas()->selectedNode(), node);
    QCOMPARE(shownWeights(*w_->heatmapView()), rowsOf(tree, node));
    const PrefixDecoding* shown = w_->state()->decode();
    QCOMPARE(int(shown->steps.size()), 2);
    QCOMPARE(shown->steps[1].token, tree.nodes[size_t(node)].token);
    // The step panel lists the node and its siblings as the candidates of its step.
    QCOMPARE(int(shown->steps[1].top_k.size()),
             int(tree.nodes[size_t(tree.nodes[size_t(node)].parent)].children.size()));
    QCOMPARE(view()->result(), &tree);  // showing a hypothesis does not search again

    // An n-best entry shows its hypothesis likewise.
    QListWidgetItem* last = view()->nbestList()->item(view()->nbestList()->count() - 1);
    const int leaf = last->data(Qt::UserRole).toInt();
    view()->nbestList()->scrollToItem(last);
    QTest::mouseClick(view()->nbestList()->viewport(), Qt::LeftButton, {},
                      view()->nbestList()->visualItemRect(last).center());
    QCOMPARE(shownWeights(*w_->heatmapView()), rowsOf(tree, leaf));
    QCOMPARE(view()->canvas()->selectedNode(), leaf);
}

void TestBeamTree::forcingATokenSearchesAgain() {
    view()->setBeamWidth(3);
    const BeamResult before = *view()->result();
    const int node = before.nodes[0].children.front();  // the first token the search proposed
    const int forced = before.nodes[size_t(node)].token == 5 ? 6 : 5;
    QVERIFY(view()->forceAt(node, forced));
    const std::vector<int> prefix{before.nodes[size_t(node)].token, forced};
    QCOMPARE(view()->prefix(), prefix);
    const BeamResult expected = beamSearch(*view()->model(), w_->state()->decode()->source, prefix, 3);
    const BeamResult& after = *view()->result();
    QCOMPARE(after.nodes.size(), expected.nodes.size());
    QCOMPARE(after.best.target_ids, expected.best.target_ids);
    QCOMPARE(std::vector<int>(after.best.target_ids.begin(), after.best.target_ids.begin() + 2), prefix);
    QVERIFY(after.nodes[1].forced && after.nodes[2].forced);
    // The heatmap shows the new best hypothesis.
    QCOMPARE(shownWeights(*w_->heatmapView()), rowsOf(after, after.finished.front()));
    // Forcing <eos> first ends the hypothesis there; nothing can follow it: refused with a message, the search stays.
    QVERIFY(view()->forceAt(0, kEos));
    QCOMPARE(view()->result()->nodes.size(), size_t(2));
    QCOMPARE(view()->result()->best.target_ids, std::vector<int>{kEos});
    QVERIFY(!view()->forceAt(1, 5));
    QVERIFY(view()->messageText().contains("<eos>"));
    QCOMPARE(view()->prefix(), std::vector<int>{kEos});
}

void TestBeamTree::newSentenceSearchesAgain() {
    view()->setBeamWidth(2);
    QVERIFY(typeAndWait(QStringLiteral("i love you")));
    QCOMPARE(view()->result()->best.source_ids, w_->state()->decode()->source.ids);
    QCOMPARE(view()->result()->best.target_ids, engineSearch(2).best.target_ids);
}

void TestBeamTree::hiddenDockWaitsUntilShown() {
    w_->beamDock()->hide();
    QVERIFY(typeAndWait(QStringLiteral("i love you")));
    QVERIFY(!view()->result());  // the old sentence's tree went with it; the new one is not searched yet
    QSignalSpy searched(view(), &BeamTreeView::searched);
    w_->beamDock()->show();
    QCOMPARE(searched.count(), 1);
    QVERIFY(view()->result());
    QCOMPARE(view()->result()->best.source_ids, w_->state()->decode()->source.ids);
}

// The n-best list of a model whose outputs are characters (Chinese): each entry is its rank, its score in full and
// the output joined as the model writes it, characters not spaced apart and no <eos>.
void TestBeamTree::nbestListWritesOutputsAsTheModelSpellsThem() {
    Model chars = testing::smallModel(testing::smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 11, 3.0f);
    chars.config.tokenizer.target = TokenizerKind::Char;
    const QString path = testing::saveInto(chars, models_dir_, QStringLiteral("test-chars.safetensors"));
    QVERIFY(w_->openModel(path));
    w_->decodes()->waitForDone();
    QVERIFY(typeAndWait(sentence_));
    view()->widthBox()->setValue(3);
    const BeamResult expected = engineSearch(3);
    QCOMPARE(view()->nbestList()->count(), int(expected.finished.size()));
    bool some_cjk_pair = false;
    for (int k = 0; k < int(expected.finished.size()); ++k) {
        const int leaf = expected.finished[size_t(k)];
        std::vector<std::string> tokens;
        for (int n : pathTo(expected, leaf))
            tokens.push_back(chars.target_vocab.token(expected.nodes[size_t(n)].token));
        const bool ended = tokens.back() == "<eos>";
        std::string joined;
        for (size_t i = 0; i + (ended ? 1 : 0) < tokens.size(); ++i) joined += tokens[i];
        some_cjk_pair = some_cjk_pair || tokens.size() > 2;
        const QString want = QStringLiteral("%1. %2  %3%4")
                                 .arg(k + 1)
                                 .arg(expected.nodes[size_t(leaf)].total_log_prob, 0, 'f', 3)
                                 .arg(QString::fromStdString(joined), ended ? QString() : QStringLiteral(" …"));
        QCOMPARE(view()->nbestList()->item(k)->text(), want);
    }
    QVERIFY(some_cjk_pair);  // at least one entry with characters side by side
}

ATTNVIZ_TEST_MAIN(TestBeamTree)
#include "test_beam_tree.moc"
