// The training window's animated export (training/training_animation.h, heatmap/apng.h), read back chunk by chunk
// as the APNG specification lays them out: the chunk sequence, one frame per snapshot, consecutive sequence numbers,
// every CRC right (computed here bit by bit, not with zlib), the frame delay asked for; and every frame, decoded by
// QImage, is the pixels of the filmstrip's cell for the same snapshot.
#include "main_window_fixture.h"
#include "training_fixtures.h"

#include "test_registry.h"
#include "training/training_animation.h"
#include "training/training_form.h"
#include "training/training_window.h"

#include <QFile>
#include <QImage>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace attnviz;
using namespace attnviz::ui;
using attnviz::testing::writeReverseTask;

namespace {

const QByteArray kSignature("\x89PNG\r\n\x1a\n", 8);

struct Chunk {
    QByteArray type, data;
    quint32 crc = 0;
};

quint32 readUint(const QByteArray& b, qsizetype at, int bytes = 4) {
    quint32 v = 0;
    for (int k = 0; k < bytes; ++k) v = v << 8 | quint32(uchar(b[at + k]));
    return v;
}

// CRC-32 of ISO 3309 / PNG, bit by bit (polynomial 0xEDB88320, reflected).
quint32 bitwiseCrc(const QByteArray& bytes) {
    quint32 c = 0xffffffffu;
    for (char ch : bytes) {
        c ^= quint32(uchar(ch));
        for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
    }
    return c ^ 0xffffffffu;
}

std::vector<Chunk> chunksOf(const QByteArray& file) {
    std::vector<Chunk> chunks;
    qsizetype at = kSignature.size();
    while (at + 12 <= file.size()) {
        const quint32 length = readUint(file, at);
        chunks.push_back({file.mid(at + 4, 4), file.mid(at + 8, length), readUint(file, at + 8 + length)});
        at += 12 + length;
    }
    return chunks;
}

QByteArray chunkBytes(const char* type, const QByteArray& data) {
    QByteArray out;
    for (int k = 3; k >= 0; --k) out.append(char((data.size() >> (8 * k)) & 0xff));
    const QByteArray body = QByteArray(type, 4) + data;
    const quint32 crc = bitwiseCrc(body);
    out += body;
    for (int k = 3; k >= 0; --k) out.append(char((crc >> (8 * k)) & 0xff));
    return out;
}

}  // namespace

class TestTrainingAnimation : public QObject, attnviz::testing::MainWindowFixture {
    Q_OBJECT
private slots:
    void initTestCase();
    void framesAreTheFilmstripsCells();
    void badRequestsSayWhy();

private:
    QTemporaryDir dir_;
    std::unique_ptr<TrainingWindow> w_training_;
};

// 120 lines in batches of 8, 2 epochs, a snapshot every 5 updates: 7 snapshots (updates 0 … 30).
void TestTrainingAnimation::initTestCase() {
    setUpWindowTests(QStringLiteral("attnviz-test-training-animation"));
    QVERIFY(dir_.isValid());
    writeReverseTask(dir_.filePath("train.tsv"), 120, 1, true);
    TrainingSettings s;
    s.corpus = dir_.filePath("train.tsv");
    s.task = QStringLiteral("reverse");
    s.config.emb_dim = 16;
    s.config.enc_hid_dim = 24;
    s.config.dec_hid_dim = 48;
    s.options.lr = 0.01;
    s.options.batch_size = 8;
    s.options.epochs = 2;
    s.options.seed = 3;
    s.options.threads = 2;
    s.snapshot_every = 5;
    s.probe = QStringLiteral("a b c d e");
    s.out = dir_.filePath("reverse.safetensors");
    w_training_ = std::make_unique<TrainingWindow>();
    w_training_->form()->applySettings(s);
    QSignalSpy done(w_training_.get(), &TrainingWindow::trainingFinished);
    QVERIFY(w_training_->start());
    QVERIFY(done.wait(120000));
    QCOMPARE(w_training_->history().snapshots.size(), size_t(7));
}

void TestTrainingAnimation::framesAreTheFilmstripsCells() {
    TrainingWindow& w = *w_training_;
    QString error;
    const QString path = dir_.filePath("training.png");
    QCOMPARE(w.frameDelay(), kDefaultFrameDelayMs);
    QVERIFY2(w.exportAnimation(path, 250, &error), qPrintable(error));
    QVERIFY2(w.exportFilmstrip(dir_.filePath("film.png"), &error), qPrintable(error));
    const QImage film = QImage(dir_.filePath("film.png")).convertToFormat(QImage::Format_RGB32);  // 3 x 3 cells
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray apng = file.readAll();
    QVERIFY(apng.startsWith(kSignature));
    const std::vector<Chunk> chunks = chunksOf(apng);
    QCOMPARE(chunks.front().type, QByteArray("IHDR"));
    QCOMPARE(chunks[1].type, QByteArray("acTL"));
    QCOMPARE(readUint(chunks[1].data, 0), 7u);  // frames: one per snapshot
    QCOMPARE(readUint(chunks[1].data, 4), 0u);  // plays forever
    QCOMPARE(chunks.back().type, QByteArray("IEND"));
    quint32 sequence = 0;
    int frame = -1;
    QByteArray frame_data;  // the IDAT bytes of the current frame
    auto checkFrame = [&] {
        const QByteArray png = kSignature + chunkBytes("IHDR", chunks.front().data) + chunkBytes("IDAT", frame_data) +
                               chunkBytes("IEND", {});
        const QImage image = QImage::fromData(png, "PNG").convertToFormat(QImage::Format_RGB32);
        QCOMPARE(image.size(), QSize(kFilmstripCellWidth, kFilmstripCellHeight));
        const QRect cell((frame % 3) * kFilmstripCellWidth, (frame / 3) * kFilmstripCellHeight, kFilmstripCellWidth,
                         kFilmstripCellHeight);
        QVERIFY2(image == film.copy(cell), qPrintable(QString("frame %1").arg(frame)));
    };
    for (const Chunk& c : chunks) {
        QCOMPARE(c.crc, bitwiseCrc(c.type + c.data));
        if (c.type == "fcTL") {
            if (frame >= 0) checkFrame();
            ++frame;
            frame_data.clear();
            QCOMPARE(c.data.size(), 26);
            QCOMPARE(readUint(c.data, 0), sequence++);
            QCOMPARE(readUint(c.data, 4), quint32(kFilmstripCellWidth));
            QCOMPARE(readUint(c.data, 8), quint32(kFilmstripCellHeight));
            QCOMPARE(readUint(c.data, 20, 2), 250u);   // delay_num
            QCOMPARE(readUint(c.data, 22, 2), 1000u);  // delay_den
        } else if (c.type == "IDAT") {
            QCOMPARE(frame, 0);  // only the first frame is in IDAT chunks
            frame_data += c.data;
        } else if (c.type == "fdAT") {
            QVERIFY(frame > 0);
            QCOMPARE(readUint(c.data, 0), sequence++);
            frame_data += c.data.mid(4);
        }
    }
    checkFrame();
    QCOMPARE(frame, 6);
    // a viewer without APNG shows the first frame: the first snapshot
    QCOMPARE(QImage(path).convertToFormat(QImage::Format_RGB32),
             film.copy(0, 0, kFilmstripCellWidth, kFilmstripCellHeight));
    QVERIFY(QImage(path).convertToFormat(QImage::Format_RGB32) !=
            film.copy(2 * kFilmstripCellWidth, kFilmstripCellHeight, kFilmstripCellWidth, kFilmstripCellHeight));
}

void TestTrainingAnimation::badRequestsSayWhy() {
    QString error;
    const QString path = dir_.filePath("bad.png");
    QVERIFY(!w_training_->exportAnimation(path, 0, &error));
    QVERIFY2(error.contains("bad.png") && error.contains("delay"), qPrintable(error));
    QVERIFY(!QFile::exists(path));
    const QString missing = dir_.filePath("no/such/dir/anim.png");
    QVERIFY(!w_training_->exportAnimation(missing, 100, &error));
    QVERIFY2(error.contains("anim.png"), qPrintable(error));
    TrainingWindow empty;
    QVERIFY(!empty.exportAnimation(path, 100, &error));
    QVERIFY2(error.contains("no snapshots"), qPrintable(error));
    QVERIFY(!QFile::exists(path));
}

ATTNVIZ_TEST_MAIN(TestTrainingAnimation)
#include "test_training_animation.moc"
