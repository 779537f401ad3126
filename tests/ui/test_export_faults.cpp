// The window's exports (exportHeatmap: PNG, SVG, PDF, CSV, JSON) on a failing disk go through core's atomic writer
// and get its guarantees: false with "PATH: cannot save: write failed: REASON", the old file byte-identical, no
// temporary file left, whether the disk fails at once, mid-file or with an I/O error.
#include "decode/decoding.h"
#include "heatmap/heatmap_export.h"
#include "io/atomic_file.h"
#include "test_files.h"
#include "test_models.h"
#include "test_registry.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cerrno>

using namespace attnviz;
using namespace attnviz::ui;

using attnviz::testing::readFile;
using attnviz::testing::writeFile;

namespace {

const Model& faultsModel() {
    // Never destroyed: see test_heatmap_view.cpp (Eigen buffers freed across the -march=native boundary).
    static const Model* m =
        new Model(testing::smallModel(testing::smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 5, 3.0f));
    return *m;
}

}  // namespace

class TestExportFaults : public QObject {
    Q_OBJECT
private slots:
    void failingDiskKeepsOldExport_data();
    void failingDiskKeepsOldExport();
};

void TestExportFaults::failingDiskKeepsOldExport_data() {
    QTest::addColumn<QString>("ext");
    QTest::addColumn<int>("error");
    QTest::addColumn<qulonglong>("after");
    QTest::addColumn<bool>("replace");
    for (const char* ext : {"png", "svg", "pdf", "csv", "json"})
        for (const bool replace : {false, true}) {
            QTest::addRow("%s %s full at once", ext, replace ? "replacing" : "new") << ext << ENOSPC << 0ULL << replace;
            QTest::addRow("%s %s full after 100 bytes", ext, replace ? "replacing" : "new")
                << ext << ENOSPC << 100ULL << replace;
            QTest::addRow("%s %s I/O error", ext, replace ? "replacing" : "new") << ext << EIO << 64ULL << replace;
        }
}

void TestExportFaults::failingDiskKeepsOldExport() {
    QFETCH(QString, ext);
    QFETCH(int, error);
    QFETCH(qulonglong, after);
    QFETCH(bool, replace);
    QTemporaryDir dir;
    const QString path = dir.filePath("export." + ext);
    const QByteArray old = "an older export, which must be kept";
    if (replace) {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(old);
    }
    const DecodeResult r = forcedDecode(faultsModel(), "the cat sat on the mat .", "猫 坐 在 垫子 上 。");
    QString message;
    setWriteFaultForTesting(WriteFault{error, after});
    const bool ok = exportHeatmap(HeatmapData::fromDecode(r), r, faultsModel().config, path, ExportOptions{}, &message);
    setWriteFaultForTesting(std::nullopt);
    QVERIFY(!ok);
    const QString reason = error == EIO ? "Input/output error" : "No space left on device";
    QCOMPARE(message, path + ": cannot save: write failed: " + reason);
    QCOMPARE(readFile(path), replace ? old : QByteArray("<missing>"));
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), replace ? 1 : 0);

    QVERIFY2(exportHeatmap(HeatmapData::fromDecode(r), r, faultsModel().config, path, ExportOptions{}, &message),
             qPrintable(message));  // and with a working disk the export is written
    QVERIFY(readFile(path).size() > old.size());
}

ATTNVIZ_TEST_MAIN(TestExportFaults)
#include "test_export_faults.moc"
