// Large weight matrices on 2 MB pages (core/kernels/huge_pages.h): the kernel's own account of the process's memory
// (/proc/self/smaps) must show huge pages inside a large model's fc_out, when the machine offers them at all.
#include "kernels/huge_pages.h"
#include "model/model.h"
#include "test_models.h"
#include "test_registry.h"

#include <QtTest>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace attnviz;
using namespace attnviz::testing;

namespace {

// Whether transparent huge pages can be had on request ("always" or "madvise" selected).
bool hugePagesOnRequest() {
    std::ifstream f("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string line;
    return std::getline(f, line) && line.find("[never]") == std::string::npos;
}

// kB of huge pages in the mappings that overlap [begin, end), from /proc/self/smaps.
std::int64_t hugeKbIn(const void* begin_p, std::size_t bytes) {
    const auto begin = reinterpret_cast<std::uintptr_t>(begin_p), end = begin + bytes;
    std::ifstream f("/proc/self/smaps");
    std::string line;
    bool inside = false;
    std::int64_t kb = 0;
    while (std::getline(f, line)) {
        std::uintptr_t lo = 0, hi = 0;
        char dash = 0;
        std::istringstream head(line);
        if (head >> std::hex >> lo >> dash >> hi && dash == '-') {
            inside = lo < end && hi > begin;
            continue;
        }
        if (inside && line.rfind("AnonHugePages:", 0) == 0) kb += std::stoll(line.substr(14));
    }
    return kb;
}

}  // namespace

class TestHugePages : public QObject {
    Q_OBJECT

private slots:
    void zeroedWithTheRightShape();
    void largeWeightsOnHugePages();
};

void TestHugePages::zeroedWithTheRightShape() {
    for (auto [rows, cols] : {std::pair{0, 0}, {3, 5}, {1500, 1000}}) {
        Mat m = Mat::Constant(7, 7, 1.0f);
        zeroOnHugePages(m, rows, cols);
        QCOMPARE(m.rows(), Eigen::Index(rows));
        QCOMPARE(m.cols(), Eigen::Index(cols));
        QVERIFY(m.size() == 0 || m.cwiseAbs().maxCoeff() == 0.0f);
    }
}

void TestHugePages::largeWeightsOnHugePages() {
#if !defined(__linux__)
    QSKIP("transparent huge pages are a Linux feature");
#endif
    if (!hugePagesOnRequest()) QSKIP("this kernel has transparent huge pages off ([never])");
    // fc_out (2004, 512 + 256 + 256) floats = 8.2 MB: at least three whole 2 MB pages whatever its alignment.
    std::vector<std::string> words;
    for (int i = 0; i < 2000; ++i) words.push_back("w" + std::to_string(i));
    const Vocabulary vocab = vocabWith(words);
    const ModelConfig cfg =
        smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive, SpanKind::Global, false, 256, 128, 512);
    const Model m = makeRandomModel(cfg, vocab, vocab, 3);
    const Mat& w = m.params.fc_out_w;
    QVERIFY(w.size() * 4 > (std::int64_t(6) << 20));
    const std::int64_t kb = hugeKbIn(w.data(), std::size_t(w.size()) * 4);
    // The kernel may still decline (memory too fragmented to find a 2 MB page): it must not decline every one.
    QVERIFY2(kb >= 2048, qPrintable(QString("%1 kB of huge pages in fc_out's %2 kB").arg(kb).arg(w.size() * 4 / 1024)));
}

ATTNVIZ_TEST_MAIN(TestHugePages)
#include "test_huge_pages.moc"
