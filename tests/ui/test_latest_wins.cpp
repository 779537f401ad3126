// "The latest request wins, off the UI thread" (state/latest_wins.h), the one scheduler of the window's decodes, the
// compare view's B and the explanations: of requests made in a row only the last one's result is delivered, on the
// UI thread; a running request sees itself stale as soon as a newer one (or cancelAll) comes in and may stop early;
// a request stale before its turn never runs; the runner is busy exactly while a delivery is owed.
#include "state/latest_wins.h"
#include "test_registry.h"

#include <QTest>
#include <QThread>

#include <atomic>
#include <chrono>
#include <thread>

using namespace attnviz::ui;

class TestLatestWins : public QObject {
    Q_OBJECT
private slots:
    void onlyTheLastRequestIsDeliveredOnTheUiThread();
    void aRunningRequestSeesItselfStaleAndStopsEarly();
    void cancelAllDropsTheRunningResult();
};

namespace {

// Waits (running the event loop) until `done` or 10 s.
template <class Done>
bool waitFor(Done done) {
    for (int i = 0; i < 1000 && !done(); ++i) QTest::qWait(10);
    return done();
}

}  // namespace

void TestLatestWins::onlyTheLastRequestIsDeliveredOnTheUiThread() {
    LatestWins runner;
    std::atomic<bool> started{false}, release{false};
    std::atomic<int> ran{0};
    QList<int> delivered;
    QThread* delivered_on = nullptr;
    // The first request holds the runner's thread, so the second is stale before its turn: it never runs.
    runner.submit(
        [&] {
            started = true;
            for (int i = 0; i < 10000 && !release; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
            ++ran;
            return 1;
        },
        [&](int v) { delivered << v; });
    QVERIFY(waitFor([&] { return started.load(); }));
    runner.submit(
        [&] {
            ++ran;
            return 2;
        },
        [&](int v) { delivered << v; });
    runner.submit(
        [&] {
            ++ran;
            return 3;
        },
        [&](int v) {
            delivered << v;
            delivered_on = QThread::currentThread();
        });
    QVERIFY(runner.isBusy());
    release = true;
    QVERIFY(waitFor([&] { return !runner.isBusy(); }));
    QCOMPARE(delivered, QList<int>{3});
    QCOMPARE(delivered_on, QThread::currentThread());
    QCOMPARE(ran.load(), 2);  // the first (already running) and the last; the second was skipped
}

void TestLatestWins::aRunningRequestSeesItselfStaleAndStopsEarly() {
    LatestWins runner;
    std::atomic<bool> started{false}, saw_stale{false};
    QList<QString> delivered;
    runner.submit(
        [&](const LatestWins::Stale& stale) {
            started = true;
            for (int i = 0; i < 10000 && !stale(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
            saw_stale = stale();
            return QStringLiteral("old");
        },
        [&](QString v) { delivered << v; });
    QVERIFY(waitFor([&] { return started.load(); }));
    runner.submit(
        [](const LatestWins::Stale& stale) { return stale() ? QStringLiteral("stale") : QStringLiteral("new"); },
        [&](QString v) { delivered << v; });
    QVERIFY(waitFor([&] { return !runner.isBusy(); }));
    QVERIFY(saw_stale.load());
    QCOMPARE(delivered, QList<QString>{QStringLiteral("new")});
}

void TestLatestWins::cancelAllDropsTheRunningResult() {
    LatestWins runner;
    std::atomic<bool> started{false};
    int delivered = 0;
    runner.submit(
        [&](const LatestWins::Stale& stale) {
            started = true;
            for (int i = 0; i < 10000 && !stale(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
            return 1;
        },
        [&](int) { ++delivered; });
    QVERIFY(waitFor([&] { return started.load(); }));
    runner.cancelAll();
    QVERIFY(waitFor([&] { return !runner.isBusy(); }));
    QCOMPARE(delivered, 0);
}

ATTNVIZ_TEST_MAIN(TestLatestWins)
#include "test_latest_wins.moc"
