// What each model kind offers (model/model_kind.h) is what the engine then does: for the RNN kinds (Bahdanau and
// Luong) one scored attention row per step (attend is taken, the cell breakdown has a decoder state), no heads (head
// off refused) and no self-attention (no rollout); for the Transformer the converse. A kind answering one thing while
// the engine does another fails here.
#include "error_of.h"
#include "explain/explanation.h"
#include "model/model_kind.h"
#include "test_models.h"
#include "test_registry.h"

#include <QtTest>
#include <algorithm>

using namespace attnviz;
using namespace attnviz::testing;

class TestModelKind : public QObject {
    Q_OBJECT
private slots:
    void eachKindOffersWhatTheEngineDoes_data();
    void eachKindOffersWhatTheEngineDoes();
};

void TestModelKind::eachKindOffersWhatTheEngineDoes_data() { addKindRows(); }

void TestModelKind::eachKindOffersWhatTheEngineDoes() {
    QFETCH(int, kind);
    const bool transformer = DecoderKind(kind) == DecoderKind::Transformer;
    const Model model =
        transformer ? smallTransformer(3) : smallModel(smallConfig(DecoderKind(kind), ScoreKind::Additive), 3);
    const KindOffers offers = kindOffers(model.config);
    QCOMPARE(offers.attention_heads, transformer);
    QCOMPARE(offers.self_attention, transformer);
    QCOMPARE(offers.one_scored_row, !transformer);

    const int S = 5, rows = 4;
    Interventions attend;
    attend.attend = {{1, 2}};
    QCOMPARE(errorOf([&] { checkInterventions(model, attend, S, rows); }).isEmpty(), offers.one_scored_row);
    Interventions head_off;
    head_off.heads_off = {{AttentionKind::Cross, 0, 0}};
    QCOMPARE(errorOf([&] { checkInterventions(model, head_off, S, rows); }).isEmpty(), offers.attention_heads);

    const std::vector<ExplainMethod> methods = methodsFor(model.config);
    const bool rollout = std::find(methods.begin(), methods.end(), ExplainMethod::Rollout) != methods.end();
    QCOMPARE(rollout, offers.self_attention);
    QCOMPARE(errorOf([&] { parseMethodList("rollout", model.config); }).isEmpty(), offers.self_attention);
}

ATTNVIZ_TEST_MAIN(TestModelKind)
#include "test_model_kind.moc"
