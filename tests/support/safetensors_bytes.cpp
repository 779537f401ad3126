#include "safetensors_bytes.h"

#include <QFile>
#include <QTest>

namespace attnviz::testing {

uint64_t headerLength(const Bytes& file) {
    uint64_t n = 0;
    for (int i = 7; i >= 0; --i) n = (n << 8) | file[size_t(i)];
    return n;
}

Parts split(const Bytes& file) {
    const uint64_t n = headerLength(file);
    return {ojson::parse(file.begin() + 8, file.begin() + 8 + long(n)), Bytes(file.begin() + 8 + long(n), file.end())};
}

Bytes rawFile(const std::string& header_text, const Bytes& buffer) {
    Bytes out(8);
    for (int i = 0; i < 8; ++i) out[size_t(i)] = uint8_t(uint64_t(header_text.size()) >> (8 * i));
    out.insert(out.end(), header_text.begin(), header_text.end());
    out.insert(out.end(), buffer.begin(), buffer.end());
    return out;
}

Bytes join(const Parts& parts) { return rawFile(parts.header.dump(), parts.buffer); }

void writeBytes(const QString& path, const Bytes& bytes) {
    QFile f(path);
    QVERIFY2(f.open(QIODevice::WriteOnly), qPrintable(path + ": " + f.errorString()));
    QCOMPARE(f.write(reinterpret_cast<const char*>(bytes.data()), qint64(bytes.size())), qint64(bytes.size()));
}

}  // namespace attnviz::testing
