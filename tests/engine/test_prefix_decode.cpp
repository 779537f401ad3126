// prefixDecode, the window's decode: checked against the engine's other paths (greedyDecode, forcedDecode, a
// DecodingSession forced by hand), the source cut against a decode of the shorter sentence, and the stop callback.
#include "base/errors.h"
#include "decode/decoding.h"
#include "decode/prefix_decode.h"
#include "test_models.h"
#include "test_registry.h"

#include <QtTest>

using namespace attnviz;
using namespace attnviz::testing;

namespace {

std::shared_ptr<const Model> model(DecoderKind decoder) {
    return std::make_shared<const Model>(smallModel(smallConfig(decoder, ScoreKind::Additive), 21, 3.0f));
}

PrefixDecodeInput inputFor(const Model& m, const char* source, std::vector<int> forced = {},
                           const char* reference = "") {
    PrefixDecodeInput in;
    in.source = tokenizeSource(m, source);
    in.forced = std::move(forced);
    if (*reference) in.reference = tokenizeTarget(m, reference);
    return in;
}

// What the window showed before prefixDecode existed: force each token by hand, then run greedily.
DecodeResult forcedByHand(const std::shared_ptr<const Model>& m, const char* source, const std::vector<int>& forced) {
    DecodingSession session(m, source);
    for (size_t i = 0; i < forced.size(); ++i) session.force(int(i), forced[i]);
    session.runToEnd();
    return resultFromSession(session);
}

void addDecoders() {
    QTest::addColumn<int>("decoder");
    QTest::newRow("bahdanau") << int(DecoderKind::Bahdanau);
    QTest::newRow("luong") << int(DecoderKind::Luong);
}

}  // namespace

class TestPrefixDecode : public QObject {
    Q_OBJECT

private slots:
    void withoutPrefixIsGreedy_data() { addDecoders(); }
    void withoutPrefixIsGreedy();
    void forcedTokensThenGreedy_data() { addDecoders(); }
    void forcedTokensThenGreedy();
    void modelsChoiceStepsAreGreedy();
    void forcedStepAfterTheModelsEosIsNotReached();
    void referenceIsForcedWithItsSpelling();
    void forcedTokensOverrideTheReference();
    void longSourceKeepsItsFirstTokens();
    void prefixLongerThanTheDefaultLimit();
    void forcedEosEndsTheOutput();
    void stopIsAskedBetweenSteps();
    void badIdsAreInputErrors();
};

void TestPrefixDecode::withoutPrefixIsGreedy() {
    QFETCH(int, decoder);
    const auto m = model(DecoderKind(decoder));
    const PrefixDecoding got = prefixDecode(m, inputFor(*m, "i love the cat"));
    const DecodeResult expected = greedyDecode(*m, "i love the cat");
    QVERIFY(!got.stopped);
    QCOMPARE(got.source_tokens_cut, 0);
    QCOMPARE(got.source.tokens, expected.source_tokens);
    QCOMPARE(got.result.target_ids, expected.target_ids);
    QCOMPARE(got.result.target_tokens, expected.target_tokens);
    QCOMPARE(got.result.attention, expected.attention);
    QCOMPARE(got.result.log_probs, expected.log_probs);
    QCOMPARE(got.steps.size(), expected.target_ids.size());
    for (const StepRecord& s : got.steps) QVERIFY(!s.forced);
}

void TestPrefixDecode::forcedTokensThenGreedy() {
    QFETCH(int, decoder);
    const auto m = model(DecoderKind(decoder));
    const DecodeResult greedy = greedyDecode(*m, "i ate an apple yesterday");
    // Force something other than the model's first choice, then a second token, and let it decode on.
    const int first = greedy.target_ids[0] == 6 ? 7 : 6;
    const std::vector<int> forced = {first, 9};
    const PrefixDecoding got = prefixDecode(m, inputFor(*m, "i ate an apple yesterday", forced));
    const DecodeResult expected = forcedByHand(m, "i ate an apple yesterday", forced);
    QCOMPARE(got.result.target_ids, expected.target_ids);
    QCOMPARE(got.result.attention, expected.attention);
    QCOMPARE(got.result.log_probs, expected.log_probs);
    QVERIFY(got.result.target_ids != greedy.target_ids);
    QVERIFY(got.steps.size() > 2);
    QVERIFY(got.steps[0].forced && got.steps[1].forced);
    for (size_t i = 2; i < got.steps.size(); ++i) QVERIFY(!got.steps[i].forced);
}

void TestPrefixDecode::modelsChoiceStepsAreGreedy() {
    const auto m = model(DecoderKind::Bahdanau);
    const char* source = "i ate an apple yesterday";
    const DecodeResult greedy = greedyDecode(*m, source);
    QVERIFY(greedy.target_ids.size() > 3);
    // Steps 0 and 1 left to the model, step 2 forced to something it does not choose there.
    const int third = greedy.target_ids[2] == 6 ? 7 : 6;
    const PrefixDecoding got = prefixDecode(m, inputFor(*m, source, {kModelsChoice, kModelsChoice, third}));
    const DecodeResult expected = forcedByHand(m, source, {greedy.target_ids[0], greedy.target_ids[1], third});
    QCOMPARE(got.result.target_ids, expected.target_ids);
    QCOMPARE(got.result.attention, expected.attention);
    QCOMPARE(got.result.log_probs, expected.log_probs);
    QVERIFY(!got.steps[0].forced && !got.steps[1].forced && got.steps[2].forced);
}

// A "what if" carried to a sibling that ends its output before the forced step: the output ends there.
void TestPrefixDecode::forcedStepAfterTheModelsEosIsNotReached() {
    const auto m = model(DecoderKind::Luong);
    const char* source = "i ate an apple yesterday";
    const DecodeResult greedy = greedyDecode(*m, source);
    QCOMPARE(greedy.target_ids.back(), kEos);
    std::vector<int> past_the_end(greedy.target_ids.size(), kModelsChoice);
    past_the_end.push_back(6);
    const PrefixDecoding got = prefixDecode(m, inputFor(*m, source, past_the_end));
    QCOMPARE(got.result.target_ids, greedy.target_ids);
    QCOMPARE(got.result.attention, greedy.attention);
}

void TestPrefixDecode::referenceIsForcedWithItsSpelling() {
    const auto m = model(DecoderKind::Bahdanau);
    const PrefixDecoding got = prefixDecode(m, inputFor(*m, "i love you", {}, "我 爱 斑马"));
    const DecodeResult expected = forcedDecode(*m, "i love you", "我 爱 斑马");
    QCOMPARE(got.result.target_ids, (std::vector<int>{4, 5, kUnk, kEos}));
    QCOMPARE(got.result.target_ids, expected.target_ids);
    QCOMPARE(got.result.attention, expected.attention);
    // The unknown word keeps the reference's spelling (the vocabulary would say <unk>).
    QCOMPARE(got.result.target_tokens, (std::vector<std::string>{"我", "爱", "斑马", "<eos>"}));
    // The step-wise and whole-sequence paths agree to float round-off on log p.
    QCOMPARE(got.result.log_probs.size(), expected.log_probs.size());
    for (size_t i = 0; i < expected.log_probs.size(); ++i)
        QVERIFY(std::abs(got.result.log_probs[i] - expected.log_probs[i]) <=
                1e-5f * (1 + std::abs(expected.log_probs[i])));
}

void TestPrefixDecode::forcedTokensOverrideTheReference() {
    const auto m = model(DecoderKind::Bahdanau);
    // Reference ids: <unk> 爱 <eos>. Only <unk> is forced; the rest is the model's own.
    const PrefixDecoding got = prefixDecode(m, inputFor(*m, "i love you", {kUnk}, "斑马 爱"));
    const DecodeResult expected = forcedByHand(m, "i love you", {kUnk});
    QCOMPARE(got.result.target_ids, expected.target_ids);
    QCOMPARE(got.result.attention, expected.attention);
    QCOMPARE(got.result.target_tokens[0], std::string("斑马"));  // forced <unk> where the reference has 斑马
    for (size_t i = 1; i < got.steps.size(); ++i) {  // known words: the vocabulary's spelling is the reference's
        QVERIFY(!got.steps[i].forced);
        QCOMPARE(got.result.target_tokens[i], m->target_vocab.token(got.result.target_ids[i]));
    }
}

void TestPrefixDecode::longSourceKeepsItsFirstTokens() {
    const auto m = model(DecoderKind::Luong);
    PrefixDecodeInput in = inputFor(*m, "i love you the cat sat on the mat");
    in.max_source_tokens = 3;
    const PrefixDecoding got = prefixDecode(m, in);
    QCOMPARE(got.source_tokens_cut, 6);
    QCOMPARE(got.source.tokens, (std::vector<std::string>{"<sos>", "i", "love", "you", "<eos>"}));
    QCOMPARE(got.source.ids, (std::vector<int>{kSos, 4, 5, 6, kEos}));
    const DecodeResult expected = greedyDecode(*m, "i love you");
    QCOMPARE(got.result.source_tokens, expected.source_tokens);
    QCOMPARE(got.result.target_ids, expected.target_ids);
    QCOMPARE(got.result.attention, expected.attention);

    in.max_source_tokens = 9;  // exactly as long: nothing cut
    const PrefixDecoding whole = prefixDecode(m, in);
    QCOMPARE(whole.source_tokens_cut, 0);
    QCOMPARE(int(whole.source.tokens.size()), 11);
}

void TestPrefixDecode::prefixLongerThanTheDefaultLimit() {
    const auto m = model(DecoderKind::Bahdanau);
    // One source word: S = 3, so the default limit is 2 * 3 + 10 = 16 tokens; 20 forced tokens raise it to 20.
    const std::vector<int> forced(20, 4);
    const PrefixDecoding got = prefixDecode(m, inputFor(*m, "i", forced));
    QCOMPARE(int(got.steps.size()), 20);
    for (const StepRecord& s : got.steps) QVERIFY(s.forced && s.token == 4);
    // An explicit limit larger than the prefix is kept.
    PrefixDecodeInput in = inputFor(*m, "i", {4, 4});
    in.options.max_len = 5;
    const PrefixDecoding limited = prefixDecode(m, in);
    const DecodeResult expected = forcedByHand(m, "i", {4, 4});
    QCOMPARE(int(limited.steps.size()), std::min(5, int(expected.target_ids.size())));
}

void TestPrefixDecode::forcedEosEndsTheOutput() {
    const auto m = model(DecoderKind::Luong);
    const PrefixDecoding got = prefixDecode(m, inputFor(*m, "the cat sat", {4, kEos, 5}));
    QCOMPARE(got.result.target_ids, (std::vector<int>{4, kEos}));
    QCOMPARE(got.result.attention, forcedByHand(m, "the cat sat", {4, kEos}).attention);
}

void TestPrefixDecode::stopIsAskedBetweenSteps() {
    const auto m = model(DecoderKind::Bahdanau);
    const PrefixDecodeInput in = inputFor(*m, "i ate an apple", {6});
    const PrefixDecoding plain = prefixDecode(m, in);
    QVERIFY(plain.steps.size() >= 3);

    int asked = 0;
    const PrefixDecoding never = prefixDecode(m, in, [&] { return ++asked < 0; });
    QVERIFY(!never.stopped);
    QCOMPARE(asked, int(never.steps.size()));  // before the forced step, after each greedy one
    QCOMPARE(never.result.target_ids, plain.result.target_ids);
    QCOMPARE(never.result.attention, plain.result.attention);

    asked = 0;
    const PrefixDecoding early = prefixDecode(m, in, [&] { return ++asked == 2; });
    QVERIFY(early.stopped);
    QCOMPARE(asked, 2);  // nothing is computed after the stop
    QVERIFY(early.steps.empty());
    QVERIFY(early.result.target_ids.empty());
}

void TestPrefixDecode::badIdsAreInputErrors() {
    const auto m = model(DecoderKind::Bahdanau);
    QVERIFY_THROWS_EXCEPTION(InputError, prefixDecode(m, inputFor(*m, "i love you", {999})));
    QVERIFY_THROWS_EXCEPTION(InputError, prefixDecode(m, inputFor(*m, "i love you", {kSos})));
    PrefixDecodeInput in = inputFor(*m, "i love you");
    in.source.ids[1] = 999;
    QVERIFY_THROWS_EXCEPTION(InputError, prefixDecode(m, in));
}

ATTNVIZ_TEST_MAIN(TestPrefixDecode)
#include "test_prefix_decode.moc"
