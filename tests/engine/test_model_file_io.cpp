// Model files on disk: atomic saving (failures leave neither a partial file nor a temp file, and an old file intact),
// readModelHeader, siblings (docs/model-format.md, "Siblings"), and the time to save and load a 50 MB model.
#include "base/errors.h"
#include "io/model_file.h"
#include "model/model.h"
#include "test_models.h"
#include "test_registry.h"

#include <QtTest>

#include <chrono>
#include <csignal>
#include <fstream>
#include <functional>

#include <sys/resource.h>
#include <sys/stat.h>

using namespace attnviz;
using attnviz::testing::smallConfig;
using attnviz::testing::smallModel;

namespace {

using Bytes = std::vector<uint8_t>;

Bytes readBytes(const QString& path) {
    std::ifstream f(path.toStdString(), std::ios::binary);
    return Bytes(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
}

// Every entry under `dir`, hidden ones included, as paths relative to it.
QStringList listAll(const QString& dir) {
    QStringList out;
    QDirIterator it(dir, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) out << QDir(dir).relativeFilePath(it.next());
    out.sort();
    return out;
}

// Runs f, which must throw a ModelError whose message starts with `path` and contains every keyword.
void expectModelError(const std::function<void()>& f, const QString& path, const QStringList& keywords) {
    try {
        f();
    } catch (const ModelError& e) {
        const QString msg = QString::fromUtf8(e.what());
        QVERIFY2(msg.startsWith(path + ": "), qPrintable(msg));
        for (const QString& k : keywords) QVERIFY2(msg.contains(k), qPrintable("no \"" + k + "\" in: " + msg));
        return;
    }
    QFAIL("no ModelError");
}

Model modelWith(ScoreKind score, SpanKind span, const std::string& task, uint64_t seed) {
    Model m = smallModel(smallConfig(DecoderKind::Luong, score, span), seed);
    m.task = task;
    return m;
}

}  // namespace

class TestModelFileIo : public QObject {
    Q_OBJECT

private slots:
    void saveFailure_data();
    void saveFailure();
    void saveFailsMidWriteKeepsOldFile();
    void saveReplacesExistingFile();
    void saveRefusesNaN();
    void readHeaderOnly();
    void siblings();
    void siblingsOfModelWithoutTask();
    void fiftyMegabyteModel();
};

void TestModelFileIo::saveFailure_data() {
    QTest::addColumn<QString>("target");  // relative to a fresh temp dir
    QTest::addColumn<QString>("setup");   // what exists before saving
    QTest::addColumn<QStringList>("keywords");
    QTest::newRow("folder does not exist") << "no/such/folder/m.safetensors"
                                           << "" << QStringList{"cannot save", "No such file"};
    QTest::newRow("parent is a file") << "plain.txt/m.safetensors"
                                      << "file plain.txt" << QStringList{"cannot save", "Not a directory"};
    QTest::newRow("target is a folder") << "m.safetensors"
                                        << "folder m.safetensors" << QStringList{"cannot save", "cannot replace"};
}

void TestModelFileIo::saveFailure() {
    QFETCH(QString, target);
    QFETCH(QString, setup);
    QFETCH(QStringList, keywords);
    QTemporaryDir dir;
    if (setup.startsWith("file ")) {
        QFile f(dir.filePath(setup.mid(5)));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("notes");
    } else if (setup.startsWith("folder ")) {
        QVERIFY(QDir(dir.path()).mkpath(setup.mid(7) + "/inside"));  // not empty, so rename() cannot replace it
    }
    const QStringList before = listAll(dir.path());
    const QString path = dir.filePath(target);
    const Model m = smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 1);
    expectModelError([&] { saveModel(m, path.toStdString()); }, path, keywords);
    QCOMPARE(listAll(dir.path()), before);  // no temp file, no partial file
}

void TestModelFileIo::saveFailsMidWriteKeepsOldFile() {
    // A file size limit below the new file's size makes write() fail with EFBIG half way through.
    QTemporaryDir dir;
    const QString path = dir.filePath("m.safetensors");
    const Model small = smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 1);
    saveModel(small, path.toStdString());
    const Bytes old_bytes = readBytes(path);

    const Model big =
        smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive, SpanKind::Global, false, 64, 64, 128), 2);
    QVERIFY(serializeModel(big).size() > 4 * old_bytes.size());
    rlimit saved{};
    QVERIFY(getrlimit(RLIMIT_FSIZE, &saved) == 0);
    const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
    rlimit lowered = saved;
    lowered.rlim_cur = rlim_t(2 * old_bytes.size());
    QVERIFY(setrlimit(RLIMIT_FSIZE, &lowered) == 0);
    QString message;
    try {
        saveModel(big, path.toStdString());
    } catch (const ModelError& e) {
        message = QString::fromUtf8(e.what());
    }
    setrlimit(RLIMIT_FSIZE, &saved);
    std::signal(SIGXFSZ, old_handler);

    QVERIFY2(message.startsWith(path + ": cannot save: write failed"), qPrintable(message));
    QVERIFY(readBytes(path) == old_bytes);
    QCOMPARE(listAll(dir.path()), QStringList{"m.safetensors"});
}

void TestModelFileIo::saveReplacesExistingFile() {
    QTemporaryDir dir;
    const QString path = dir.filePath("m.safetensors");
    const Model big =
        smallModel(smallConfig(DecoderKind::Luong, ScoreKind::General, SpanKind::LocalP, true, 16, 16, 32), 5);
    const Model small = smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Dot), 6);
    saveModel(big, path.toStdString());
    QVERIFY(::chmod(path.toLocal8Bit().constData(), 0640) == 0);
    saveModel(small, path.toStdString());

    QVERIFY(readBytes(path) == serializeModel(small));  // fully replaced, nothing of the bigger file left
    const Model r = loadModel(path.toStdString());
    QVERIFY(r.config == small.config);
    QVERIFY(r.params.fc_out_w == small.params.fc_out_w);
    struct stat st {};
    QVERIFY(::stat(path.toLocal8Bit().constData(), &st) == 0);
    QCOMPARE(int(st.st_mode & 0777), 0640);  // the replaced file's permissions are kept
    QCOMPARE(listAll(dir.path()), QStringList{"m.safetensors"});
}

void TestModelFileIo::saveRefusesNaN() {
    QTemporaryDir dir;
    const QString path = dir.filePath("m.safetensors");
    Model m = smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 1);
    m.params.attn_w(2, 3) = std::numeric_limits<float>::quiet_NaN();
    expectModelError([&] { saveModel(m, path.toStdString()); }, path,
                     {"decoder.attention.attn.weight", "NaN", "row 2, column 3"});
    QCOMPARE(listAll(dir.path()), QStringList{});
}

void TestModelFileIo::readHeaderOnly() {
    QTemporaryDir dir;
    Model m = smallModel(smallConfig(DecoderKind::Luong, ScoreKind::General, SpanKind::LocalM, true), 4);
    m.description = "desc";
    m.extra_metadata["x"] = "y";
    const QString path = attnviz::testing::saveInto(m, dir, "m.safetensors");
    const ModelHeader h = readModelHeader(path.toStdString());
    QVERIFY(h.config == m.config);
    QVERIFY(h.source_vocab == m.source_vocab);
    QVERIFY(h.target_vocab == m.target_vocab);
    QCOMPARE(h.task, m.task);
    QCOMPARE(h.description, std::string("desc"));
    QCOMPARE(h.extra_metadata.at("x"), std::string("y"));
    QCOMPARE(h.file_size, uint64_t(QFileInfo(path).size()));
    QCOMPARE(h.parameterCount(), m.parameterCount());
    int64_t total = 0;
    uint64_t offset = 0;
    for (const TensorEntry& t : h.tensors) {
        QCOMPARE(t.dtype, std::string("F32"));
        QCOMPARE(t.begin, offset);  // sorted by data offset, contiguous
        int64_t n = 1;
        for (int64_t d : t.shape) n *= d;
        QCOMPARE(t.end - t.begin, uint64_t(n) * 4);
        offset = t.end;
        total += n;
    }
    QCOMPARE(total, m.parameterCount());
    QCOMPARE(h.tensors.front().name, std::string("encoder.embedding.weight"));

    // The weights are not read: a file cut right after its header still gives its header... but not a model.
    const Bytes full = readBytes(path);
    uint64_t n = 0;
    for (int i = 7; i >= 0; --i) n = (n << 8) | full[size_t(i)];
    const QString cut = dir.filePath("cut.safetensors");
    {
        std::ofstream f(cut.toStdString(), std::ios::binary);
        f.write(reinterpret_cast<const char*>(full.data()), std::streamsize(8 + n));
    }
    expectModelError([&] { readModelHeader(cut.toStdString()); }, cut, {"truncated"});
    expectModelError([&] { readModelHeader(dir.filePath("none.safetensors").toStdString()); },
                     dir.filePath("none.safetensors"), {"cannot open", "No such file"});
}

void TestModelFileIo::siblings() {
    QTemporaryDir dir;
    const Model additive = modelWith(ScoreKind::Additive, SpanKind::Global, "toy", 1);
    const QString a = attnviz::testing::saveInto(additive, dir, "zz_additive.safetensors");
    const QString g = attnviz::testing::saveInto(modelWith(ScoreKind::General, SpanKind::Global, "toy", 2), dir,
                                                 "a_general.safetensors");
    const QString d1 = attnviz::testing::saveInto(modelWith(ScoreKind::Dot, SpanKind::Global, "toy", 3), dir,
                                                  "dot_global.safetensors");
    const QString d2 =
        attnviz::testing::saveInto(modelWith(ScoreKind::Dot, SpanKind::LocalM, "toy", 4), dir, "dot_local.safetensors");
    const QString s = attnviz::testing::saveInto(modelWith(ScoreKind::ScaledDot, SpanKind::Global, "toy", 5), dir,
                                                 "scaled.safetensors");
    // not siblings
    attnviz::testing::saveInto(modelWith(ScoreKind::Dot, SpanKind::Global, "other task", 6), dir,
                               "other_task.safetensors");
    Model other_vocab = modelWith(ScoreKind::General, SpanKind::Global, "toy", 7);
    other_vocab = makeRandomModel(other_vocab.config, attnviz::testing::smallSourceVocab(),
                                  attnviz::testing::vocabWith({"我", "爱", "你", "猫", "坐", "在", "垫子", "上", "吃",
                                                               "了", "一个", "苹果", "昨天", "！"}),
                                  7);
    other_vocab.task = "toy";
    attnviz::testing::saveInto(other_vocab, dir, "other_vocab.safetensors");
    Model swapped = makeRandomModel(additive.config, additive.target_vocab, additive.source_vocab,
                                    8);  // same vocabularies, swapped roles
    swapped.task = "toy";
    attnviz::testing::saveInto(swapped, dir, "swapped.safetensors");
    {
        QFile junk(dir.filePath("broken.safetensors"));
        QVERIFY(junk.open(QIODevice::WriteOnly));
        junk.write("\x10\0\0\0\0\0\0\0{\"__metadata__\":", 23);
    }
    QFile::copy(g, dir.filePath("general_copy.st"));  // wrong extension
    QVERIFY(QDir(dir.path()).mkdir("folder.safetensors"));

    const std::vector<Sibling> sib = findSiblings(a.toStdString(), additive);
    QStringList got;
    for (const Sibling& x : sib)
        got << QString::fromStdString(x.path) + " " + QString::fromUtf8(toString(x.config.score).data());
    const QStringList want = {a + " additive", d1 + " dot", d2 + " dot", s + " scaled_dot", g + " general"};
    QCOMPARE(got, want);
    QVERIFY(sib[2].config.span == SpanKind::LocalM);

    // From another member the same set comes back.
    const Model general = loadModel(g.toStdString());
    QCOMPARE(findSiblings(g.toStdString(), general).size(), size_t(5));
}

void TestModelFileIo::siblingsOfModelWithoutTask() {
    QTemporaryDir dir;
    const Model m = modelWith(ScoreKind::Additive, SpanKind::Global, "", 1);
    const QString a = attnviz::testing::saveInto(m, dir, "a.safetensors");
    attnviz::testing::saveInto(modelWith(ScoreKind::Dot, SpanKind::Global, "", 2), dir, "b.safetensors");
    const std::vector<Sibling> sib = findSiblings(a.toStdString(), m);
    QCOMPARE(sib.size(), size_t(1));
    QCOMPARE(QString::fromStdString(sib[0].path), a);
}

void TestModelFileIo::fiftyMegabyteModel() {
    // bahdanau / additive, E = 256, H_e = 256, H_d = 512, 5000-token vocabularies: 12.9 M parameters, 51.7 MB.
    std::vector<std::string> words;
    for (int i = 0; i < 4996; ++i) words.push_back("w" + std::to_string(i));
    const Vocabulary vocab = attnviz::testing::vocabWith(words);
    const ModelConfig c =
        smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive, SpanKind::Global, false, 256, 256, 512);
    Model m = makeRandomModel(c, vocab, vocab, 11);
    m.task = "big";
    QTemporaryDir dir;
    const std::string path = dir.filePath("big.safetensors").toStdString();
    using clock = std::chrono::steady_clock;
    const auto t0 = clock::now();
    saveModel(m, path);
    const auto t1 = clock::now();
    const Model r = loadModel(path);
    const auto t2 = clock::now();
    const ModelHeader h = readModelHeader(path);
    const auto t3 = clock::now();
    auto ms = [](auto d) { return std::chrono::duration<double, std::milli>(d).count(); };
    qInfo("%.1f MB: save %.0f ms, load %.0f ms, header %.1f ms", double(h.file_size) / 1e6, ms(t1 - t0), ms(t2 - t1),
          ms(t3 - t2));
    QVERIFY(h.file_size > 50'000'000);
    QVERIFY(r.params.fc_out_w == m.params.fc_out_w);
    QVERIFY(r.params.enc_embedding == m.params.enc_embedding);
    // The times above are reported, not asserted: speed is measured in bench/, never in a timed unit test.
}

ATTNVIZ_TEST_MAIN(TestModelFileIo)
#include "test_model_file_io.moc"
