// The terminal columns of the CLI's tables: each expected width is written out by hand from Unicode's
// East_Asian_Width (W and F take two columns) and General_Category (Mn, Me and Cf take none).
#include "test_registry.h"
#include "text/display_width.h"

#include <QTest>

#include <string>

using namespace attnviz;

class TestDisplayWidth : public QObject {
    Q_OBJECT
private slots:
    void widthsFollowEastAsianWidthAndCategories_data();
    void widthsFollowEastAsianWidthAndCategories();
    void paddingReachesTheColumnsAndNeverCuts();
};

void TestDisplayWidth::widthsFollowEastAsianWidthAndCategories_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("columns");
    QTest::newRow("ascii") << QByteArray("cat") << 3;
    QTest::newRow("empty") << QByteArray("") << 0;
    QTest::newRow("han, W") << QByteArray("我爱你") << 6;
    QTest::newRow("ideographic full stop, W") << QByteArray("。") << 2;
    QTest::newRow("fullwidth latin, F") << QByteArray("ＡＢ") << 4;
    QTest::newRow("hangul syllable, W") << QByteArray("한") << 2;
    QTest::newRow("halfwidth katakana, H") << QByteArray("ｱ") << 1;
    QTest::newRow("e + combining acute, Mn") << QByteArray("e\xCC\x81") << 1;
    QTest::newRow("zero width space, Cf") << QByteArray(
                                                 "a\xE2\x80\x8B"
                                                 "b")
                                          << 2;
    QTest::newRow("accented latin, N") << QByteArray("café") << 4;
    QTest::newRow("greek, A") << QByteArray("αβ") << 2;
    QTest::newRow("emoji, W") << QByteArray("\xF0\x9F\x98\x80") << 2;
    QTest::newRow("a byte that is not UTF-8") << QByteArray(
                                                     "a\xFF"
                                                     "b")
                                              << 3;
    QTest::newRow("truncated sequence") << QByteArray("\xE6\x88") << 2;
}

void TestDisplayWidth::widthsFollowEastAsianWidthAndCategories() {
    QFETCH(QByteArray, text);
    QFETCH(int, columns);
    QCOMPARE(displayWidth(text.toStdString()), columns);
}

void TestDisplayWidth::paddingReachesTheColumnsAndNeverCuts() {
    QCOMPARE(padRight("我", 5), std::string("我   "));
    QCOMPARE(padLeft("我", 5), std::string("   我"));
    QCOMPARE(padRight("cat", 3), std::string("cat"));
    QCOMPARE(padLeft("我爱你", 2), std::string("我爱你"));
}

ATTNVIZ_TEST_MAIN(TestDisplayWidth)
#include "test_display_width.moc"
