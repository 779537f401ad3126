// core/corpus: the TSV reader of train/eval/decode --input. Every bad line is reported with its line number.
#include "base/errors.h"
#include "base/utf8.h"
#include "io/corpus.h"
#include "test_registry.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>

using namespace attnviz;

class TestCorpus : public QObject {
    Q_OBJECT
private slots:
    void goodFiles_data();
    void goodFiles();
    void badFiles_data();
    void badFiles();
    void alignmentParsed();
    void tokensAndRangeCheck();
    void sourceOnlyLinesWhenAllowed();
    void missingFileNamesPath();
    void utf8Validator_data();
    void utf8Validator();
};

static CorpusOptions withWordTokenizer() {
    CorpusOptions o;
    o.tokenizer = TokenizerConfig{TokenizerKind::Word, TokenizerKind::Whitespace, true};
    return o;
}

void TestCorpus::goodFiles_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("count");
    QTest::addColumn<int>("lastLine");  // line number of the last example
    QTest::addColumn<QString>("lastTarget");
    QTest::newRow("two lines LF") << QByteArray("a b\tx y\nc\tz\n") << 2 << 2 << "z";
    QTest::newRow("no final newline") << QByteArray("a b\tx y\nc\tz") << 2 << 2 << "z";
    QTest::newRow("CRLF stripped") << QByteArray("a b\tx y\r\nc\tz\r\n") << 2 << 2 << "z";
    QTest::newRow("blank lines skipped, numbering kept") << QByteArray("\na\tx\n   \n\r\nb\ty\n\n") << 2 << 5 << "y";
    QTest::newRow("byte-order mark dropped") << QByteArray(
                                                    "\xEF\xBB\xBF"
                                                    "a\tx\n")
                                             << 1 << 1 << "x";
    QTest::newRow("utf-8 chinese target")
        << QByteArray("i love you\t我 爱 你\n") << 1 << 1 << QString::fromUtf8("我 爱 你");
    QTest::newRow("empty alignment field is zero links") << QByteArray("a\tx\t\n") << 1 << 1 << "x";
    QTest::newRow("empty file") << QByteArray("") << 0 << 0 << "";
}

void TestCorpus::goodFiles() {
    QFETCH(QByteArray, text);
    QFETCH(int, count);
    QFETCH(int, lastLine);
    QFETCH(QString, lastTarget);
    const Corpus c = parseCorpus(std::string_view(text.constData(), static_cast<size_t>(text.size())), "data.tsv");
    QCOMPARE(int(c.examples.size()), count);
    if (count > 0) {
        QCOMPARE(c.examples.back().line, lastLine);
        QCOMPARE(QString::fromStdString(c.examples.back().target), lastTarget);
        QVERIFY(c.examples.back().target.find('\r') == std::string::npos);
    }
}

void TestCorpus::badFiles_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<bool>("tokenize");
    QTest::addColumn<QString>("expected");  // substring of the message, which always starts with "data.tsv:LINE: "
    QTest::newRow("missing tab on line 2") << QByteArray("a\tx\nno tab here\n") << false << "data.tsv:2: no tab";
    QTest::newRow("invalid utf-8 stray continuation")
        << QByteArray("a\tx\nb\t\x80y\n") << false << "data.tsv:2: invalid UTF-8 at byte 3";
    QTest::newRow("invalid utf-8 truncated at end")
        << QByteArray("a\tx\xE6\x88\n") << false << "data.tsv:1: invalid UTF-8";
    QTest::newRow("invalid utf-8 surrogate") << QByteArray("\xED\xA0\x80\tx\n") << false << "data.tsv:1: invalid UTF-8";
    QTest::newRow("invalid utf-8 overlong") << QByteArray("\xC0\xAF\tx\n") << false << "data.tsv:1: invalid UTF-8";
    QTest::newRow("alignment 3-x") << QByteArray("a b c d\tw x y z\t0-0 3-x\n") << false
                                   << "data.tsv:1: bad alignment link \"3-x\"";
    QTest::newRow("alignment without dash")
        << QByteArray("a\tx\t0-0\nb\ty\t3\n") << false << "data.tsv:2: bad alignment link \"3\"";
    QTest::newRow("alignment negative") << QByteArray("a\tx\t-1-0\n") << false << "bad alignment link \"-1-0\"";
    QTest::newRow("alignment source out of range")
        << QByteArray("a b\tx y\t0-0 2-1\n") << true
        << "data.tsv:1: alignment link 2-1: source word 2 does not exist (the source has 2 words";
    QTest::newRow("alignment target out of range") << QByteArray("a b\tx y\n\na b\tx y\t0-0 1-2\n") << true
                                                   << "data.tsv:3: alignment link 1-2: target word 2 does not exist";
    QTest::newRow("possible link out of range")
        << QByteArray("a b\tx y\t0-0 1?2\n") << true << "data.tsv:1: alignment link 1?2: target word 2 does not exist";
    QTest::newRow("possible link not a number")
        << QByteArray("a b\tx y\t0?y\n") << false << "data.tsv:1: bad alignment link \"0?y\"";
    QTest::newRow("four fields") << QByteArray("a\tx\t0-0\textra\n") << false
                                 << "data.tsv:1: found 4 tab-separated fields";
    QTest::newRow("empty source") << QByteArray("a\tx\n \ty\n") << false << "data.tsv:2: empty source";
    QTest::newRow("empty target") << QByteArray("a\t \n") << false << "data.tsv:1: empty target";
    QTest::newRow("target of only U+3000 has no tokens")
        << QByteArray("a\t\xE3\x80\x80\n") << true << "data.tsv:1: the target sentence has no tokens";
}

void TestCorpus::badFiles() {
    QFETCH(QByteArray, text);
    QFETCH(bool, tokenize);
    QFETCH(QString, expected);
    try {
        parseCorpus(std::string_view(text.constData(), static_cast<size_t>(text.size())), "data.tsv",
                    tokenize ? withWordTokenizer() : CorpusOptions{});
        QFAIL("no error");
    } catch (const InputError& e) {
        const QString msg = QString::fromUtf8(e.what());
        QVERIFY2(msg.contains(expected), qPrintable(msg));
        QVERIFY2(msg.startsWith("data.tsv:"), qPrintable(msg));
    }
}

void TestCorpus::alignmentParsed() {
    const Corpus c = parseCorpus("the cat\t猫 了\t1-0  0-0 1-0 1?0 0?1\n", "a.tsv");
    QCOMPARE(int(c.examples.size()), 1);
    QVERIFY(c.examples[0].has_alignment);
    // Sorted and de-duplicated.
    const std::vector<AlignmentLink> want = {{0, 0}, {1, 0}};
    QCOMPARE(c.examples[0].alignment.sure, want);
    // 1?0 is also sure, so only 0?1 is possible-only.
    QCOMPARE(c.examples[0].alignment.possible, (std::vector<AlignmentLink>{{0, 1}}));
    QCOMPARE(c.alignedCount(), 1);
}

void TestCorpus::tokensAndRangeCheck() {
    // word tokenizer with lowercase on the source: "Hello, World!" -> hello , world !
    const Corpus c = parseCorpus("Hello, World!\tx y\t3-1\n", "a.tsv", withWordTokenizer());
    const std::vector<std::string> src = {"hello", ",", "world", "!"};
    QCOMPARE(c.examples[0].source_tokens, src);
    QCOMPARE(int(c.examples[0].target_tokens.size()), 2);
}

void TestCorpus::sourceOnlyLinesWhenAllowed() {
    CorpusOptions o;
    o.require_target = false;
    const Corpus c = parseCorpus("just a source\nwith\tref\n", "in.txt", o);
    QCOMPARE(int(c.examples.size()), 2);
    QVERIFY(!c.examples[0].has_target);
    QVERIFY(c.examples[1].has_target);
    QCOMPARE(c.examples[1].target, std::string("ref"));
}

void TestCorpus::missingFileNamesPath() {
    QTemporaryDir dir;
    const std::string missing = dir.filePath("nope.tsv").toStdString();
    try {
        readCorpus(missing);
        QFAIL("no error");
    } catch (const InputError& e) {
        QVERIFY(QString::fromUtf8(e.what()).startsWith(QString::fromStdString(missing + ": cannot open")));
    }
    const std::string good = dir.filePath("ok.tsv").toStdString();
    std::ofstream(good) << "a\tb\n";
    QCOMPARE(int(readCorpus(good).examples.size()), 1);
    try {
        readCorpus(dir.path().toStdString());
        QFAIL("no error for a directory");
    } catch (const InputError& e) {
        QVERIFY(QString::fromUtf8(e.what()).contains("is a directory"));
    }
}

void TestCorpus::utf8Validator_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<int>("bad");  // -1 = valid
    QTest::newRow("ascii") << QByteArray("abc") << -1;
    QTest::newRow("2,3,4-byte") << QByteArray("\xC3\xA9\xE6\x88\x91\xF0\x9F\x98\x80") << -1;
    QTest::newRow("max code point U+10FFFF") << QByteArray("\xF4\x8F\xBF\xBF") << -1;
    QTest::newRow("above U+10FFFF") << QByteArray("a\xF4\x90\x80\x80") << 1;
    QTest::newRow("overlong 3-byte") << QByteArray("ab\xE0\x80\xAF") << 2;
    QTest::newRow("lone lead byte then ascii") << QByteArray(
                                                      "\xE6"
                                                      "ab")
                                               << 0;
    QTest::newRow("0xFF") << QByteArray("ok\xFF") << 2;
}

void TestCorpus::utf8Validator() {
    QFETCH(QByteArray, bytes);
    QFETCH(int, bad);
    const size_t got = firstInvalidUtf8(std::string_view(bytes.constData(), static_cast<size_t>(bytes.size())));
    QCOMPARE(got == std::string_view::npos ? -1 : int(got), bad);
}

ATTNVIZ_TEST_MAIN(TestCorpus)
#include "test_corpus.moc"
