// Files a test writes for the program under test (corpora, inputs, damaged models).
#pragma once
#include <QByteArray>
#include <QFile>
#include <QString>
#include <QTest>

namespace attnviz::testing {

// Writes `bytes` to `path` (replacing it); a file that cannot be opened fails the calling test.
inline void writeFile(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    QVERIFY2(f.open(QIODevice::WriteOnly), qPrintable(path + ": " + f.errorString()));
    QCOMPARE(f.write(bytes), qint64(bytes.size()));
}

// The bytes of the file at `path`, or "<missing>" when it cannot be opened (never equal to what a test wrote).
inline QByteArray readFile(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray("<missing>");
}

}  // namespace attnviz::testing
