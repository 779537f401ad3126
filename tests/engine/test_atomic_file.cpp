// The atomic file writer (core/io/atomic_file.h) on a failing disk: the injectable write fault (a full disk after
// N bytes, an I/O error) and, where this machine lets a test mount one, a real 64 KiB tmpfs. Whatever fails, the
// old file keeps its bytes, no temporary file is left behind and the error names the path and the OS reason.
// saveModel goes through the same writer and gets the same checks.
#include "base/errors.h"
#include "io/atomic_file.h"
#include "io/model_file.h"
#include "test_files.h"
#include "test_models.h"
#include "test_registry.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cerrno>
#include <string>

#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace attnviz;
using namespace attnviz::testing;

namespace {

// Every entry of the folder except the ones named (a temporary file left behind would show up here).
QStringList entries(const QString& dir) {
    return QDir(dir).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot, QDir::Name);
}

std::string bigText(size_t n) {
    std::string s(n, '\0');
    for (size_t i = 0; i < n; ++i) s[i] = char('a' + i % 26);
    return s;
}

// The fault is process-wide: turned off after each test whatever happens.
struct FaultGuard {
    explicit FaultGuard(WriteFault f) { setWriteFaultForTesting(f); }
    ~FaultGuard() { setWriteFaultForTesting(std::nullopt); }
};

}  // namespace

class TestAtomicFile : public QObject {
    Q_OBJECT
private slots:
    void writesAndReplaces();
    void keepsPermissionsOfReplacedFile();
    void failingDiskKeepsOldFile_data();
    void failingDiskKeepsOldFile();
    void failingDiskLeavesNoNewFile();
    void refusesFolderAndSpecialFiles();
    void missingFolderNamesPath();
    void saveModelOnFailingDiskKeepsOldModel();
    void realSmallTmpfs();
};

void TestAtomicFile::writesAndReplaces() {
    QTemporaryDir dir;
    const QString path = dir.filePath("out.json");
    writeFileAtomically(path.toStdString(), std::string_view("first"));
    QCOMPARE(readFile(path), QByteArray("first"));
    const std::string big = bigText(1 << 20);
    writeFileAtomically(path.toStdString(), big);
    QCOMPARE(readFile(path), QByteArray::fromStdString(big));
    writeFileAtomically(path.toStdString(), std::string_view(""));  // an empty file is a valid output
    QCOMPARE(readFile(path), QByteArray());
    QCOMPARE(entries(dir.path()), QStringList{"out.json"});
}

void TestAtomicFile::keepsPermissionsOfReplacedFile() {
    QTemporaryDir dir;
    const QString path = dir.filePath("model.safetensors");
    writeFileAtomically(path.toStdString(), std::string_view("old"));
    QVERIFY(::chmod(QFile::encodeName(path).constData(), 0640) == 0);
    writeFileAtomically(path.toStdString(), std::string_view("new"));
    struct stat st {};
    QVERIFY(::stat(QFile::encodeName(path).constData(), &st) == 0);
    QCOMPARE(int(st.st_mode & 0777), 0640);
}

void TestAtomicFile::failingDiskKeepsOldFile_data() {
    QTest::addColumn<int>("error");
    QTest::addColumn<qulonglong>("after");
    QTest::addColumn<QString>("reason");
    QTest::newRow("full disk at once") << ENOSPC << 0ULL << "No space left on device";
    QTest::newRow("full disk after 4096 bytes") << ENOSPC << 4096ULL << "No space left on device";
    QTest::newRow("I/O error mid-file") << EIO << 100000ULL << "Input/output error";
    QTest::newRow("quota") << EDQUOT << 1ULL << "Disk quota exceeded";
}

void TestAtomicFile::failingDiskKeepsOldFile() {
    QFETCH(int, error);
    QFETCH(qulonglong, after);
    QFETCH(QString, reason);
    QTemporaryDir dir;
    const QString path = dir.filePath("heatmap.pdf");
    const std::string old = bigText(5000);
    writeFileAtomically(path.toStdString(), old);

    FaultGuard fault({error, after});
    try {
        writeFileAtomically(path.toStdString(), bigText(200000));
        QFAIL("a failing disk must be an error");
    } catch (const WriteError& e) {
        const QString msg = QString::fromLocal8Bit(e.what());
        QVERIFY2(msg.startsWith(path + ": cannot save: write failed"), qPrintable(msg));
        QVERIFY2(msg.contains(reason), qPrintable(msg));
    }
    QCOMPARE(readFile(path), QByteArray::fromStdString(old));   // byte-identical, not emptied or cut
    QCOMPARE(entries(dir.path()), QStringList{"heatmap.pdf"});  // the temporary file is gone
}

void TestAtomicFile::failingDiskLeavesNoNewFile() {
    QTemporaryDir dir;
    const QString path = dir.filePath("new.csv");
    FaultGuard fault({ENOSPC, 10});
    QVERIFY_THROWS_EXCEPTION(WriteError, writeFileAtomically(path.toStdString(), bigText(100)));
    QVERIFY(entries(dir.path()).isEmpty());  // no 0-byte or cut file at the path
}

void TestAtomicFile::refusesFolderAndSpecialFiles() {
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkdir("sub"));
    try {
        writeFileAtomically(dir.filePath("sub").toStdString(), std::string_view("x"));
        QFAIL("a folder must not be replaced");
    } catch (const WriteError& e) {
        QVERIFY2(QString(e.what()).contains("cannot replace a folder"), e.what());
    }
    QVERIFY(QFileInfo(dir.filePath("sub")).isDir());
    const QString fifo = dir.filePath("pipe");
    QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
    try {
        writeFileAtomically(fifo.toStdString(), std::string_view("x"));
        QFAIL("a FIFO must not be replaced");
    } catch (const WriteError& e) {
        QVERIFY2(QString(e.what()).contains("not a regular file"), e.what());
    }
    QVERIFY(QFileInfo(fifo).exists() && !QFileInfo(fifo).isFile());
}

void TestAtomicFile::missingFolderNamesPath() {
    QTemporaryDir dir;
    const QString path = dir.filePath("no/such/folder/out.png");
    try {
        writeFileAtomically(path.toStdString(), std::string_view("x"));
        QFAIL("expected an error");
    } catch (const WriteError& e) {
        const QString msg = QString::fromLocal8Bit(e.what());
        QVERIFY2(msg.startsWith(path + ": cannot save: cannot create a temporary file"), qPrintable(msg));
        QVERIFY2(msg.contains("No such file or directory"), qPrintable(msg));
    }
}

void TestAtomicFile::saveModelOnFailingDiskKeepsOldModel() {
    QTemporaryDir dir;
    const Model a = smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 1);
    const Model b = smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 2);
    const QString path = saveInto(a, dir, "m.safetensors");
    const QByteArray before = readFile(path);
    for (const uint64_t after : {uint64_t(0), uint64_t(4096), uint64_t(before.size() - 1)}) {
        FaultGuard fault({ENOSPC, after});
        try {
            saveModel(b, path.toStdString());
            QFAIL("saveModel on a full disk must throw");
        } catch (const ModelError& e) {
            QVERIFY2(QString(e.what()).contains("No space left on device"), e.what());
        }
        QCOMPARE(readFile(path), before);
        QCOMPARE(entries(dir.path()), QStringList{"m.safetensors"});
    }
    QCOMPARE(serializeModel(loadModel(path.toStdString())), serializeModel(a));
}

void TestAtomicFile::realSmallTmpfs() {
    // A real full disk: a 64 KiB tmpfs in a private mount namespace needs privileges a CI runner may not give.
    QTemporaryDir dir;
    const QByteArray where = QFile::encodeName(dir.path());
    if (::unshare(CLONE_NEWNS) != 0 || ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
        ::mount("tmpfs", where.constData(), "tmpfs", 0, "size=64k") != 0)
        QSKIP("cannot mount a small tmpfs here (needs CAP_SYS_ADMIN); the write fault tests cover a full disk");
    const QString path = dir.filePath("out.json");
    writeFileAtomically(path.toStdString(), std::string_view("{\"old\": true}\n"));
    try {
        writeFileAtomically(path.toStdString(), bigText(200000));
        QFAIL("200 KB on a 64 KiB tmpfs must fail");
    } catch (const WriteError& e) {
        QVERIFY2(QString(e.what()).contains("No space left on device"), e.what());
    }
    QCOMPARE(readFile(path), QByteArray("{\"old\": true}\n"));
    QCOMPARE(entries(dir.path()), QStringList{"out.json"});
    (void)::umount(where.constData());
}

ATTNVIZ_TEST_MAIN(TestAtomicFile)
#include "test_atomic_file.moc"
