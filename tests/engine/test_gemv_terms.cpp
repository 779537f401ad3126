// The column-block kernels of kernels/gemv_terms.h and the two-core primitives they run on (kernels/row_split.h):
// products against double precision for sizes that leave every kind of tail (rows not a multiple of 4, columns not a
// multiple of a SIMD packet, blocks inside a wider matrix), the same bits whichever core computed which rows, and
// every chunk of shared work done exactly once.
#include "kernels/gemv_terms.h"
#include "kernels/row_split.h"
#include "test_registry.h"
#include "tolerance.h"
#include "two_cores.h"

#include <QtTest>
#include <atomic>
#include <chrono>
#include <cmath>
#include <map>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>

using namespace attnviz;
using attnviz::testing::close;
using attnviz::testing::twoCores;

namespace {

Eigen::MatrixXd exactRowMajor(const Mat& m) { return m.cast<double>(); }

}  // namespace

class TestGemvTerms : public QObject {
    Q_OBJECT

private slots:
    void termsMatchDouble_data();
    void termsMatchDouble();
    void jobsMatchTermsBitForBit();
    void apartIsSummedOnItsOwn_data();
    void apartIsSummedOnItsOwn();
    void manyEqualsLoneTermsBitForBit_data();
    void manyEqualsLoneTermsBitForBit();
    void projectMatchesDoubleAndPads_data();
    void projectMatchesDoubleAndPads();
    void projectingPassEqualsTwoPasses_data();
    void projectingPassEqualsTwoPasses();
    void shareChunksDoesEachOnce();
    void cursorStartsEachCoreWhereItStopped();
    void runBothRunsBothAndNests();
    void exceptionsReachTheCaller();
    void poolRunsEveryTaskOnce();
};

void TestGemvTerms::termsMatchDouble_data() {
    QTest::addColumn<int>("rows");
    QTest::addColumn<bool>("split");
    // With splitting on, products from 1 MB read are shared between the cores: here from 2,946 rows (89 columns).
    for (int rows : {1, 3, 4, 7, 33, 2049})
        for (bool split : {false, true})
            QTest::addRow("%d rows%s", rows, split ? ", splitting on" : "") << rows << split;
    QTest::addRow("6001 rows (2.1 MB read: both cores)") << 6001 << true;
}

// y = W[:, 0:37]·a + W[:, 50:83]·b + P·c: two blocks of a wider matrix (the columns between them must not count)
// and a second matrix, with scalar tails after the last whole packet.
void TestGemvTerms::termsMatchDouble() {
    QFETCH(int, rows);
    QFETCH(bool, split);
    ThreadPool* pool = split ? &twoCores() : nullptr;
    std::srand(rows);
    const Mat W = Mat::Random(rows, 240), P = Mat::Random(rows, 19);
    const Vec a = Vec::Random(37), b = Vec::Random(33), c = Vec::Random(19);
    const GemvTerm terms[] = {columnsOf(W, 0, 37, a.data()), columnsOf(W, 50, 33, b.data()),
                              columnsOf(P, 0, 19, c.data())};
    Vec y = Vec::Constant(rows, std::nanf(""));
    gemvTerms(terms, rows, y.data(), pool);
    const Eigen::MatrixXd w = exactRowMajor(W), p = exactRowMajor(P);
    const Eigen::VectorXd expect =
        w.middleCols(0, 37) * a.cast<double>() + w.middleCols(50, 33) * b.cast<double>() + p * c.cast<double>();
    for (int r = 0; r < rows; ++r)
        QVERIFY2(close(y[r], expect[r], 1e-4),
                 qPrintable(QString("row %1: %2, expected %3").arg(r).arg(y[r]).arg(expect[r])));

    if (split) {  // shared between the cores (or not): the same bits as one core
        Vec one(rows);
        pool = nullptr;
        gemvTerms(terms, rows, one.data(), pool);
        for (int r = 0; r < rows; ++r) QCOMPARE(y[r], one[r]);
    }
}

// Several jobs in one pool of chunks (the bahdanau step's phase 1) give what each gives alone, to the bit.
void TestGemvTerms::jobsMatchTermsBitForBit() {
    ThreadPool* pool = &twoCores();
    std::srand(3);
    const Mat A = Mat::Random(1537, 512), B = Mat::Random(1537, 300), C = Mat::Random(513, 517);  // 5.8 MB read
    const Vec a = Vec::Random(512), b = Vec::Random(256), c = Vec::Random(517);
    const GemvTerm ta = columnsOf(A, 0, 512, a.data()), tb = columnsOf(B, 44, 256, b.data()),
                   tc = columnsOf(C, 0, 517, c.data());
    Vec ya(A.rows()), yb(B.rows()), yc(C.rows());
    const GemvJob jobs[] = {
        {{&ta, 1}, A.rows(), ya.data()}, {{&tb, 1}, B.rows(), yb.data()}, {{&tc, 1}, C.rows(), yc.data()}};
    for (int repeat = 0; repeat < 20; ++repeat) {  // whichever core takes which chunk, each time
        ya.setConstant(std::nanf(""));
        yb.setConstant(std::nanf(""));
        yc.setConstant(std::nanf(""));
        gemvJobs(jobs, pool);
        Vec ea(A.rows()), eb(B.rows()), ec(C.rows());
        pool = nullptr;
        gemvTerms({&ta, 1}, A.rows(), ea.data(), pool);
        gemvTerms({&tb, 1}, B.rows(), eb.data(), pool);
        gemvTerms({&tc, 1}, C.rows(), ec.data(), pool);
        pool = &twoCores();
        QCOMPARE(ya, ea);
        QCOMPARE(yb, eb);
        QCOMPARE(yc, ec);
    }
    const Eigen::VectorXd exact = exactRowMajor(B).middleCols(44, 256) * b.cast<double>();
    for (int r = 0; r < B.rows(); ++r) QVERIFY(close(yb[r], exact[r], 1e-4));
}

void TestGemvTerms::apartIsSummedOnItsOwn_data() {
    QTest::addColumn<bool>("split");
    QTest::addRow("one core") << false;
    QTest::addRow("splitting on") << true;
}

// A job's `apart` terms are read in the same pass as its terms (a token table's row computed with the logits): each
// of the two sums must be bit for bit what a product of its own gives, in gemvJobs and in gemvTermsProjecting.
void TestGemvTerms::apartIsSummedOnItsOwn() {
    QFETCH(bool, split);
    ThreadPool* pool = nullptr;
    std::srand(17);
    constexpr int rows = 3001, S = 13, kS = 70, kX = 45, kC = 300;  // 3001: a row past the last four; 5 MB read
    const Mat W = Mat::Random(rows, kS + kC + kX), H = Mat::Random(S, kC);
    const Vec s = Vec::Random(kS), x = Vec::Random(kX);
    Vec a = Vec::Zero(paddedColumns(S));
    a.head(S) = Vec::Random(S).cwiseAbs();
    const GemvTerm sc[] = {columnsOf(W, 0, kS, s.data()), columnsOf(W, kS, kC, nullptr)};
    const GemvTerm apart = columnsOf(W, kS + kC, kX, x.data());
    Mat projection;
    projectRows(sc[1], rows, H, projection, pool);
    const GemvTerm terms[] = {sc[0], {projection.data(), projection.outerStride(), projection.cols(), a.data()}};

    pool = nullptr;
    Vec expected(rows), expected_apart(rows);
    gemvTerms(terms, rows, expected.data(), pool);
    gemvTerms({&apart, 1}, rows, expected_apart.data(), pool);
    const Eigen::VectorXd exact = exactRowMajor(W).rightCols(kX) * x.cast<double>();
    for (int r = 0; r < rows; ++r) QVERIFY(close(expected_apart[r], exact[r], 1e-4));

    pool = split ? &twoCores() : nullptr;
    Vec y(rows), y_apart(rows);
    const GemvJob job{terms, rows, y.data(), {&apart, 1}, y_apart.data()};
    ChunkCursor cursor;
    for (int repeat = 0; repeat < 10; ++repeat) {
        y.setConstant(std::nanf(""));
        y_apart.setConstant(std::nanf(""));
        gemvJobs({&job, 1}, pool, &cursor);
        QCOMPARE(y, expected);
        QCOMPARE(y_apart, expected_apart);
    }
    // The first step's pass: the projection and the logits, with the apart term.
    Mat projected;
    y_apart.setConstant(std::nanf(""));
    gemvTermsProjecting({sc, 1}, sc[1], H, a.data(), rows, projected, y.data(), pool, {&apart, 1}, y_apart.data());
    QCOMPARE(projected, projection);
    QCOMPARE(y, expected);
    QCOMPARE(y_apart, expected_apart);
}

void TestGemvTerms::manyEqualsLoneTermsBitForBit_data() {
    QTest::addColumn<int>("rows");
    QTest::addColumn<bool>("split");
    QTest::addRow("7 rows") << 7 << false;
    QTest::addRow("1001 rows, one core") << 1001 << false;
    QTest::addRow("1001 rows, splitting on (7.8 MB read)") << 1001 << true;
}

// gemvMany (TokenTables::computeAll) must give, for each vector, the bits gemvTerms gives for it alone: a table row
// filled in advance and one a decoder step computed must be the same.
void TestGemvTerms::manyEqualsLoneTermsBitForBit() {
    QFETCH(int, rows);
    QFETCH(bool, split);
    ThreadPool* pool = split ? &twoCores() : nullptr;
    std::srand(rows + 11);
    constexpr int kCols = 53;  // one double packet, one packet and a scalar tail with AVX-512
    const Mat W = Mat::Random(rows, 20 + kCols + 9), X = Mat::Random(37, kCols);
    const GemvTerm block = columnsOf(W, 20, kCols, nullptr);
    Mat out = Mat::Constant(X.rows(), rows + 3, std::nanf(""));  // a wider stride: the last 3 columns stay NaN
    gemvMany(block, rows, X, out.data(), out.outerStride(), pool);
    const Eigen::MatrixXd exact = exactRowMajor(W).middleCols(20, kCols) * X.cast<double>().transpose();  // (rows, 37)
    pool = nullptr;
    for (int k = 0; k < X.rows(); ++k) {
        GemvTerm lone = block;
        lone.x = X.row(k).data();
        Vec expected(rows);
        gemvTerms({&lone, 1}, rows, expected.data(), pool);
        const Vec got = out.row(k).head(rows).transpose();
        QCOMPARE(got, expected);
        for (int r = 0; r < rows; ++r) QVERIFY(close(got[r], exact(r, k), 1e-4));
        for (int c = rows; c < rows + 3; ++c) QVERIFY(std::isnan(out(k, c)));
    }
}

void TestGemvTerms::projectMatchesDoubleAndPads_data() {
    QTest::addColumn<int>("rows");
    QTest::addColumn<int>("S");
    // S = 13: two blocks of 6 vectors and one left over; 5: one block of 3 and two of 1; 2001 rows read 2.4 MB: split.
    for (int S : {1, 5, 12, 13}) QTest::addRow("7 rows, S = %d", S) << 7 << S;
    QTest::addRow("2001 rows, S = 13 (split)") << 2001 << 13;
}

// out = W[:, 100:100+300] · Hᵀ in columns [0, S), zeros after, against double; split or not, the same bits; and
// projectVectors gives its transpose.
void TestGemvTerms::projectMatchesDoubleAndPads() {
    QFETCH(int, rows);
    QFETCH(int, S);
    ThreadPool* pool = nullptr;
    std::srand(rows + S);
    const Mat W = Mat::Random(rows, 450), H = Mat::Random(S, 300);
    const GemvTerm block = columnsOf(W, 100, 300, nullptr);
    Mat out, one;
    pool = &twoCores();
    projectRows(block, rows, H, out, pool);
    pool = nullptr;
    projectRows(block, rows, H, one, pool);
    QCOMPARE(out.rows(), Eigen::Index(rows));
    QCOMPARE(out.cols(), paddedColumns(S));
    QVERIFY(out.cols() >= S && out.cols() % 4 == 0);
    const Eigen::MatrixXd exact = exactRowMajor(W).middleCols(100, 300) * H.cast<double>().transpose();
    for (int r = 0; r < rows; ++r) {
        for (int j = 0; j < S; ++j)
            QVERIFY2(close(out(r, j), exact(r, j), 1e-4), qPrintable(QString("(%1, %2)").arg(r).arg(j)));
        for (Eigen::Index j = S; j < out.cols(); ++j) QCOMPARE(out(r, j), 0.0f);
    }
    QCOMPARE(out, one);

    // projectVectors: the same numbers, one row per vector (the encoder's input projections and keys).
    Mat by_vector;
    projectVectors(block, rows, H, by_vector, pool);
    QCOMPARE(by_vector.rows(), Eigen::Index(S));
    QCOMPARE(by_vector.cols(), Eigen::Index(rows));
    QVERIFY(by_vector == out.leftCols(S).transpose());
}

void TestGemvTerms::projectingPassEqualsTwoPasses_data() {
    QTest::addColumn<int>("rows");
    QTest::addColumn<bool>("split");
    for (int rows : {1, 6, 37})
        for (bool split : {false, true})
            QTest::addRow("%d rows%s", rows, split ? ", splitting on" : "") << rows << split;
    QTest::addRow("1999 rows (4.6 MB read: both cores)") << 1999 << true;
}

// The first bahdanau step's fused pass (gemvTermsProjecting): W = [s | c | x] columns like fc_out. The projection
// is projectRows' W_c · Hᵀ and the sum is gemvTerms over [s, x, {projection, a}], bit for bit, and both match double.
void TestGemvTerms::projectingPassEqualsTwoPasses() {
    QFETCH(int, rows);
    QFETCH(bool, split);
    ThreadPool* pool = split ? &twoCores() : nullptr;
    std::srand(rows + 7);
    constexpr int S = 13, kS = 70, kC = 300, kX = 45;  // c is not a multiple of a packet: scalar tails everywhere
    const Mat W = Mat::Random(rows, kS + kC + kX), H = Mat::Random(S, kC);
    const Vec s = Vec::Random(kS), x = Vec::Random(kX);
    Vec a = Vec::Zero(paddedColumns(S));
    a.head(S) = Vec::Random(S).cwiseAbs();
    const GemvTerm block = columnsOf(W, kS, kC, nullptr);
    const GemvTerm sx[] = {columnsOf(W, 0, kS, s.data()), columnsOf(W, kS + kC, kX, x.data())};

    Mat projection;
    Vec y(rows);
    gemvTermsProjecting(sx, block, H, a.data(), rows, projection, y.data(), pool);

    Mat expected_projection;
    projectRows(block, rows, H, expected_projection, pool);
    QCOMPARE(projection, expected_projection);
    const GemvTerm three[] = {sx[0], sx[1], {projection.data(), projection.outerStride(), projection.cols(), a.data()}};
    Vec expected(rows);
    gemvTerms(three, rows, expected.data(), pool);
    QCOMPARE(y, expected);

    // y = W_s s + W_x x + W_c (Hᵀ a), the unfolded sum, in double.
    const Eigen::MatrixXd Wd = exactRowMajor(W);
    const Eigen::VectorXd c = H.cast<double>().transpose() * a.head(S).cast<double>();
    const Eigen::VectorXd exact =
        Wd.leftCols(kS) * s.cast<double>() + Wd.middleCols(kS, kC) * c + Wd.rightCols(kX) * x.cast<double>();
    for (int r = 0; r < rows; ++r) QVERIFY2(close(y[r], exact[r], 1e-4), qPrintable(QString("row %1").arg(r)));
}

void TestGemvTerms::shareChunksDoesEachOnce() {
    ThreadPool* pool = &twoCores();
    for (Eigen::Index chunks : {0, 1, 2, 3, 100, 1001}) {
        std::vector<std::atomic<int>> done(static_cast<size_t>(chunks));
        for (int repeat = 0; repeat < 30; ++repeat) {
            auto work = [](void* c, Eigen::Index i) {
                (*static_cast<std::vector<std::atomic<int>>*>(c))[size_t(i)] += 1;
            };
            shareChunks(chunks, work, &done, pool);
        }
        for (Eigen::Index i = 0; i < chunks; ++i) QCOMPARE(done[size_t(i)].load(), 30);
    }
}

// shareChunks with a cursor, call after call: every chunk once per call; each thread takes a run of neighbours on the
// ring, one way; and a thread that took chunks in two calls in a row starts the second on the chunk it took last
// (which is what keeps that chunk's data in its L2). With splitting off, one thread goes back and forth.
void TestGemvTerms::cursorStartsEachCoreWhereItStopped() {
    ThreadPool* pool = nullptr;
    for (bool split : {true, false}) {
        pool = split ? &twoCores() : nullptr;
        for (Eigen::Index chunks : {0, 1, 2, 3, 100, 1001}) {
            struct Log {
                std::mutex m;
                std::map<std::thread::id, std::vector<Eigen::Index>> taken;  // per thread, in order
            };
            ChunkCursor cursor;
            std::map<std::thread::id, Eigen::Index> last;  // the last chunk each thread took in the previous call
            int resumed = 0;
            for (int call = 0; call < 30; ++call) {
                Log log;
                auto work = [](void* c, Eigen::Index i) {
                    Log& l = *static_cast<Log*>(c);
                    std::lock_guard lock(l.m);
                    l.taken[std::this_thread::get_id()].push_back(i);
                };
                shareChunks(chunks, work, &log, cursor, pool);
                std::vector<int> done(size_t(chunks), 0);
                for (const auto& [thread, seq] : log.taken) {
                    for (size_t k = 0; k < seq.size(); ++k) {
                        QVERIFY(seq[k] >= 0 && seq[k] < chunks);
                        done[size_t(seq[k])] += 1;
                    }
                    for (size_t k = 2; k < seq.size(); ++k)  // one direction: the same step around the ring
                        QCOMPARE((seq[k] - seq[k - 1] + chunks) % chunks, (seq[1] - seq[0] + chunks) % chunks);
                    if (seq.size() >= 2) {
                        const Eigen::Index step = (seq[1] - seq[0] + chunks) % chunks;
                        QVERIFY2(step == 1 || step == chunks - 1,
                                 qPrintable(QString("step %1 of %2").arg(step).arg(chunks)));
                    }
                    if (auto it = last.find(thread); it != last.end() && chunks > 1) {
                        QCOMPARE(seq.front(), it->second);
                        ++resumed;
                    }
                }
                for (Eigen::Index i = 0; i < chunks; ++i) QCOMPARE(done[size_t(i)], 1);
                last.clear();
                for (const auto& [thread, seq] : log.taken)
                    if (!seq.empty()) last[thread] = seq.back();
            }
            if (chunks > 1) QVERIFY(resumed >= 29);  // the check above ran at least once per call
        }
    }
}

// Both tasks run, on two threads when splitting is on; work that splits again from inside a task (the helper is
// taken) runs on the calling thread instead of waiting for itself.
void TestGemvTerms::runBothRunsBothAndNests() {
    ThreadPool* pool = nullptr;
    for (bool split : {true, false}) {
        pool = split ? &twoCores() : nullptr;
        std::atomic<int> mine{0}, other{0};
        std::mutex m;
        std::vector<int> rows_seen(1000, 0);
        auto nested = [&](Eigen::Index b, Eigen::Index e) {
            std::lock_guard lock(m);
            for (Eigen::Index i = b; i < e; ++i) rows_seen[size_t(i)] += 1;
        };
        auto a = [&] {
            mine += 1;
            splitRows(1000, std::int64_t(64) << 20, nested, pool);
        };
        auto b = [&] {
            other += 1;
            splitRows(1000, std::int64_t(64) << 20, nested, pool);
        };
        runBoth(a, b, pool);
        QCOMPARE(mine.load(), 1);
        QCOMPARE(other.load(), 1);
        for (int seen : rows_seen) QCOMPARE(seen, 2);
    }
}

// A task that throws (bad_alloc on a long sentence, say) reaches the caller as an exception once the other side has
// finished with the caller's stack, whichever side threw; the helper stays usable.
void TestGemvTerms::exceptionsReachTheCaller() {
    ThreadPool* pool = &twoCores();
    std::atomic<int> finished{0};
    auto slow = [&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        finished += 1;
    };
    auto fails = [] { throw std::runtime_error("task failed"); };
    for (int repeat = 0; repeat < 3; ++repeat) {
        finished = 0;
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, runBoth(fails, slow, pool));  // this thread's task throws
        QCOMPARE(finished.load(), 1);  // the helper's task ran to its end before runBoth returned
        finished = 0;
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, runBoth(slow, fails, pool));  // the helper's task throws
        QCOMPARE(finished.load(), 1);
    }
    // splitRows: the half that throws, on either thread.
    for (Eigen::Index bad_row : {Eigen::Index(0), Eigen::Index(999)}) {
        auto work = [&](Eigen::Index b, Eigen::Index e) {
            if (bad_row >= b && bad_row < e) throw std::runtime_error("row failed");
        };
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, splitRows(1000, std::int64_t(64) << 20, work, pool));
    }
    // Still works afterwards.
    std::vector<int> seen(1000, 0);
    auto count = [&](Eigen::Index b, Eigen::Index e) {
        for (Eigen::Index i = b; i < e; ++i) seen[size_t(i)] += 1;
    };
    splitRows(1000, std::int64_t(64) << 20, count, pool);
    for (int v : seen) QCOMPARE(v, 1);
}

// ThreadPool::run: every task once, on as many threads as there are tasks when helpers are free (the pool grows to
// them), on this thread when they are taken (called from inside a task); the lowest failing task's exception reaches
// the caller after every task has run, and the pool stays usable.
void TestGemvTerms::poolRunsEveryTaskOnce() {
    ThreadPool pool(0);
    QCOMPARE(pool.helpers(), 0);
    for (int tasks : {0, 1, 2, 5}) {
        std::mutex m;
        std::map<int, std::thread::id> thread_of;
        auto task = [&](int k) {
            std::this_thread::sleep_for(std::chrono::milliseconds(5));  // the tasks overlap
            std::lock_guard lock(m);
            QVERIFY(thread_of.emplace(k, std::this_thread::get_id()).second);
        };
        pool.run(tasks, task);
        QCOMPARE(int(thread_of.size()), tasks);
        std::set<std::thread::id> threads;
        for (const auto& [k, id] : thread_of) threads.insert(id);
        QCOMPARE(int(threads.size()), tasks);  // every helper was free: one thread per task
        QCOMPARE(pool.helpers(), std::max(0, tasks - 1));
    }
    // Nested: a task that runs tasks of its own while every helper may be taken.
    std::vector<std::atomic<int>> done(4 * 3);
    auto outer = [&](int k) {
        auto inner = [&](int i) { done[size_t(k * 3 + i)] += 1; };
        pool.run(3, inner);
    };
    pool.run(4, outer);
    for (const auto& d : done) QCOMPARE(d.load(), 1);

    std::atomic<int> ran{0};
    auto failing = [&](int k) {
        ran += 1;
        if (k == 2 || k == 3) throw std::runtime_error("task " + std::to_string(k));
    };
    try {
        pool.run(5, failing);
        QFAIL("no exception");
    } catch (const std::runtime_error& e) {
        QCOMPARE(std::string(e.what()), std::string("task 2"));
    }
    QCOMPARE(ran.load(), 5);
    std::atomic<int> after{0};
    auto count = [&](int) { after += 1; };
    pool.run(4, count);
    QCOMPARE(after.load(), 4);
}

ATTNVIZ_TEST_MAIN(TestGemvTerms)
#include "test_gemv_terms.moc"
