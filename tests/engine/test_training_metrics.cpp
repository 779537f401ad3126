// The trainer's validated hook (train/trainer.h) and the validation metrics the training window shows with it
// (eval/corpus_scores.h's evaluateCorpus): after each epoch's validation the hook sees the validated parameters, and
// the BLEU and AER it computes equal an independent evaluation of the model saved at that moment (greedy decodes and
// corpusBleu of the lists; forced decodes, argmax links and Och & Ney's counts summed here line by line).
#include "decode/decoding.h"
#include "eval/alignment.h"
#include "eval/corpus_scores.h"
#include "eval/metrics.h"
#include "io/corpus.h"
#include "io/model_file.h"
#include "test_registry.h"
#include "train/corpus_training.h"
#include "train/trainer.h"
#include "training_fixtures.h"

#include <QTemporaryDir>
#include <QTest>

using namespace attnviz;
using attnviz::testing::maxAbsDiff;
using attnviz::testing::reverseModel;
using attnviz::testing::reversePairs;
using attnviz::testing::writeReverseTask;

namespace {

struct SeenEvaluation {
    int64_t step = 0;
    int epoch = 0;
    double valid_loss = 0;
    EvalReport report;
    std::string path;  // the model as the hook saw it
};

// Corpus BLEU by another route than evaluateCorpus: the greedy outputs and references as lists, corpusBleu.
double independentBleu(const Model& m, const Corpus& corpus) {
    std::vector<std::vector<std::string>> hyps, refs;
    for (const CorpusExample& ex : corpus.examples) {
        hyps.push_back(withoutEos(greedyDecode(m, ex.source).target_tokens));
        refs.push_back(ex.target_tokens);
    }
    return corpusBleu(hyps, refs);
}

// AER of the argmax links of the forced decodes, the counts summed here.
double independentAer(const Model& m, const Corpus& corpus) {
    AerCounts total;
    for (const CorpusExample& ex : corpus.examples)
        total += aerCounts(attentionAlignment(forcedDecode(m, ex.source, ex.target)), ex.alignment);
    return total.aer();
}

TrainOptions threeEpochs() {
    TrainOptions o;
    o.lr = 0.03;
    o.batch_size = 8;
    o.epochs = 3;
    o.clip = 1.0;
    o.seed = 5;
    o.threads = 2;
    return o;
}

}  // namespace

class TestTrainingMetrics : public QObject {
    Q_OBJECT
private slots:
    void validatedHookSeesEachEpochsModel();
    void noValidationNoHook();
};

void TestTrainingMetrics::validatedHookSeesEachEpochsModel() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    writeReverseTask(dir.filePath("valid.tsv"), 24, 9, true);
    Model m = reverseModel(4);
    const Corpus valid = readCorpus(dir.filePath("valid.tsv").toStdString(), CorpusOptions{true, m.config.tokenizer});
    QCOMPARE(valid.alignedCount(), 24);
    const std::vector<TrainExample> valid_examples = corpusExamples(m, valid);
    std::vector<TrainExample> train;
    int line = 0;
    for (const auto& [s, t] : reversePairs(160, 11)) train.push_back(makeExample(m, s, t, ++line));
    std::vector<SeenEvaluation> seen;
    TrainCallbacks cb;
    cb.validated = [&](const Model& now, const TrainProgress& pr) {
        SeenEvaluation s{pr.step, pr.epoch, pr.valid_loss, evaluateCorpus(now, valid.examples), {}};
        s.path = dir.filePath(QStringLiteral("epoch%1.safetensors").arg(pr.epoch)).toStdString();
        saveModel(now, s.path);
        seen.push_back(std::move(s));
    };
    const TrainReport rep = trainModel(m, train, valid_examples, threeEpochs(), cb);
    QCOMPARE(rep.steps, int64_t(60));
    QCOMPARE(seen.size(), size_t(3));  // one per epoch, 20 updates each
    for (size_t k = 0; k < seen.size(); ++k) {
        const SeenEvaluation& s = seen[k];
        QCOMPARE(s.step, int64_t(20 * (k + 1)));
        QCOMPARE(s.epoch, int(k + 1));
        const Model saved = loadModel(s.path);
        QCOMPARE(evaluateLoss(saved, valid_examples, 2, 64), s.valid_loss);  // the parameters just validated
        QCOMPARE(s.report.lines, int64_t(24));
        QCOMPARE(s.report.bleu, independentBleu(saved, valid));
        QVERIFY(s.report.aer.has_value());
        QCOMPARE(*s.report.aer, independentAer(saved, valid));
        qInfo("epoch %d: valid loss %.4f, BLEU %.2f, AER %.4f", s.epoch, s.valid_loss, s.report.bleu, *s.report.aer);
    }
    // the models differ from epoch to epoch, and so do their measures
    QVERIFY(maxAbsDiff(loadModel(seen[0].path).params, loadModel(seen[2].path).params) > 0);
    QVERIFY(seen[2].report.bleu > seen[0].report.bleu);  // 0 after epoch 1, about 33 after epoch 3
    QVERIFY(*seen[2].report.aer < *seen[0].report.aer);  // about 0.63, then 0.23
    // a corpus without gold links has no AER
    Corpus plain = valid;
    for (CorpusExample& ex : plain.examples) ex.has_alignment = false;
    QVERIFY(!evaluateCorpus(m, plain.examples).aer.has_value());
}

void TestTrainingMetrics::noValidationNoHook() {
    Model m = reverseModel(4);
    std::vector<TrainExample> train;
    int line = 0;
    for (const auto& [s, t] : reversePairs(32, 11)) train.push_back(makeExample(m, s, t, ++line));
    int calls = 0;
    TrainCallbacks cb;
    cb.validated = [&](const Model&, const TrainProgress&) { ++calls; };
    trainModel(m, train, {}, threeEpochs(), cb);
    QCOMPARE(calls, 0);
}

ATTNVIZ_TEST_MAIN(TestTrainingMetrics)
#include "test_training_metrics.moc"
