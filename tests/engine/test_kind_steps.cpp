// decode/kind_steps: the one place a decode asks the model's kind how to step. For every kind (Bahdanau, Luong, the
// Transformer) a prefix cut back and stepped again gives the step it gave before, a branch (a beam hypothesis)
// continues as its original would and cannot be cut back before it began, and forced decoding gives the numbers of
// feeding the reference step by step.
#include "decode/kind_steps.h"
#include "test_models.h"
#include "test_registry.h"
#include "tolerance.h"

#include <QtTest>

#include <stdexcept>

using namespace attnviz;
using namespace attnviz::testing;
using detail::DecodePrefix;
using detail::KindSteps;

namespace {

Model modelOfKind(int kind) {
    if (DecoderKind(kind) == DecoderKind::Transformer) return smallTransformer(7);
    return smallModel(smallConfig(DecoderKind(kind), ScoreKind::General), 7, 3.0f);
}

const std::vector<int> kSource = {kSos, 4, 5, 6, 7, kEos};
const std::vector<int> kTarget = {4, 6, 5, 7, kEos};  // fed after <sos>: token i is step i + 2's input

int inputOf(int step) { return step == 0 ? kSos : kTarget[size_t(step) - 1]; }

// Steps `prefix` on from its length to `steps`, feeding kTarget; the rows and distributions of those steps.
struct Stepped {
    std::vector<StepRecord> rows;
    std::vector<Vec> log_probs;
};
Stepped stepTo(KindSteps& kind, DecodePrefix& prefix, int steps) {
    Stepped out;
    while (prefix.steps < steps) {
        StepRecord rec;
        kind.step(prefix, inputOf(prefix.steps), 2, rec);
        out.rows.push_back(std::move(rec));
        out.log_probs.push_back(kind.logProbs());
    }
    return out;
}

void compareSteps(const Stepped& a, size_t i, const Stepped& b, size_t j) {
    QCOMPARE(a.rows[i].attention, b.rows[j].attention);
    QCOMPARE(a.rows[i].query_state, b.rows[j].query_state);
    QCOMPARE(a.rows[i].cross_attention.size(), b.rows[j].cross_attention.size());
    QCOMPARE(a.rows[i].top_k.size(), size_t(2));
    QCOMPARE(a.rows[i].top_k[0].id, b.rows[j].top_k[0].id);
    QVERIFY(a.log_probs[i] == b.log_probs[j]);
}

}  // namespace

class TestKindSteps : public QObject {
    Q_OBJECT
private slots:
    void goingBackGivesTheSameSteps_data() { addKindRows(); }
    void goingBackGivesTheSameSteps();
    void aBranchContinuesAsItsOriginal_data() { addKindRows(); }
    void aBranchContinuesAsItsOriginal();
    void forcedEqualsSteppingTheReference_data() { addKindRows(); }
    void forcedEqualsSteppingTheReference();
};

void TestKindSteps::goingBackGivesTheSameSteps() {
    QFETCH(int, kind);
    const Model model = modelOfKind(kind);
    KindSteps steps(model, kSource, detail::defaultPath(model, {}));
    DecodePrefix prefix = steps.start();
    const Stepped first = stepTo(steps, prefix, 4);
    QCOMPARE(prefix.steps, 4);
    // The RNN kinds report the state the attention read, the Transformer has layers instead.
    QCOMPARE(first.rows[0].query_state.empty(), DecoderKind(kind) == DecoderKind::Transformer);
    QCOMPARE(first.rows[0].cross_attention.empty(), DecoderKind(kind) != DecoderKind::Transformer);

    KindSteps::truncate(prefix, 1);
    QCOMPARE(prefix.steps, 1);
    const Stepped again = stepTo(steps, prefix, 4);
    for (size_t i = 0; i < 3; ++i) compareSteps(again, i, first, i + 1);
    QVERIFY(first.log_probs[1] != first.log_probs[2]);  // the steps differ, so the comparison could fail
}

void TestKindSteps::aBranchContinuesAsItsOriginal() {
    QFETCH(int, kind);
    const Model model = modelOfKind(kind);
    KindSteps steps(model, kSource, detail::defaultPath(model, {}));
    DecodePrefix original = steps.start();
    stepTo(steps, original, 2);
    DecodePrefix branch = KindSteps::branch(original);
    QCOMPARE(branch.steps, 2);
    const Stepped on_branch = stepTo(steps, branch, 4);
    const Stepped on_original = stepTo(steps, original, 4);
    for (size_t i = 0; i < 2; ++i) compareSteps(on_branch, i, on_original, i);

    KindSteps::truncate(branch, 3);  // within the branch: allowed
    QCOMPARE(branch.steps, 3);
    bool refused = false;
    try {
        KindSteps::truncate(branch, DecoderKind(kind) == DecoderKind::Transformer ? 5 : 1);
    } catch (const std::logic_error&) {
        refused = true;
    }
    QVERIFY(refused);  // past its end, or before where an RNN branch began (its earlier states are not kept)
}

void TestKindSteps::forcedEqualsSteppingTheReference() {
    QFETCH(int, kind);
    const Model model = modelOfKind(kind);
    const detail::StepPath path = detail::defaultPath(model, {});
    TokenizedText reference;
    reference.ids = kTarget;
    DecodeResult forced;
    KindSteps(model, kSource, path).forced(reference, forced);

    KindSteps steps(model, kSource, path);
    DecodePrefix prefix = steps.start();
    const Stepped stepped = stepTo(steps, prefix, int(kTarget.size()));
    QCOMPARE(forced.target_ids, kTarget);
    QCOMPARE(forced.target_tokens.size(), kTarget.size());
    QCOMPARE(forced.target_tokens[0], model.target_vocab.token(kTarget[0]));
    double total = 0;
    for (size_t i = 0; i < kTarget.size(); ++i) {
        QCOMPARE(forced.attention[i], stepped.rows[i].attention);
        const float lp = stepped.log_probs[i][kTarget[i]];
        QVERIFY(close(forced.log_probs[i], lp, 1e-6));
        total += double(lp);
    }
    QVERIFY(close(forced.total_log_prob, total, 1e-6));
    // A Transformer's decode object has every layer and head; the RNN kinds' has only the attention rows.
    QCOMPARE(forced.cross_attention.empty(), DecoderKind(kind) != DecoderKind::Transformer);
    QCOMPARE(forced.encoder_self_attention.empty(), steps.encoderSelfAttention().empty());
}

ATTNVIZ_TEST_MAIN(TestKindSteps)
#include "test_kind_steps.moc"
