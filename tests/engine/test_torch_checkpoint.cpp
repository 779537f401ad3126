// PyTorch torch.save files (io/torch_checkpoint, io/torch_pickle): both forms written by torch read to the exact
// values of the generator's formula (tests/data/torch/make_fixtures.py), views and tied storages included; every
// hostile file, pickle and truncation is refused with a message that names the file and what is wrong, and the
// malicious pickles run nothing.
#include "base/errors.h"
#include "io/torch_checkpoint.h"
#include "io/torch_pickle.h"
#include "io/torch_state_dict.h"
#include "test_registry.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace attnviz;

namespace torch_checkpoint_test {

const std::string kDir = ATTNVIZ_SOURCE_DIR "/tests/data/torch/";
// What the hostile fixtures' pickles would create if anything in them ran (make_fixtures.py's PWNED).
const std::string kRan = "/tmp/attnviz-torch-fixture-ran";

// The generator's formula: exact in float32, float16 and bfloat16.
float f(int64_t i) { return float(double((37 * i) % 101 - 50) / 64.0); }

QString errorOf(const std::function<void()>& run) {
    try {
        run();
    } catch (const ModelError& e) {
        return QString::fromStdString(e.what());
    }
    return {};
}

QString openError(const std::string& path) {
    return errorOf([&] { TorchCheckpoint::open(path); });
}

std::vector<float> read(const TorchCheckpoint& c, const std::string& name, int64_t* bad = nullptr) {
    for (size_t i = 0; i < c.tensors().size(); ++i)
        if (c.tensors()[i].name == name) {
            std::vector<float> v(size_t(c.tensors()[i].numel));
            const int64_t b = c.readFloat(i, v.data());
            if (bad) *bad = b;
            return v;
        }
    throw std::runtime_error("no tensor " + name);
}

// ---- pickles by hand (protocol 2 opcodes) ----
std::string global(const std::string& module, const std::string& name) { return "c" + module + "\n" + name + "\n"; }
std::string str(const std::string& s) {
    std::string out = "X";
    for (int i = 0; i < 4; ++i) out += char((s.size() >> (8 * i)) & 0xff);
    return out + s;
}
std::string i32(int64_t v) {
    std::string out = "J";
    for (int i = 0; i < 4; ++i) out += char((uint64_t(v) >> (8 * i)) & 0xff);
    return out;
}
std::string i64(int64_t v) {  // LONG1 of 8 bytes
    std::string out = "\x8a\x08";
    for (int i = 0; i < 8; ++i) out += char((uint64_t(v) >> (8 * i)) & 0xff);
    return out;
}
std::string ints(const std::vector<int64_t>& xs) {
    std::string out = "(";
    for (int64_t x : xs) out += i64(x);
    return out + "t";
}
const std::string kProto = "\x80\x02";
const std::string kEmptyOrderedDict = global("collections", "OrderedDict") + ")R";

// name -> _rebuild_tensor_v2(('storage', TYPE, KEY, 'cpu', NUMEL[, None]), offset, size, stride, False, OrderedDict())
std::string tensorEntry(const std::string& name, const std::string& type, const std::string& key, int64_t numel,
                        int64_t offset, const std::vector<int64_t>& size, const std::vector<int64_t>& stride,
                        bool legacy = true) {
    return str(name) + global("torch._utils", "_rebuild_tensor_v2") + "((" + str("storage") + global("torch", type) +
           str(key) + str("cpu") + i64(numel) + (legacy ? "N" : "") + "tQ" + i64(offset) + ints(size) + ints(stride) +
           "\x89" + kEmptyOrderedDict + "tR";
}
std::string stateDict(const std::string& entries) { return kProto + kEmptyOrderedDict + "(" + entries + "u."; }

struct RawStorage {
    std::string key;
    int64_t numel;
    std::string bytes;
};
// A legacy-form file: magic, protocol, system info, the state dict, the keys, then the storages.
std::string legacyFile(const std::string& state_dict, const std::vector<RawStorage>& storages) {
    std::string out = kProto + "\x8a\x0a" + std::string("\x6c\xfc\x9c\x46\xf9\x20\x6a\xa8\x50\x19", 10) + ".";
    out += kProto + "M\xe9\x03." + kProto + "}." + state_dict + kProto + "](";
    for (const auto& s : storages) out += str(s.key);
    out += "e.";
    for (const auto& s : storages) {
        for (int i = 0; i < 8; ++i) out += char((uint64_t(s.numel) >> (8 * i)) & 0xff);
        out += s.bytes;
    }
    return out;
}

std::string write(const QTemporaryDir& dir, const std::string& name, const std::string& bytes) {
    const std::string path = dir.filePath(QString::fromStdString(name)).toStdString();
    std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
    return path;
}

QString unpickleError(const std::string& bytes) {
    return errorOf([&] {
        torch_pickle::unpickle(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), "p.bin", "data.pkl");
    });
}

}  // namespace torch_checkpoint_test

using namespace torch_checkpoint_test;

class TestTorchCheckpoint : public QObject {
    Q_OBJECT
private slots:
    void bothFormsReadTheGeneratorsValues_data();
    void bothFormsReadTheGeneratorsValues();
    void tiedTensorsShareOneStorage_data();
    void tiedTensorsShareOneStorage();
    void littleEndianByteorderEntryIsRead();
    void largeTensorsCrossChunkBoundaries();
    void nonFiniteValuesAreReportedByIndex();
    void hostileFilesAreRefusedByName_data();
    void hostileFilesAreRefusedByName();
    void maliciousPicklesRunNothing();
    void everyTruncationIsRefused_data();
    void everyTruncationIsRefused();
    void dangerousGlobalsAreRefused_data();
    void dangerousGlobalsAreRefused();
    void allowedGlobalsWithWrongArgumentsAreRefused_data();
    void allowedGlobalsWithWrongArgumentsAreRefused();
    void unneededOpcodesAreRefusedWithTheirOffset_data();
    void unneededOpcodesAreRefusedWithTheirOffset();
    void hostileSizesStayBounded();
};

void TestTorchCheckpoint::bothFormsReadTheGeneratorsValues_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<int>("form");
    QTest::newRow("zip (PyTorch >= 1.6)") << "zip.bin" << int(TorchCheckpoint::Form::Zip);
    QTest::newRow("legacy") << "legacy.bin" << int(TorchCheckpoint::Form::Legacy);
}

void TestTorchCheckpoint::bothFormsReadTheGeneratorsValues() {
    QFETCH(QString, file);
    QFETCH(int, form);
    const TorchCheckpoint c = TorchCheckpoint::open(kDir + file.toStdString());
    QCOMPARE(int(c.form()), form);
    std::vector<std::string> names;
    for (const StoredTensor& t : c.tensors()) names.push_back(t.name);
    QCOMPARE(names, (std::vector<std::string>{"w32", "w32.tied", "w32.t", "w32.row", "w32.col", "h16", "bf16", "f64",
                                              "scalar", "empty", "param"}));
    std::vector<float> w(12), t(12), row(4), col(3), h(6), bf(5), d(4);
    for (int i = 0; i < 12; ++i) w[size_t(i)] = f(i);
    for (int r = 0; r < 4; ++r)
        for (int k = 0; k < 3; ++k) t[size_t(r * 3 + k)] = f(k * 4 + r);  // w.t()[r][k] = w[k][r]
    for (int i = 0; i < 4; ++i) row[size_t(i)] = f(4 + i);
    for (int i = 0; i < 3; ++i) col[size_t(i)] = f(i * 4 + 2);
    for (int i = 0; i < 6; ++i) h[size_t(i)] = f(i);
    for (int i = 0; i < 5; ++i) bf[size_t(i)] = f(i);
    for (int i = 0; i < 4; ++i) d[size_t(i)] = float(double(f(i)) / 3.0);
    QCOMPARE(read(c, "w32"), w);
    QCOMPARE(read(c, "w32.tied"), w);
    QCOMPARE(read(c, "w32.t"), t);
    QCOMPARE(read(c, "w32.row"), row);
    QCOMPARE(read(c, "w32.col"), col);
    QCOMPARE(read(c, "h16"), h);
    QCOMPARE(read(c, "bf16"), bf);
    QCOMPARE(read(c, "f64"), d);
    QCOMPARE(read(c, "scalar"), std::vector<float>{2.5f});
    QCOMPARE(read(c, "empty"), std::vector<float>{});
    QCOMPARE(read(c, "param"), (std::vector<float>{f(0), f(1)}));
    QCOMPARE(c.tensors()[2].shape, (std::vector<int64_t>{4, 3}));
    QCOMPARE(c.tensors()[2].strides, (std::vector<int64_t>{1, 4}));
    QCOMPARE(c.tensors()[5].dtype, safetensors::DType::F16);
    QCOMPARE(c.tensors()[6].dtype, safetensors::DType::BF16);
    QCOMPARE(c.tensors()[7].dtype, safetensors::DType::F64);
    QCOMPARE(c.tensors()[9].shape, (std::vector<int64_t>{0, 4}));
}

void TestTorchCheckpoint::tiedTensorsShareOneStorage_data() { bothFormsReadTheGeneratorsValues_data(); }

void TestTorchCheckpoint::tiedTensorsShareOneStorage() {
    QFETCH(QString, file);
    const TorchCheckpoint c = TorchCheckpoint::open(kDir + file.toStdString());
    // w32, its tied copy and its three views are one storage of 12 floats, stored once in the file.
    QCOMPARE(c.storages().size(), size_t(7));
    for (size_t i = 0; i < 5; ++i) QCOMPARE(c.tensors()[i].storage, size_t(0));
    QCOMPARE(c.storages()[0].numel, int64_t(12));
    QCOMPARE(c.tensors()[3].offset, int64_t(4));
    QCOMPARE(c.tensors()[4].offset, int64_t(2));
    QFile raw(QString::fromStdString(kDir) + file);
    QVERIFY(raw.open(QIODevice::ReadOnly));
    const QByteArray bytes = raw.readAll();
    float first = 0;
    std::memcpy(&first, bytes.constData() + c.storages()[0].file_offset, 4);
    QCOMPARE(first, f(0));
}

void TestTorchCheckpoint::littleEndianByteorderEntryIsRead() {
    // PyTorch >= 2.1 writes <dir>/byteorder; "little" reads (a "big" one is refused: hostileFilesAreRefusedByName).
    const TorchCheckpoint c = TorchCheckpoint::open(kDir + "zip_little_endian.bin");
    QCOMPARE(read(c, "a"), (std::vector<float>{f(0), f(1), f(2), f(3), f(4), f(5)}));
    QCOMPARE(read(c, "b"), (std::vector<float>{f(0), f(1)}));
}

void TestTorchCheckpoint::largeTensorsCrossChunkBoundaries() {
    // A float16 vector of 600,001 elements (1.2 MB, more than one 1 MiB chunk) and the transpose of a 700 x 800
    // float32 matrix (2.2 MB, so the window moves), in a legacy file made here.
    const int64_t n = 600001, rows = 700, cols = 800;
    std::string half(size_t(n) * 2, '\0'), mat(size_t(rows * cols) * 4, '\0');
    for (int64_t i = 0; i < n; ++i) {
        const uint16_t h = safetensors::floatToHalf(f(i));
        std::memcpy(half.data() + 2 * i, &h, 2);
    }
    for (int64_t i = 0; i < rows * cols; ++i) {
        const float x = f(i) + float(i % 7);
        std::memcpy(mat.data() + 4 * i, &x, 4);
    }
    const std::string sd = stateDict(tensorEntry("h", "HalfStorage", "a", n, 0, {n}, {1}) +
                                     tensorEntry("t", "FloatStorage", "b", rows * cols, 0, {cols, rows}, {1, cols}));
    QTemporaryDir dir;
    const std::string path = write(dir, "big.bin", legacyFile(sd, {{"a", n, half}, {"b", rows * cols, mat}}));
    const TorchCheckpoint c = TorchCheckpoint::open(path);
    const std::vector<float> h = read(c, "h"), t = read(c, "t");
    for (int64_t i = 0; i < n; ++i)
        if (h[size_t(i)] != f(i)) QFAIL(qPrintable(QString("h[%1] = %2, not %3").arg(i).arg(h[size_t(i)]).arg(f(i))));
    for (int64_t r = 0; r < cols; ++r)
        for (int64_t k = 0; k < rows; ++k) {
            const int64_t src = k * cols + r;
            if (t[size_t(r * rows + k)] != f(src) + float(src % 7)) QFAIL("the transpose differs");
        }
}

void TestTorchCheckpoint::nonFiniteValuesAreReportedByIndex() {
    std::string bytes(5 * 4, '\0');
    const float xs[5] = {1, 2, 3, NAN, INFINITY};
    std::memcpy(bytes.data(), xs, sizeof xs);
    const double big[2] = {1.0, 1e300};  // beyond float range
    std::string dbytes(sizeof big, '\0');
    std::memcpy(dbytes.data(), big, sizeof big);
    const std::string sd = stateDict(tensorEntry("x", "FloatStorage", "0", 5, 0, {5}, {1}) +
                                     tensorEntry("rev", "FloatStorage", "0", 5, 1, {2, 2}, {1, 2}) +
                                     tensorEntry("d", "DoubleStorage", "1", 2, 0, {2}, {1}));
    QTemporaryDir dir;
    const TorchCheckpoint c =
        TorchCheckpoint::open(write(dir, "nan.bin", legacyFile(sd, {{"0", 5, bytes}, {"1", 2, dbytes}})));
    int64_t bad = -2;
    read(c, "x", &bad);
    QCOMPARE(bad, int64_t(3));
    read(c, "rev", &bad);  // [[2, NaN], [3, Inf]] in output order: the NaN is at index 1
    QCOMPARE(bad, int64_t(1));
    read(c, "d", &bad);
    QCOMPARE(bad, int64_t(1));
}

void TestTorchCheckpoint::hostileFilesAreRefusedByName_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("problem");
    QTest::newRow("zip: a storage entry missing")
        << "zip_missing_entry.bin"
        << "the archive has no entry \"archive/data/1\", the storage of tensor \"b\"";
    QTest::newRow("zip: an entry twice") << "zip_duplicate_entry.bin"
                                         << "the archive has two entries named \"archive/data/0\"";
    QTest::newRow("zip: entries overlapping")
        << "zip_overlap.bin"
        << "the entries \"archive/data/0\" (bytes 310 to 374) and \"archive/data/1\" (bytes 354 to 362) overlap";
    QTest::newRow("zip: compressed entries")
        << "zip_compressed.bin"
        << "the entry \"archive/data/0\" is compressed; torch.save stores its entries uncompressed";
    QTest::newRow("zip: an entry shorter than its storage")
        << "zip_entry_too_short.bin"
        << "the entry \"archive/data/0\" (the storage of tensor \"a\") holds 20 bytes, but its 6 F32 elements need 24";
    QTest::newRow("zip: big-endian storages") << "zip_big_endian.bin"
                                              << "the entry \"archive/byteorder\" says \"big\"; only little-endian "
                                                 "storages are read";
    QTest::newRow("storage shorter than size and stride need")
        << "storage_too_short.bin"
        << "tensor \"x\": size [2, 3] with stride [4, 1] at offset 0 reaches element 6 of its storage \"0\", which "
           "holds 6";
    QTest::newRow("negative stride") << "negative_stride.bin"
                                     << "tensor \"x\": its stride [-1] has a negative entry";
    QTest::newRow("huge stride")
        << "huge_stride.bin"
        << "tensor \"x\": size [2] with stride [4611686018427387904] at offset 0 reaches element "
           "4611686018427387904 of its storage \"0\", which holds 6";
    QTest::newRow("numel 2^40 (zip)")
        << "numel_2_40.bin"
        << "the entry \"archive/data/0\" (the storage of tensor \"x\") holds 24 bytes, but its 1099511627776 F32 "
           "elements need 4398046511104";
    QTest::newRow("numel 2^40 (legacy)")
        << "legacy_numel_2_40.bin"
        << "the storage of tensor \"x\" holds 6 elements in the file but 1099511627776 in the state dict";
    QTest::newRow("zero stride") << "zero_stride.bin"
                                 << "tensor \"x\": size [2, 3] with stride [0, 1] makes elements share storage";
    QTest::newRow("more elements than the storage")
        << "more_than_storage.bin"
        << "tensor \"x\": size [4, 3] has 12 elements, more than its storage \"0\" holds (3)";
    QTest::newRow("an int64 tensor")
        << "int64_storage.bin"
        << "tensor \"x\": stored as torch.LongStorage (int64); only float32, float16, bfloat16 and float64 tensors "
           "are read";
    QTest::newRow("zip truncated") << "zip_truncated.bin"
                                   << "not a zip archive libzip can read";
    QTest::newRow("legacy truncated in a pickle") << "legacy_truncated_pickle.bin"
                                                  << "the state-dict pickle, byte 445: the pickle is cut off";
    QTest::newRow("legacy truncated in a storage")
        << "legacy_truncated_storage.bin"
        << "the file is cut off: the storage of tensor \"w32\" needs 48 bytes";
    QTest::newRow("posix.system in a zip's pickle")
        << "evil_posix_system.bin"
        << "archive/data.pkl, byte 41: the pickle names the global posix.system";
    QTest::newRow("eval in a legacy pickle")
        << "evil_legacy_eval.bin"
        << "the state-dict pickle, byte 139: the pickle names the global __builtin__.eval";
}

void TestTorchCheckpoint::hostileFilesAreRefusedByName() {
    QFETCH(QString, file);
    QFETCH(QString, problem);
    const std::string path = kDir + file.toStdString();
    const QString message = openError(path);
    QVERIFY2(message.startsWith(QString::fromStdString(path) + ": "), qPrintable(message));
    QVERIFY2(message.contains(problem), qPrintable(message));
}

void TestTorchCheckpoint::maliciousPicklesRunNothing() {
    std::filesystem::remove(kRan);
    QVERIFY(!openError(kDir + "evil_posix_system.bin").isEmpty());
    QVERIFY(!openError(kDir + "evil_legacy_eval.bin").isEmpty());
    // The same calls by hand, with arguments that would create the file: refused before any REDUCE.
    for (const auto& [module, name] : std::vector<std::pair<std::string, std::string>>{
             {"os", "system"}, {"posix", "system"}, {"subprocess", "Popen"}, {"builtins", "eval"}})
        QVERIFY(unpickleError(kProto + global(module, name) + str("touch " + kRan) + "\x85R.")
                    .contains("the pickle names the global " + QString::fromStdString(module + "." + name)));
    QVERIFY(!std::filesystem::exists(kRan));
}

void TestTorchCheckpoint::everyTruncationIsRefused_data() { bothFormsReadTheGeneratorsValues_data(); }

void TestTorchCheckpoint::everyTruncationIsRefused() {
    QFETCH(QString, file);
    QFile in(QString::fromStdString(kDir) + file);
    QVERIFY(in.open(QIODevice::ReadOnly));
    const QByteArray all = in.readAll();
    QTemporaryDir dir;
    // Every cut of the legacy file (each lands somewhere else in its pickles or storages); a zip cut anywhere loses
    // its central directory at the end, so every 17th cut and the last 64 are enough there.
    const bool zip = all.startsWith("PK");
    for (qsizetype keep = 0; keep < all.size(); keep += (!zip || keep >= all.size() - 64) ? 1 : 17) {
        const std::string path = write(dir, "cut.bin", std::string(all.constData(), size_t(keep)));
        const QString message = openError(path);
        if (!message.startsWith(QString::fromStdString(path) + ": "))
            QFAIL(qPrintable(QString("%1 bytes of %2 kept: %3").arg(keep).arg(file, message)));
    }
}

void TestTorchCheckpoint::dangerousGlobalsAreRefused_data() {
    QTest::addColumn<QString>("module");
    QTest::addColumn<QString>("name");
    for (const char* g : {"os system", "posix system", "nt system", "builtins eval", "builtins exec",
                          "builtins __import__", "builtins getattr", "__builtin__ eval", "subprocess Popen",
                          "subprocess check_output", "torch load", "torch._utils _rebuild_device_tensor_from_numpy",
                          "collections defaultdict", "numpy.core.multiarray _reconstruct"}) {
        const QStringList parts = QString(g).split(' ');
        QTest::newRow(g) << parts[0] << parts[1];
    }
}

void TestTorchCheckpoint::dangerousGlobalsAreRefused() {
    QFETCH(QString, module);
    QFETCH(QString, name);
    const std::string pickle = kProto + "(" + global(module.toStdString(), name.toStdString()) + ")R.";
    QCOMPARE(unpickleError(pickle), QString("p.bin: data.pkl, byte 3: the pickle names the global %1.%2, which a "
                                            "PyTorch state dict does not need; it is refused and nothing in the "
                                            "file was run")
                                        .arg(module, name));
}

void TestTorchCheckpoint::allowedGlobalsWithWrongArgumentsAreRefused_data() {
    QTest::addColumn<QByteArray>("pickle");
    QTest::addColumn<QString>("problem");
    const std::string pid =
        "(" + str("storage") + global("torch", "FloatStorage") + str("0") + str("cpu") + i64(6) + "tQ";
    const std::string v2 = global("torch._utils", "_rebuild_tensor_v2");
    auto row = [](const char* name, const std::string& body, const char* problem) {
        const std::string p = kProto + body + ".";
        QTest::newRow(name) << QByteArray(p.data(), qsizetype(p.size())) << QString(problem);
    };
    row("OrderedDict with an argument", global("collections", "OrderedDict") + "(" + str("x") + "tR",
        "collections.OrderedDict is called with 1 arguments; these files call it with none");
    row("_rebuild_tensor_v2 with 3 arguments", v2 + "(" + pid + i64(0) + ints({6}) + "tR",
        "torch._utils._rebuild_tensor_v2 is called with 3 arguments; it takes 6 or 7");
    row("_rebuild_tensor_v2 with a list as size",
        v2 + "(" + pid + i64(0) + "](" + i64(6) + "e" + ints({1}) + "\x89" + kEmptyOrderedDict + "tR",
        "torch._utils._rebuild_tensor_v2 is called with list as argument 3 (size), which must be a tuple of ints");
    row("_rebuild_tensor_v2 with a string as storage",
        v2 + "(" + str("0") + i64(0) + ints({6}) + ints({1}) + "\x89" + kEmptyOrderedDict + "tR",
        "torch._utils._rebuild_tensor_v2 is called with string as argument 1 (storage), which must be a storage");
    row("_rebuild_parameter of an int",
        global("torch._utils", "_rebuild_parameter") + "(" + i64(1) + "\x88" + kEmptyOrderedDict + "tR",
        "torch._utils._rebuild_parameter is called with int as argument 1 (data), which must be a tensor");
    row("a storage type called", global("torch", "FloatStorage") + ")R",
        "torch.FloatStorage is a type these files name, never call");
    row("REDUCE on a string", str("os.system") + ")R", "REDUCE calls a string, not one of the allowed globals");
    row("BUILD on a plain dict", "}}b", "BUILD sets the attributes of a dict; in these files only an OrderedDict's");
}

void TestTorchCheckpoint::allowedGlobalsWithWrongArgumentsAreRefused() {
    QFETCH(QByteArray, pickle);
    QFETCH(QString, problem);
    const QString message = unpickleError(pickle.toStdString());
    QVERIFY2(message.startsWith("p.bin: data.pkl, byte "), qPrintable(message));
    QVERIFY2(message.contains(problem), qPrintable(message));
}

void TestTorchCheckpoint::unneededOpcodesAreRefusedWithTheirOffset_data() {
    QTest::addColumn<QByteArray>("pickle");
    QTest::addColumn<QString>("message");
    auto row = [](const char* name, const std::string& p, const char* message) {
        QTest::newRow(name) << QByteArray(p.data(), qsizetype(p.size())) << QString(message);
    };
    row("STACK_GLOBAL", kProto + str("os") + str("system") + "\x93.",
        "p.bin: data.pkl, byte 20: opcode STACK_GLOBAL (0x93) is not one a PyTorch state dict needs; refused, "
        "nothing was run");
    row("INST", kProto + "(ios\nsystem\n.", "p.bin: data.pkl, byte 3: opcode INST (0x69) is not one");
    row("OBJ", kProto + "(" + global("collections", "OrderedDict") + "o.", "byte 28: opcode OBJ (0x6f) is not one");
    row("NEWOBJ", kProto + global("collections", "OrderedDict") + ")\x81.", "byte 28: opcode NEWOBJ (0x81)");
    row("EXT1", kProto + "\x82\x01.", "byte 2: opcode EXT1 (0x82)");
    row("PERSID (text)", kProto + "P0\n.", "byte 2: opcode PERSID (0x50)");
    row("FRAME (protocol 4)", kProto + "\x95\x01\x00\x00\x00\x00\x00\x00\x00N.", "byte 2: opcode FRAME (0x95)");
    row("not an opcode", kProto + "\xff.", "byte 2: opcode byte 0xff, not a pickle opcode");
    row("protocol 5", "\x80\x05N.", "byte 0: pickle protocol 5; torch.save writes protocol 2");
    row("memo read before set", kProto + "h\x07.", "byte 2: memo entry 7 is read before it is set");
    row("two values at STOP", kProto + "NN.", "byte 4: STOP with 2 values on the stack");
}

void TestTorchCheckpoint::unneededOpcodesAreRefusedWithTheirOffset() {
    QFETCH(QByteArray, pickle);
    QFETCH(QString, message);
    const QString got = unpickleError(pickle.toStdString());
    QVERIFY2(got.contains(message) && got.startsWith("p.bin: data.pkl, byte "), qPrintable(got));
}

void TestTorchCheckpoint::hostileSizesStayBounded() {
    // A 4 GiB string announced in a 10-byte pickle: refused before anything is allocated.
    QVERIFY(unpickleError(kProto + "X\xff\xff\xff\xff" + ".").contains("a string of 4294967295 bytes"));
    // A list appended to itself and a memo index of 2^32 - 1: harmless values, then not a state dict.
    const std::string loop = kProto + "]r\xff\xff\xff\xffj\xff\xff\xff\xff" + "a.";
    const torch_pickle::Pickle p =
        torch_pickle::unpickle(reinterpret_cast<const uint8_t*>(loop.data()), loop.size(), "p.bin", "data.pkl");
    QCOMPARE(p.root().items.size(), size_t(1));
    QCOMPARE(p.root().items[0], &p.root());
    QCOMPARE(errorOf([&] { torch_pickle::readStateDict(p.root(), "p.bin"); }),
             QString("p.bin: the pickle holds a list, not a state dict (a dict of tensors)"));
    // 1.2 million MARKs or Nones: the limits, not memory, stop them.
    QVERIFY(unpickleError(kProto + std::string(1'200'000, '(') + ".").contains("too many open MARKs"));
    QVERIFY(unpickleError(kProto + std::string(1'200'000, 'N') + ".")
                .contains("byte 1000002: the pickle makes more than 1000000 values"));
}

ATTNVIZ_TEST_MAIN(TestTorchCheckpoint)
#include "test_torch_checkpoint.moc"
