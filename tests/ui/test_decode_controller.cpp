// The window's decodes (state/decode_controller.h): an edit of the state's sentence is decoded once, after the
// debounce, and what the state then shows is core's decode of that sentence, in the state before `decoded` says so;
// an edited reference is force-decoded; an empty sentence clears the decode and drops what was pending; an edit drops
// the "what if" while decodeNow keeps it with the cursor asked for; the enabled interventions, and only those, go into
// the request; a request that cannot be decoded is reported and the decode shown stays; a decode of a model no longer
// open is never shown; the outcome behind the decode shown is the controller's only while the state shows it (not
// during a beam hypothesis) and until it is cleared.
#include "state/decode_controller.h"
#include "state/decode_state.h"
#include "test_models.h"
#include "test_registry.h"
#include "text/tokenizer.h"

#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace attnviz;
using namespace attnviz::ui;

class TestDecodeController : public QObject {
    Q_OBJECT
private slots:
    void anEditIsDecodedOnceAfterTheDebounceAsCoreDecodesIt();
    void anEditedReferenceIsForceDecoded();
    void anEmptySentenceClearsTheDecodeAndDropsThePendingOne();
    void anEditDropsTheWhatIfAndDecodeNowKeepsIt();
    void onlyTheEnabledInterventionsAreDecoded();
    void aRequestThatCannotBeDecodedIsReportedAndTheDecodeShownStays();
    void aDecodeOfAModelNoLongerOpenIsNeverShown();
    void theOutcomeIsTheDecodeShownNotABeamHypothesis();
};

namespace {

std::shared_ptr<const Model> modelWithSeed(uint64_t seed) {
    return std::make_shared<const Model>(
        testing::smallModel(testing::smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), seed, 3.0f));
}

// core's greedy decode of `sentence`, as the window must show it.
PrefixDecoding coreDecode(const std::shared_ptr<const Model>& model, const char* sentence, std::vector<int> forced = {},
                          const Interventions& iv = {}) {
    PrefixDecodeInput in;
    in.source = tokenizeSource(*model, sentence);
    in.forced = std::move(forced);
    in.options.interventions = iv;
    return prefixDecode(model, std::move(in));
}

std::vector<int> tokensOf(const PrefixDecoding& d) {
    std::vector<int> ids;
    for (const StepRecord& s : d.steps) ids.push_back(s.token);
    return ids;
}

// Runs the event loop until the controller has delivered what it owes (10 s at most).
void settle(DecodeController& c) {
    for (int i = 0; i < 1000 && c.isBusy(); ++i) QTest::qWait(10);
    QCoreApplication::processEvents();
}

// A state with a small model open, and its controller.
struct Decoding {
    explicit Decoding(uint64_t seed = 7) : model(modelWithSeed(seed)) { state.setModel(model, QStringLiteral("m")); }
    // `sentence` typed and decoded at once.
    void decode(const char* sentence) {
        state.setSourceText(QString::fromUtf8(sentence));
        c.decodeNow();
        settle(c);
    }
    std::shared_ptr<const Model> model;
    DecodeState state;
    DecodeController c{&state};
};

}  // namespace

void TestDecodeController::anEditIsDecodedOnceAfterTheDebounceAsCoreDecodesIt() {
    Decoding d;
    auto& [model, state, c] = d;
    c.worker()->setDebounceMs(1500);  // long enough that a loaded machine still checks inside it
    QSignalSpy decoded(&c, &DecodeController::decoded);
    bool shown_when_said = false;  // the state shows the outcome, and outcome() is it, when `decoded` is sent
    connect(&c, &DecodeController::decoded, this, [&](const std::shared_ptr<const DecodeOutcome>& o) {
        shown_when_said = state.decode() == o.get() && c.outcome() == o.get();
    });
    state.setSourceText(QStringLiteral("the cat"));
    QTest::qWait(100);
    state.setSourceText(QStringLiteral("the cat sat on the mat"));  // restarts the wait: "the cat" is never decoded
    QTest::qWait(200);
    QVERIFY(c.isBusy());
    QCOMPARE(decoded.count(), 0);  // 300 ms after the first edit, inside the debounce of the second
    QVERIFY(!state.hasDecode());
    settle(c);
    QCOMPARE(decoded.count(), 1);
    QVERIFY(shown_when_said);
    QVERIFY(state.hasDecode());
    QCOMPARE(tokensOf(*state.decode()), tokensOf(coreDecode(model, "the cat sat on the mat")));
    QCOMPARE(state.decode()->steps.back().attention,
             coreDecode(model, "the cat sat on the mat").steps.back().attention);
    QVERIFY(c.outcome() != nullptr);
    QCOMPARE(c.outcome()->request.source, std::string("the cat sat on the mat"));
    QCOMPARE(state.cursor(), state.stepCount());  // a new decode shows its last step
}

void TestDecodeController::anEditedReferenceIsForceDecoded() {
    Decoding d;
    auto& [model, state, c] = d;
    d.decode("i love you");
    state.setReferenceText(QStringLiteral(" 我 爱 猫 "));
    settle(c);
    QCOMPARE(c.outcome()->request.reference, std::string("我 爱 猫"));  // trimmed
    const TokenizedText ref = tokenizeTarget(*model, "我 爱 猫");
    QCOMPARE(ref.ids.back(), kEos);
    QCOMPARE(tokensOf(*state.decode()), ref.ids);  // the reference and <eos>, whatever the model prefers
}

void TestDecodeController::anEmptySentenceClearsTheDecodeAndDropsThePendingOne() {
    Decoding d;
    auto& [model, state, c] = d;
    d.decode("i love you");
    QVERIFY(state.hasDecode());

    QSignalSpy emptied(&c, &DecodeController::sentenceEmptied);
    QSignalSpy decoded(&c, &DecodeController::decoded);
    state.setSourceText(QStringLiteral("the cat"));  // pending behind the debounce ...
    state.setSourceText(QStringLiteral("  "));       // ... and dropped
    QCOMPARE(emptied.count(), 1);
    QVERIFY(!state.hasDecode());
    QVERIFY(c.outcome() == nullptr);
    QVERIFY(!c.isBusy());
    QTest::qWait(3 * c.worker()->debounceMs());
    QCOMPARE(decoded.count(), 0);
}

void TestDecodeController::anEditDropsTheWhatIfAndDecodeNowKeepsIt() {
    Decoding d(11);
    auto& [model, state, c] = d;
    d.decode("the cat ate an apple");
    const std::vector<int> plain = tokensOf(*state.decode());
    // Force a token at step 0 that is not the model's own choice, as the forcing history does, and decode at step 1.
    const int forced = plain.front() == 4 ? 5 : 4;
    state.setForcedTokens({forced});
    c.decodeNow(1);
    settle(c);
    QCOMPARE(tokensOf(*state.decode()), tokensOf(coreDecode(model, "the cat ate an apple", {forced})));
    QCOMPARE(state.decode()->steps.front().token, forced);
    QCOMPARE(state.cursor(), 1);
    QCOMPARE(c.outcome()->request.forced_prefix, std::vector<int>{forced});

    state.setSourceText(QStringLiteral("the cat ate an apple ."));
    QVERIFY(state.forcedTokens().empty());
    settle(c);
    QVERIFY(c.outcome()->request.forced_prefix.empty());
    QCOMPARE(tokensOf(*state.decode()), tokensOf(coreDecode(model, "the cat ate an apple .")));
}

void TestDecodeController::onlyTheEnabledInterventionsAreDecoded() {
    Decoding d;
    auto& [model, state, c] = d;
    state.setSourceText(QStringLiteral("the cat sat on the mat"));
    InterventionItem off = InterventionItem::knockout(1, QStringLiteral("the"));
    off.enabled = false;
    state.setInterventions({InterventionItem::knockout(2, QStringLiteral("cat")), off});
    QCOMPARE(c.request().interventions.knockout, std::vector<int>{2});
    c.decodeNow();
    settle(c);
    Interventions iv;
    iv.knockout = {2};
    const PrefixDecoding knocked = coreDecode(model, "the cat sat on the mat", {}, iv);
    QCOMPARE(tokensOf(*state.decode()), tokensOf(knocked));
    for (size_t t = 0; t < knocked.steps.size(); ++t) {
        QCOMPARE(state.decode()->steps[t].attention, knocked.steps[t].attention);
        QCOMPARE(state.decode()->steps[t].attention[2], 0.0f);  // the word knocked out gets no weight
    }
    QVERIFY(state.plainDecode() != nullptr);  // and the plain decode comes with it, for the output line
    QCOMPARE(tokensOf(*state.plainDecode()), tokensOf(coreDecode(model, "the cat sat on the mat")));
}

void TestDecodeController::aRequestThatCannotBeDecodedIsReportedAndTheDecodeShownStays() {
    Decoding d;
    auto& [model, state, c] = d;
    d.decode("i love you");
    const DecodeOutcome* shown = c.outcome();
    QSignalSpy failed(&c, &DecodeController::failed);
    QSignalSpy decoded(&c, &DecodeController::decoded);
    state.setForcedTokens({kSos});  // a token no step can produce: the engine refuses it
    c.decodeNow();
    settle(c);
    QCOMPARE(failed.count(), 1);
    QVERIFY(failed.front().front().toString().contains(QStringLiteral("cannot be produced")));
    QCOMPARE(decoded.count(), 0);
    QCOMPARE(c.outcome(), shown);
    QCOMPARE(static_cast<const PrefixDecoding*>(shown), state.decode());
}

void TestDecodeController::aDecodeOfAModelNoLongerOpenIsNeverShown() {
    Decoding d;
    auto& [model, state, c] = d;
    state.setSourceText(QStringLiteral("i love you"));
    QSignalSpy decoded(&c, &DecodeController::decoded);
    c.decodeNow();
    state.setModel(modelWithSeed(8), QStringLiteral("b"));  // before the event loop delivers the first model's decode
    settle(c);
    QTest::qWait(50);
    QCOMPARE(decoded.count(), 0);
    QVERIFY(!state.hasDecode());
    QVERIFY(c.outcome() == nullptr);
}

void TestDecodeController::theOutcomeIsTheDecodeShownNotABeamHypothesis() {
    Decoding d;
    auto& [model, state, c] = d;
    state.setSourceText(QStringLiteral("i love you"));
    QSignalSpy decoded(&c, &DecodeController::decoded);
    c.decodeNow();
    settle(c);
    QCOMPARE(decoded.count(), 1);
    const auto kept = decoded.front().front().value<std::shared_ptr<const DecodeOutcome>>();
    const DecodeOutcome* shown = c.outcome();
    QCOMPARE(shown, kept.get());
    QCOMPARE(static_cast<const PrefixDecoding*>(shown), state.decode());
    state.showHypothesis(model, std::make_shared<const PrefixDecoding>(coreDecode(model, "i love you")), {});
    QVERIFY(c.outcome() == nullptr);
    state.showMainDecode();
    QCOMPARE(c.outcome(), shown);
    c.clear();
    QVERIFY(!state.hasDecode());
    QVERIFY(c.outcome() == nullptr);
    state.setDecode(model, kept);  // the same decode, put back by another hand: the controller forgot it
    QVERIFY(c.outcome() == nullptr);
}

ATTNVIZ_TEST_MAIN(TestDecodeController)
#include "test_decode_controller.moc"
