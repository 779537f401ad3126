// The trainer's hooks for the window (train/trainer.h, train/train_gate.h): the snapshot callback sees the model as it
// is after that update (its decode equals the decode of a model trained that many steps without callbacks, bit for
// bit), and a pause, however long, changes nothing in the parameters; a stop during a pause ends the run.
#include "decode/decoding.h"
#include "test_registry.h"
#include "train/train_gate.h"
#include "train/trainer.h"
#include "training_fixtures.h"

#include <QTest>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

using namespace attnviz;
using attnviz::testing::maxAbsDiff;
using attnviz::testing::reverseModel;
using attnviz::testing::reversePairs;

namespace {

const char* const kProbe = "a b c d e";

std::vector<TrainExample> reverseData(const Model& m, int n) {
    std::vector<TrainExample> out;
    int line = 0;
    for (const auto& [s, t] : reversePairs(n, 11)) out.push_back(makeExample(m, s, t, ++line));
    return out;
}

// 60 lines in batches of 8: 8 updates an epoch; dropout on, so the step number enters the maths too.
TrainOptions smallRun(int64_t steps) {
    TrainOptions o;
    o.lr = 0.01;
    o.batch_size = 8;
    o.steps = steps;
    o.clip = 1.0;
    o.dropout = 0.1f;
    o.seed = 5;
    o.threads = 2;
    return o;
}

// A model trained `steps` updates with no callback at all.
Model trainedPlainly(int64_t steps) {
    Model m = reverseModel(4);
    const auto data = reverseData(m, 60);
    trainModel(m, data, {}, smallRun(steps));
    return m;
}

struct Seen {
    int64_t step = 0;
    DecodeResult decode;
};

}  // namespace

class TestTrainingHooks : public QObject {
    Q_OBJECT
private slots:
    void snapshotsEqualPlainTraining();
    void pauseAndResumeChangeNothing();
    void stopDuringPauseEndsTheRun();
};

void TestTrainingHooks::snapshotsEqualPlainTraining() {
    Model m = reverseModel(4);
    const auto data = reverseData(m, 60);
    std::vector<Seen> seen;
    TrainCallbacks cb;
    cb.snapshot_every = 7;
    cb.snapshot = [&](const Model& now, const TrainProgress& pr) {
        seen.push_back({pr.step, greedyDecode(now, kProbe)});
    };
    const TrainReport rep = trainModel(m, data, {}, smallRun(24), cb);
    QCOMPARE(rep.steps, int64_t(24));
    QCOMPARE(seen.size(), size_t(4));  // 7, 14, 21 and the last, 24
    QCOMPARE(seen.back().step, int64_t(24));
    QVERIFY(maxAbsDiff(m.params, trainedPlainly(24).params) == 0);  // the hooks changed no bit
    for (const Seen& s : seen) {
        QCOMPARE(s.step % 7 == 0 || s.step == 24, true);
        const DecodeResult plain = greedyDecode(trainedPlainly(s.step), kProbe);
        QCOMPARE(s.decode.target_ids, plain.target_ids);
        QVERIFY2(s.decode.attention == plain.attention, qPrintable(QString("step %1").arg(s.step)));
    }
    // the weights moved between snapshots: the decodes are not all the same picture
    QVERIFY(seen.front().decode.attention != seen.back().decode.attention);
}

// Paused after update 10 (asked from the snapshot callback); the test sees the paused callback, checks that no update
// happens while paused, then resumes. The paused model is the 10-step model; the end is the uninterrupted run's.
void TestTrainingHooks::pauseAndResumeChangeNothing() {
    Model m = reverseModel(4);
    const auto data = reverseData(m, 60);
    TrainGate gate;
    std::mutex mutex;
    std::condition_variable cv;
    bool paused = false;
    int64_t last_step = 0, paused_step = -1;
    ModelParams at_pause;
    TrainCallbacks cb;
    cb.gate = &gate;
    cb.snapshot_every = 10;
    cb.snapshot = [&](const Model&, const TrainProgress& pr) {
        if (pr.step == 10) gate.pause();
    };
    cb.progress = [&](const TrainProgress& pr) {
        std::lock_guard lock(mutex);
        last_step = pr.step;
    };
    cb.paused = [&](const Model& now, const TrainProgress& pr) {
        std::lock_guard lock(mutex);
        paused_step = pr.step;
        at_pause = now.params;
        paused = true;
        cv.notify_all();
    };
    TrainOptions o = smallRun(24);
    o.progress_interval = 0;
    TrainReport rep;
    std::thread trainer([&] { rep = trainModel(m, data, {}, o, cb); });
    {
        std::unique_lock lock(mutex);
        QVERIFY(cv.wait_for(lock, std::chrono::seconds(60), [&] { return paused; }));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    {
        std::lock_guard lock(mutex);
        QCOMPARE(last_step, int64_t(10));  // asleep: no update while paused
        QCOMPARE(paused_step, int64_t(10));
    }
    gate.resume();
    trainer.join();
    QCOMPARE(int(rep.status), int(TrainStatus::Completed));
    QCOMPARE(rep.steps, int64_t(24));
    QVERIFY(maxAbsDiff(at_pause, trainedPlainly(10).params) == 0);
    QVERIFY(maxAbsDiff(m.params, trainedPlainly(24).params) == 0);
}

void TestTrainingHooks::stopDuringPauseEndsTheRun() {
    Model m = reverseModel(4);
    const auto data = reverseData(m, 60);
    TrainGate gate;
    gate.pause();  // paused before the first update
    std::atomic<bool> paused{false};
    std::atomic<int64_t> paused_step{-1};
    TrainCallbacks cb;
    cb.gate = &gate;
    cb.paused = [&](const Model&, const TrainProgress& pr) {
        paused_step = pr.step;
        paused = true;
    };
    TrainReport rep;
    std::thread trainer([&] { rep = trainModel(m, data, {}, smallRun(24), cb); });
    while (!paused) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    gate.stop();
    trainer.join();
    QCOMPARE(int(rep.status), int(TrainStatus::Cancelled));
    QCOMPARE(rep.steps, int64_t(0));
    QCOMPARE(paused_step.load(), int64_t(0));
    QVERIFY(maxAbsDiff(m.params, reverseModel(4).params) == 0);  // nothing trained, the initial weights kept
}

ATTNVIZ_TEST_MAIN(TestTrainingHooks)
#include "test_training_hooks.moc"
