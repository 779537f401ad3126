// Files and input text a test writes for the program under test (corpora, inputs, damaged models).
#pragma once
#include <QByteArray>
#include <QFile>
#include <QString>
#include <QStringList>
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

// One RFC 4180 record per line (no field holds a line break here): the fields with quotes undone.
inline QStringList csvFields(const QString& line) {
    QStringList fields;
    QString field;
    bool quoted = false;
    for (int i = 0; i < line.size(); ++i) {
        const QChar c = line[i];
        if (quoted) {
            if (c == u'"' && i + 1 < line.size() && line[i + 1] == u'"') {
                field += u'"';
                ++i;
            } else if (c == u'"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == u'"') {
            quoted = true;
        } else if (c == u',') {
            fields << field;
            field.clear();
        } else {
            field += c;
        }
    }
    return fields << field;
}

// The big-endian 32-bit number at byte `at` of `b` (a PNG's chunk lengths, width and height).
inline quint32 be32(const QByteArray& b, int at) {
    return (quint32(uchar(b[at])) << 24) | (quint32(uchar(b[at + 1])) << 16) | (quint32(uchar(b[at + 2])) << 8) |
           quint32(uchar(b[at + 3]));
}

// `word` n times, separated by spaces: an input line of n words.
inline QString words(int n, const QString& word) {
    QStringList w;
    for (int i = 0; i < n; ++i) w << word;
    return w.join(' ');
}

}  // namespace attnviz::testing
