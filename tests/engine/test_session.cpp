// DecodingSession semantics: moving the cursor never recomputes, force() replaces a step and what follows,
// runToEnd() stops at <eos> or the length limit; plus the text entry points.
#include "base/errors.h"
#include "decode/decoding.h"
#include "reference_model.h"
#include "test_models.h"
#include "test_registry.h"

#include <QtTest>
#include <cmath>

using namespace attnviz;
using namespace attnviz::testing;

namespace {

TokenizedText matSentence() {
    return TokenizedText{{"<sos>", "the", "cat", "sat", "on", "the", "mat", "<eos>"}, {kSos, 7, 8, 9, 10, 7, 11, kEos}};
}

// A model whose <eos> logit is shifted: +100 makes it stop at once, −100 never.
std::shared_ptr<const Model> modelWithEosBias(float bias, DecoderKind d = DecoderKind::Luong) {
    Model m = smallModel(smallConfig(d, ScoreKind::General), 7, 2.0f);
    m.params.fc_out_b[kEos] += bias;
    return std::make_shared<const Model>(std::move(m));
}

int argmaxProducible(const DVec& lp) {
    int best = -1;
    for (int i = 0; i < int(lp.size()); ++i)
        if (i != kPad && i != kSos && (best < 0 || lp[size_t(i)] > lp[size_t(best)])) best = i;
    return best;
}

}  // namespace

class TestSession : public QObject {
    Q_OBJECT

private slots:
    void cursorMovesWithoutRecomputing_data();
    void cursorMovesWithoutRecomputing();
    void forceReplacesStepAndFollowsIt_data();
    void forceReplacesStepAndFollowsIt();
    void forceAtTheEndComputesANewStep();
    void forceRejectsBadInput();
    void runToEndStopsAtEos();
    void runToEndStopsAtMaxLen();
    void defaultMaxLen();
    void resultFollowsCursor();
    void textEntryPoints();
};

void TestSession::cursorMovesWithoutRecomputing_data() {
    QTest::addColumn<int>("decoder");
    QTest::newRow("bahdanau") << int(DecoderKind::Bahdanau);
    QTest::newRow("luong") << int(DecoderKind::Luong);
}

void TestSession::cursorMovesWithoutRecomputing() {
    QFETCH(int, decoder);
    auto model = modelWithEosBias(-100.0f, DecoderKind(decoder));
    DecodeOptions opt;
    opt.max_len = 6;
    DecodingSession s(model, matSentence(), opt);
    QCOMPARE(s.cursor(), 0);
    QCOMPARE(s.computedStepCount(), 0);
    QVERIFY(!s.back());
    QVERIFY(s.forward());
    QVERIFY(s.forward());
    QVERIFY(s.forward());
    QCOMPARE(s.computedStepCount(), 3);
    const std::vector<float> row2 = s.steps()[2].attention;
    QVERIFY(s.back());
    QVERIFY(s.back());
    QCOMPARE(s.cursor(), 1);
    QCOMPARE(int(s.steps().size()), 3);  // kept
    QVERIFY(s.forward());
    QVERIFY(s.forward());
    QCOMPARE(s.cursor(), 3);
    QCOMPARE(s.computedStepCount(), 3);  // nothing recomputed
    QCOMPARE(s.steps()[2].attention, row2);
    s.seek(-5);
    QCOMPARE(s.cursor(), 0);
    s.seek(99);
    QCOMPARE(s.cursor(), 3);
    QVERIFY(s.forward());
    QCOMPARE(s.computedStepCount(), 4);
    s.runToEnd();
    QCOMPARE(int(s.steps().size()), 6);
    QCOMPARE(s.computedStepCount(), 6);
    QVERIFY(s.complete());
    QVERIFY(!s.forward());
    QCOMPARE(s.cursor(), 6);
}

void TestSession::forceReplacesStepAndFollowsIt_data() { cursorMovesWithoutRecomputing_data(); }

void TestSession::forceReplacesStepAndFollowsIt() {
    QFETCH(int, decoder);
    auto model = modelWithEosBias(-100.0f, DecoderKind(decoder));
    DecodeOptions opt;
    opt.max_len = 6;
    DecodingSession s(model, matSentence(), opt);
    s.runToEnd();
    const std::vector<StepRecord> before = s.steps();
    // Force step 1 to its second-best candidate.
    const int alt = before[1].top_k[1].id;
    QVERIFY(alt != before[1].token);
    s.force(1, alt);
    QCOMPARE(s.computedStepCount(), 7);  // only step 1 itself, not step 0
    QCOMPARE(int(s.steps().size()), 2);
    QCOMPARE(s.cursor(), 2);
    const StepRecord& f = s.steps()[1];
    QCOMPARE(f.token, alt);
    QVERIFY(f.forced);
    QCOMPARE(f.token_text, model->target_vocab.token(alt));
    QCOMPARE(f.attention, before[1].attention);  // the row does not depend on the step's own output
    QCOMPARE(f.log_prob, before[1].top_k[1].log_prob);
    QCOMPARE(s.steps()[0].attention, before[0].attention);
    QCOMPARE(s.steps()[0].token, before[0].token);
    QVERIFY(!s.complete());

    s.runToEnd();
    QCOMPARE(int(s.steps().size()), 6);
    std::vector<int> tokens;
    for (const StepRecord& r : s.steps()) tokens.push_back(r.token);
    // Later steps follow from the forced token: each is the argmax of the reference distribution on this prefix.
    const RefDecode ref = referenceForced(*model, matSentence().ids, tokens);
    for (size_t i = 2; i < tokens.size(); ++i) {
        QCOMPARE(tokens[i], argmaxProducible(ref.steps[i].log_probs));
        QVERIFY(!s.steps()[i].forced);
        QVERIFY(std::abs(s.steps()[i].attention[3] - ref.steps[i].attention[3]) < 1e-5);
    }
    // ... and they differ from the unforced run (the model reads its input).
    bool differs = false;
    for (size_t i = 2; i < tokens.size(); ++i)
        for (size_t j = 0; j < before[i].attention.size(); ++j)
            differs |= std::abs(before[i].attention[j] - s.steps()[i].attention[j]) > 1e-6f;
    QVERIFY(differs);
}

void TestSession::forceAtTheEndComputesANewStep() {
    auto model = modelWithEosBias(-100.0f);
    DecodingSession s(model, matSentence());
    s.forward();
    s.force(1, kUnk);
    QCOMPARE(int(s.steps().size()), 2);
    QCOMPARE(s.steps()[1].token, kUnk);
    QCOMPARE(s.steps()[1].token_text, std::string("<unk>"));
    QCOMPARE(s.computedStepCount(), 2);
    s.force(2, kEos);
    QVERIFY(s.complete());
    QVERIFY(!s.forward());
}

void TestSession::forceRejectsBadInput() {
    auto model = modelWithEosBias(0.0f);
    DecodingSession s(model, matSentence());
    QVERIFY_THROWS_EXCEPTION(InputError, s.force(1, 5));  // step 1 not reachable yet
    QVERIFY_THROWS_EXCEPTION(InputError, s.force(-1, 5));
    QVERIFY_THROWS_EXCEPTION(InputError, s.force(0, kPad));
    QVERIFY_THROWS_EXCEPTION(InputError, s.force(0, kSos));
    QVERIFY_THROWS_EXCEPTION(InputError, s.force(0, 999));
    QCOMPARE(int(s.steps().size()), 0);
    QCOMPARE(s.computedStepCount(), 0);
}

void TestSession::runToEndStopsAtEos() {
    auto model = modelWithEosBias(100.0f);
    DecodingSession s(model, matSentence());
    s.runToEnd();
    QCOMPARE(int(s.steps().size()), 1);
    QCOMPARE(s.steps()[0].token, kEos);
    QCOMPARE(s.steps()[0].token_text, std::string("<eos>"));
    QCOMPARE(int(s.steps()[0].attention.size()), 8);  // <eos> has a row
    QVERIFY(s.complete());
}

void TestSession::runToEndStopsAtMaxLen() {
    auto model = modelWithEosBias(-100.0f);
    DecodeOptions opt;
    opt.max_len = 4;
    DecodingSession s(model, matSentence(), opt);
    s.runToEnd();
    QCOMPARE(int(s.steps().size()), 4);
    QCOMPARE(s.cursor(), 4);
    for (const StepRecord& r : s.steps()) QVERIFY(r.token != kEos && r.token != kPad && r.token != kSos);
    QVERIFY(s.complete());
    QVERIFY_THROWS_EXCEPTION(InputError, s.force(4, 5));  // beyond the limit
}

void TestSession::defaultMaxLen() {
    auto model = modelWithEosBias(-100.0f);
    DecodingSession s(model, matSentence());
    QCOMPARE(s.maxLength(), 2 * 8 + 10);
    s.runToEnd();
    QCOMPARE(int(s.steps().size()), 26);
    DecodeOptions bad;
    bad.max_len = -1;
    QVERIFY_THROWS_EXCEPTION(InputError, DecodingSession(model, matSentence(), bad));
}

void TestSession::resultFollowsCursor() {
    auto model = modelWithEosBias(-100.0f);
    DecodeOptions opt;
    opt.max_len = 5;
    DecodingSession s(model, matSentence(), opt);
    s.runToEnd();
    s.back();
    s.back();
    const DecodeResult r = resultFromSession(s);
    QCOMPARE(int(r.target_ids.size()), 3);
    QCOMPARE(r.source_tokens, matSentence().tokens);
    QCOMPARE(r.source_ids, matSentence().ids);
    double total = 0;
    for (int i = 0; i < 3; ++i) {
        QCOMPARE(r.target_ids[size_t(i)], s.steps()[size_t(i)].token);
        QCOMPARE(r.attention[size_t(i)], s.steps()[size_t(i)].attention);
        total += r.log_probs[size_t(i)];
    }
    QCOMPARE(r.total_log_prob, total);
    QVERIFY(total < 0);
}

void TestSession::textEntryPoints() {
    auto model = modelWithEosBias(0.0f);
    // smallConfig: word tokenizer, lower-casing on the source side.
    DecodingSession s(model, "The cat, zebra.");
    const std::vector<std::string> tokens = {"<sos>", "the", "cat", ",", "zebra", ".", "<eos>"};
    QCOMPARE(s.source().tokens, tokens);
    QCOMPARE(s.source().ids[4], kUnk);  // unknown word keeps its spelling
    QCOMPARE(s.source().ids[2], model->source_vocab.id("cat"));
    const DecodeResult a = greedyDecode(*model, "The cat, zebra.");
    const DecodeResult b = greedyDecode(*model, s.source());
    QCOMPARE(a.target_ids, b.target_ids);
    QCOMPARE(a.attention, b.attention);
    const DecodeResult f = forcedDecode(*model, "The cat, zebra.", "猫 斑马");
    const std::vector<std::string> target = {"猫", "斑马", "<eos>"};
    QCOMPARE(f.target_tokens, target);
    QCOMPARE(f.target_ids[1], kUnk);
    QCOMPARE(f.target_ids[2], kEos);
}

ATTNVIZ_TEST_MAIN(TestSession)
#include "test_session.moc"
