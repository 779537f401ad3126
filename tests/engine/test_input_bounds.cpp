// Bounded, checked inputs (docs/robustness.md): the readers refuse special files before reading (a FIFO with no
// writer must not block, /dev/zero must not fill memory), name a symlink loop as such, refuse over-long lines
// naming the line, and the model loader refuses trailing bytes and gaps between tensors; a config whose weights
// cannot fit in memory is refused with the size it would need.
#include "base/errors.h"
#include "io/corpus.h"
#include "io/input_file.h"
#include "io/model_file.h"
#include "model/config.h"
#include "safetensors_bytes.h"
#include "test_models.h"
#include "test_registry.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <functional>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

using namespace attnviz;
using namespace attnviz::testing;

namespace {

// The message of the exception `f` throws (of type E), or "" if it throws nothing.
template <typename E>
QString messageOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const E& e) {
        return QString::fromLocal8Bit(e.what());
    }
    return {};
}

// A model file whose tensor with the largest offset starts `gap` bytes later than it should (bytes inserted).
std::vector<uint8_t> withGap(const std::vector<uint8_t>& file, uint64_t gap) {
    uint64_t n = 0;
    for (int i = 7; i >= 0; --i) n = (n << 8) | file[size_t(i)];
    nlohmann::ordered_json head = nlohmann::ordered_json::parse(file.begin() + 8, file.begin() + 8 + long(n));
    std::string last;
    uint64_t last_begin = 0;
    for (auto& [key, value] : head.items())
        if (key != "__metadata__" && value["data_offsets"][0].get<uint64_t>() >= last_begin) {
            last = key;
            last_begin = value["data_offsets"][0].get<uint64_t>();
        }
    auto& offsets = head[last]["data_offsets"];
    offsets = {last_begin + gap, offsets[1].get<uint64_t>() + gap};
    std::string text = head.dump();
    text.append((8 - text.size() % 8) % 8, ' ');
    std::vector<uint8_t> out(8);
    for (int i = 0; i < 8; ++i) out[size_t(i)] = uint8_t(text.size() >> (8 * i));
    out.insert(out.end(), text.begin(), text.end());
    const auto data = file.begin() + 8 + long(n);
    out.insert(out.end(), data, data + long(last_begin));
    out.insert(out.end(), gap, uint8_t(0));
    out.insert(out.end(), data + long(last_begin), file.end());
    return out;
}

}  // namespace

class TestInputBounds : public QObject {
    Q_OBJECT
private slots:
    void specialFilesAreRefusedBeforeReading_data();
    void specialFilesAreRefusedBeforeReading();
    void longLineIsRefusedNamingIt();
    void modelWithTrailingBytesIsRefused();
    void modelWithGapIsRefused();
    void modelLoaderRefusesFifoWithoutBlocking();
    void hugeConfigIsRefusedWithItsSize();
};

void TestInputBounds::specialFilesAreRefusedBeforeReading_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("expected");
    QTest::newRow("FIFO with no writer") << "fifo"
                                         << "is a FIFO (named pipe), not a regular file";
    QTest::newRow("/dev/zero") << "zero"
                               << "is a character device, not a regular file";
    QTest::newRow("directory") << "dir"
                               << "is a directory, not a file";
    QTest::newRow("symlink loop") << "loop"
                                  << "cannot open: Too many levels of symbolic links (a symlink loop?)";
    QTest::newRow("missing") << "missing"
                             << "cannot open: No such file or directory";
}

void TestInputBounds::specialFilesAreRefusedBeforeReading() {
    QFETCH(QString, kind);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    QString path = dir.filePath("input.tsv");
    const QByteArray p = QFile::encodeName(path);
    if (kind == "fifo") QVERIFY(::mkfifo(p.constData(), 0600) == 0);
    if (kind == "zero") path = "/dev/zero";
    if (kind == "dir") QVERIFY(QDir(dir.path()).mkdir("input.tsv"));
    if (kind == "loop") {
        QVERIFY(::symlink("b.tsv", QFile::encodeName(dir.filePath("a.tsv")).constData()) == 0);
        QVERIFY(::symlink("a.tsv", QFile::encodeName(dir.filePath("b.tsv")).constData()) == 0);
        path = dir.filePath("a.tsv");
    }
    // A hang (FIFO) or gigabytes of zeros would fail this test by its timeout or memory; the message says why.
    const QString corpus = messageOf<InputError>([&] { readCorpus(path.toStdString()); });
    QCOMPARE(corpus, path + ": " + expected);
    const QString model = messageOf<ModelError>([&] { loadModel(path.toStdString()); });
    if (kind == "dir")  // a folder may be a Hugging Face Marian folder (docs/marian.md): it says what it lacks
        QCOMPARE(model, path + ": is a directory, not a model file, and not a Marian folder (it has no config.json)");
    else
        QCOMPARE(model, path + ": " + expected);
}

void TestInputBounds::longLineIsRefusedNamingIt() {
    std::string ok(kMaxLineBytes - 4, 'a');
    ok += "\tb c";  // exactly kMaxLineBytes: still read
    QCOMPARE(parseCorpus("x\ty\n" + ok + "\n", "c.tsv").examples.size(), size_t(2));

    const std::string text = "x\ty\n\n" + std::string(10'000'000, 'w') + "\tz\n";
    const QString msg = messageOf<InputError>([&] { parseCorpus(text, "c.tsv"); });
    QCOMPARE(msg, QString("c.tsv:3: the line is 10000002 bytes long; lines of at most 65536 bytes are read (is this a "
                          "text corpus?)"));
}

void TestInputBounds::modelWithTrailingBytesIsRefused() {
    QTemporaryDir dir;
    const Model m = smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 3);
    const std::vector<uint8_t> good = serializeModel(m);
    for (const size_t extra : {size_t(1), size_t(100), size_t(1) << 20}) {
        std::vector<uint8_t> bytes = good;
        bytes.insert(bytes.end(), extra, uint8_t(0xAB));
        const QString msg =
            messageOf<ModelError>([&] { loadModelFromBytes(bytes.data(), bytes.size(), "junk.safetensors"); });
        QVERIFY2(msg.startsWith("junk.safetensors: " + QString::number(extra) + " bytes after the last tensor's data"),
                 qPrintable(msg));
        const QString path = dir.filePath("junk.safetensors");
        writeBytes(path, bytes);
        QVERIFY(messageOf<ModelError>([&] { loadModel(path.toStdString()); }).contains("bytes after the last tensor"));
        QVERIFY(messageOf<ModelError>([&] { readModelHeader(path.toStdString()); }).contains("bytes after"));
    }
    QVERIFY(messageOf<ModelError>([&] { loadModelFromBytes(good.data(), good.size(), "ok"); }).isEmpty());
}

void TestInputBounds::modelWithGapIsRefused() {
    const Model m = smallModel(smallConfig(DecoderKind::Luong, ScoreKind::General), 4);
    const std::vector<uint8_t> bytes = withGap(serializeModel(m), 8);
    const QString msg = messageOf<ModelError>([&] { loadModelFromBytes(bytes.data(), bytes.size(), "gap"); });
    QVERIFY2(msg.startsWith("gap: a gap of 8 bytes before tensor \""), qPrintable(msg));
    const std::vector<uint8_t> none = withGap(serializeModel(m), 0);  // the helper itself keeps a good file good
    QVERIFY(messageOf<ModelError>([&] { loadModelFromBytes(none.data(), none.size(), "none"); }).isEmpty());
}

void TestInputBounds::modelLoaderRefusesFifoWithoutBlocking() {
    QTemporaryDir dir;
    const QString path = dir.filePath("model.safetensors");
    QVERIFY(::mkfifo(QFile::encodeName(path).constData(), 0600) == 0);
    QCOMPARE(messageOf<ModelError>([&] { readModelHeader(path.toStdString()); }),
             path + ": is a FIFO (named pipe), not a regular file");
}

void TestInputBounds::hugeConfigIsRefusedWithItsSize() {
    const std::string huge =
        R"({"decoder": "bahdanau", "score": "additive", "emb_dim": 64, "enc_hid_dim": 64, "dec_hid_dim": 32768})";
    const QString msg = messageOf<ModelError>([&] { configFromJsonText(huge); });
    // 3 * 32768 * (64 + 32768) * 4 bytes of the decoder's GRU alone, plus the encoder's 2 * 3 * 64 * 128 * 4.
    QCOMPARE(msg, QString("config: emb_dim 64, enc_hid_dim 64, dec_hid_dim 32768 need at least 12.0 GiB for the "
                          "weights alone (more to train); the limit is 4.0 GiB"));
    const std::string big_but_fine =
        R"({"decoder": "bahdanau", "score": "additive", "emb_dim": 512, "enc_hid_dim": 1024, "dec_hid_dim": 2048})";
    QCOMPARE(configFromJsonText(big_but_fine).dec_hid_dim, 2048);
    ModelConfig c = configFromJsonText(big_but_fine);
    QCOMPARE(minimumWeightBytes(c), uint64_t(4) * (6 * 1024 * (512 + 1024) + 3 * 2048 * (512 + 2048)));
}

ATTNVIZ_TEST_MAIN(TestInputBounds)
#include "test_input_bounds.moc"
