// The three tokenizers (docs/model-format.md "Tokenizers"), lower-casing, UTF-8 validation, ids with <unk>,
// specials typed by a user, detokenize. Every expected value is written out by hand from the Unicode tables
// (White_Space, general categories, simple lower-case mappings), never computed by the code under test.
#include "base/errors.h"
#include "model/model.h"
#include "model/vocab.h"
#include "test_registry.h"
#include "text/tokenizer.h"

#include <QStringList>
#include <QTest>

#include <initializer_list>
#include <string>
#include <vector>

using namespace attnviz;

Q_DECLARE_METATYPE(attnviz::TokenizerKind)

namespace {

constexpr auto WS = TokenizerKind::Whitespace;
constexpr auto WORD = TokenizerKind::Word;
constexpr auto CHAR = TokenizerKind::Char;

// Invisible characters, spelled out so the rows stay readable.
#define NBSP "\u00A0"
#define IDEO_SPACE "\u3000"
#define ZWJ "\u200D"
#define MARK "\u2581"  // ▁

QStringList list(std::initializer_list<const char*> items) {
    QStringList out;
    for (const char* s : items) out << QString::fromUtf8(s);
    return out;
}

QStringList toList(const std::vector<std::string>& v) {
    QStringList out;
    for (const auto& s : v) out << QString::fromStdString(s);
    return out;
}

QList<int> toIds(const std::vector<int>& v) { return QList<int>(v.begin(), v.end()); }

// Source: English-ish words; target: Chinese characters and the char tokenizer's "▁".
Model makeModel(TokenizerKind source, TokenizerKind target, bool lowercase) {
    Model m;
    m.config.tokenizer = {source, target, lowercase};
    m.source_vocab =
        Vocabulary({"<pad>", "<unk>", "<sos>", "<eos>", "the", "cat", "sat", ".", "don", "'", "t"}, "source_vocab");
    m.target_vocab = Vocabulary({"<pad>", "<unk>", "<sos>", "<eos>", "我", "爱", "你", MARK}, "target_vocab");
    return m;
}

}  // namespace

class TestTokenizer : public QObject {
    Q_OBJECT
private slots:
    void tokenizeText_data();
    void tokenizeText();
    void invalidUtf8_data();
    void invalidUtf8();
    void invalidUtf8Message();
    void withIds_data();
    void withIds();
    void detokenizeTokens_data();
    void detokenizeTokens();
    void roundTrip_data();
    void roundTrip();
    void tenThousandWordsIsFast();
};

void TestTokenizer::tokenizeText_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<TokenizerKind>("kind");
    QTest::addColumn<bool>("lowercase");
    QTest::addColumn<QStringList>("expected");

    // whitespace: split on White_Space only, nothing else changes
    QTest::addRow("ws: ascii") << QByteArray("the cat sat") << WS << false << list({"the", "cat", "sat"});
    QTest::addRow("ws: runs of spaces, tabs, newlines, CRLF")
        << QByteArray("  a \t\tb\n\r\nc  ") << WS << false << list({"a", "b", "c"});
    QTest::addRow("ws: U+3000 ideographic space splits")
        << QByteArray("我" IDEO_SPACE "爱 你") << WS << false << list({"我", "爱", "你"});
    QTest::addRow("ws: NBSP splits") << QByteArray("a" NBSP "b") << WS << false << list({"a", "b"});
    QTest::addRow("ws: em space, line separator, NEL split")
        << QByteArray("a\u2003b\u2028c\u0085d") << WS << false << list({"a", "b", "c", "d"});
    QTest::addRow("ws: zero-width space U+200B is not whitespace")
        << QByteArray("a\u200Bb") << WS << false << list({"a\u200Bb"});
    QTest::addRow("ws: BOM U+FEFF is not whitespace (stays on the first word)")
        << QByteArray("\uFEFFa b") << WS << false << list({"\uFEFFa", "b"});
    QTest::addRow("ws: U+001F unit separator is not whitespace") << QByteArray(
                                                                        "a\x1F"
                                                                        "b")
                                                                 << WS << false
                                                                 << list({"a\x1F"
                                                                          "b"});
    QTest::addRow("ws: punctuation stays attached")
        << QByteArray("hello, world!") << WS << false << list({"hello,", "world!"});
    QTest::addRow("ws: CJK spaced") << QByteArray("我 爱 你") << WS << false << list({"我", "爱", "你"});
    QTest::addRow("ws: CJK unspaced is one token") << QByteArray("我爱你") << WS << false << list({"我爱你"});
    QTest::addRow("ws: Arabic in logical order")
        << QByteArray("مرحبا بالعالم") << WS << false << list({"مرحبا", "بالعالم"});
    QTest::addRow("ws: Hebrew in logical order") << QByteArray("שלום עולם") << WS << false << list({"שלום", "עולם"});
    QTest::addRow("ws: case kept without lowercase")
        << QByteArray("Hello WORLD") << WS << false << list({"Hello", "WORLD"});
    QTest::addRow("ws: special spelled by user is a plain token")
        << QByteArray("a <eos> b") << WS << false << list({"a", "<eos>", "b"});
    QTest::addRow("ws: empty") << QByteArray("") << WS << false << QStringList();
    QTest::addRow("ws: whitespace only") << QByteArray(" \t\n" IDEO_SPACE NBSP) << WS << false << QStringList();

    // lowercase: simple one-to-one mapping, no locale, no context
    QTest::addRow("lc: ascii") << QByteArray("Hello WORLD") << WS << true << list({"hello", "world"});
    QTest::addRow("lc: accented capitals") << QByteArray("ÀÉÎ Ñ") << WS << true << list({"àéî", "ñ"});
    QTest::addRow("lc: Turkish İ maps to plain i (simple mapping)")
        << QByteArray("İstanbul") << WS << true << list({"istanbul"});
    QTest::addRow("lc: I maps to i, dotless ı kept (no Turkish locale)")
        << QByteArray("I ı") << WS << true << list({"i", "ı"});
    QTest::addRow("lc: Greek final Σ becomes σ, not ς") << QByteArray("ΟΔΟΣ") << WS << true << list({"οδοσ"});
    QTest::addRow("lc: capital sharp s ẞ to ß") << QByteArray("STRAẞE") << WS << true << list({"straße"});
    QTest::addRow("lc: Cyrillic") << QByteArray("ПРИВЕТ Мир") << WS << true << list({"привет", "мир"});
    QTest::addRow("lc: byte length changes (Ⱥ 2 bytes to ⱥ 3 bytes)") << QByteArray("ȺB") << WS << true << list({"ⱥb"});
    QTest::addRow("lc: CJK and Arabic unchanged")
        << QByteArray("我爱你 سلام") << WS << true << list({"我爱你", "سلام"});

    // word: every P* / S* code point a token of its own
    QTest::addRow("word: apostrophe splits") << QByteArray("don't") << WORD << false << list({"don", "'", "t"});
    QTest::addRow("word: comma and full stop detach")
        << QByteArray("hello, world.") << WORD << false << list({"hello", ",", "world", "."});
    QTest::addRow("word: run of punctuation, one token each")
        << QByteArray("wait...!") << WORD << false << list({"wait", ".", ".", ".", "!"});
    QTest::addRow("word: currency symbol Sc") << QByteArray("$5") << WORD << false << list({"$", "5"});
    QTest::addRow("word: math symbols Sm") << QByteArray("a+b=c") << WORD << false << list({"a", "+", "b", "=", "c"});
    QTest::addRow("word: underscore is Pc")
        << QByteArray("snake_case") << WORD << false << list({"snake", "_", "case"});
    QTest::addRow("word: decimal point splits numbers")
        << QByteArray("3.14") << WORD << false << list({"3", ".", "14"});
    QTest::addRow("word: guillemets") << QByteArray("«Bonjour»") << WORD << false << list({"«", "Bonjour", "»"});
    QTest::addRow("word: CJK fullwidth comma and full stop")
        << QByteArray("你好，世界。") << WORD << false << list({"你好", "，", "世界", "。"});
    QTest::addRow("word: Arabic comma and question mark")
        << QByteArray("مرحبا، عالم؟") << WORD << false << list({"مرحبا", "،", "عالم", "؟"});
    QTest::addRow("word: Hebrew maqaf is Pd") << QByteArray("בית־ספר") << WORD << false << list({"בית", "־", "ספר"});
    QTest::addRow("word: emoji So inside a word") << QByteArray("I❤you") << WORD << false << list({"I", "❤", "you"});
    QTest::addRow("word: supplementary-plane emoji") << QByteArray("ok👍👍") << WORD << false << list({"ok", "👍", "👍"});
    // ZWJ is Cf (neither P/S nor whitespace), so it forms its own "word" between the So pieces.
    QTest::addRow("word: ZWJ family emoji")
        << QByteArray("👨" ZWJ "👩" ZWJ "👧") << WORD << false << list({"👨", ZWJ, "👩", ZWJ, "👧"});
    // Skin-tone modifiers are Sk: a token of their own too.
    QTest::addRow("word: skin-tone modifier Sk") << QByteArray("👋🏽") << WORD << false << list({"👋", "🏽"});
    QTest::addRow("word: combining acute (Mn) stays in its word")
        << QByteArray("e\u0301te") << WORD << false << list({"e\u0301te"});
    QTest::addRow("word: special spelled by user splits at < and >")
        << QByteArray("<eos>") << WORD << false << list({"<", "eos", ">"});
    QTest::addRow("word: lowercase then split") << QByteArray("DON'T!") << WORD << true << list({"don", "'", "t", "!"});
    // The Tatoeba models' tokenizers (sample_models/README.md): contractions split at the apostrophe, lower-cased;
    // Chinese one code point a token, full-width punctuation included.
    QTest::addRow("word: Tatoeba English")
        << QByteArray("I'm Tom's friend, don't go!") << WORD << true
        << list({"i", "'", "m", "tom", "'", "s", "friend", ",", "don", "'", "t", "go", "!"});
    QTest::addRow("char: Tatoeba Chinese") << QByteArray("你好，Tom。你是谁？") << CHAR << true
                                           << list({"你", "好", "，", "t", "o", "m", "。", "你", "是", "谁", "？"});
    QTest::addRow("word: whitespace only") << QByteArray("  \n ") << WORD << false << QStringList();

    // char: every code point a token, whitespace runs one ▁, leading/trailing runs dropped
    QTest::addRow("char: ascii with one space") << QByteArray("ab c") << CHAR << false << list({"a", "b", MARK, "c"});
    QTest::addRow("char: a run of mixed whitespace is one mark")
        << QByteArray("a  \t\n b") << CHAR << false << list({"a", MARK, "b"});
    QTest::addRow("char: leading and trailing whitespace dropped")
        << QByteArray(" \t ab \n") << CHAR << false << list({"a", "b"});
    QTest::addRow("char: CJK unspaced") << QByteArray("我爱你") << CHAR << false << list({"我", "爱", "你"});
    QTest::addRow("char: U+3000 and NBSP become marks")
        << QByteArray("我" IDEO_SPACE "爱" NBSP "你") << CHAR << false << list({"我", MARK, "爱", MARK, "你"});
    QTest::addRow("char: combining mark is its own token")
        << QByteArray("e\u0301") << CHAR << false << list({"e", "\u0301"});
    QTest::addRow("char: ZWJ emoji per code point")
        << QByteArray("👨" ZWJ "👩" ZWJ "👧") << CHAR << false << list({"👨", ZWJ, "👩", ZWJ, "👧"});
    QTest::addRow("char: punctuation per code point") << QByteArray("a,b") << CHAR << false << list({"a", ",", "b"});
    QTest::addRow("char: Arabic letters in logical order")
        << QByteArray("سلام") << CHAR << false << list({"س", "ل", "ا", "م"});
    QTest::addRow("char: lowercase") << QByteArray("AbÇ") << CHAR << true << list({"a", "b", "ç"});
    // A literal ▁ typed in the text cannot be told apart from a whitespace run (as in SentencePiece).
    QTest::addRow("char: literal U+2581 in text")
        << QByteArray("a" MARK "b") << CHAR << false << list({"a", MARK, "b"});
    QTest::addRow("char: empty") << QByteArray("") << CHAR << false << QStringList();
    QTest::addRow("char: whitespace only") << QByteArray("   " IDEO_SPACE) << CHAR << false << QStringList();
}

void TestTokenizer::tokenizeText() {
    QFETCH(QByteArray, text);
    QFETCH(TokenizerKind, kind);
    QFETCH(bool, lowercase);
    QFETCH(QStringList, expected);
    QCOMPARE(toList(tokenize(std::string_view(text.constData(), size_t(text.size())), kind, lowercase)), expected);
}

void TestTokenizer::invalidUtf8_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<int>("byte");  // 0-based offset of the first byte of the bad sequence

    QTest::addRow("lone continuation byte") << QByteArray(
                                                   "ab\x80"
                                                   "c")
                                            << 2;
    QTest::addRow("continuation byte at start") << QByteArray("\xBF") << 0;
    QTest::addRow("truncated 3-byte sequence at end") << QByteArray("a\xE4\xBD") << 1;
    QTest::addRow("truncated 3-byte sequence before ascii") << QByteArray(
                                                                   "\xE4\xBD"
                                                                   "x")
                                                            << 0;
    QTest::addRow("truncated 4-byte sequence before space") << QByteArray("ok\xF0\x9F\x91 ") << 2;
    QTest::addRow("overlong 2-byte '/' (C0 AF)") << QByteArray("\xC0\xAF") << 0;
    QTest::addRow("overlong 3-byte (E0 80 AF)") << QByteArray("x\xE0\x80\xAF") << 1;
    QTest::addRow("overlong 4-byte (F0 80 80 AF)") << QByteArray("xy\xF0\x80\x80\xAF") << 2;
    QTest::addRow("surrogate U+D800 (ED A0 80)") << QByteArray("ok \xED\xA0\x80") << 3;
    QTest::addRow("above U+10FFFF (F4 90 80 80)") << QByteArray("\xF4\x90\x80\x80") << 0;
    QTest::addRow("byte FF") << QByteArray("a b\xFF") << 3;
    QTest::addRow("offset counts bytes, not code points") << QByteArray("我爱\x80") << 6;
    QTest::addRow("bad byte after whitespace only") << QByteArray("   \xC3") << 3;
}

void TestTokenizer::invalidUtf8() {
    QFETCH(QByteArray, text);
    QFETCH(int, byte);
    const std::string needle = "invalid UTF-8 at byte " + std::to_string(byte) + " (";
    for (TokenizerKind kind : {WS, WORD, CHAR}) {
        for (bool lowercase : {false, true}) {
            try {
                tokenize(std::string_view(text.constData(), size_t(text.size())), kind, lowercase);
                QFAIL(qPrintable(QString("no InputError for kind %1 lowercase %2").arg(int(kind)).arg(lowercase)));
            } catch (const InputError& e) {
                const std::string what = e.what();
                QVERIFY2(what.find(needle) != std::string::npos, e.what());
            }
        }
    }
}

void TestTokenizer::invalidUtf8Message() {
    try {
        tokenize(
            "ab\x80"
            "c",
            WORD, false);
        QFAIL("no InputError");
    } catch (const InputError& e) {
        QCOMPARE(QString(e.what()),
                 QString("input text: invalid UTF-8 at byte 2 (0x80: continuation byte without a lead byte)"));
    }
    try {
        tokenize("x\xE4\xBD", CHAR, false);
        QFAIL("no InputError");
    } catch (const InputError& e) {
        QCOMPARE(QString(e.what()), QString("input text: invalid UTF-8 at byte 1 (0xE4: truncated 3-byte sequence)"));
    }
}

void TestTokenizer::withIds_data() {
    QTest::addColumn<bool>("source");  // tokenizeSource, else tokenizeTarget
    QTest::addColumn<TokenizerKind>("sourceKind");
    QTest::addColumn<TokenizerKind>("targetKind");
    QTest::addColumn<bool>("lowercase");
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QStringList>("tokens");
    QTest::addColumn<QList<int>>("ids");

    // source vocab: the 4, cat 5, sat 6, . 7, don 8, ' 9, t 10; target vocab: 我 4, 爱 5, 你 6, ▁ 7
    QTest::addRow("source: known words framed by <sos> <eos>")
        << true << WS << CHAR << false << QByteArray("the cat sat") << list({"<sos>", "the", "cat", "sat", "<eos>"})
        << QList<int>{2, 4, 5, 6, 3};
    QTest::addRow("source: unknown word keeps its spelling, id 1")
        << true << WS << CHAR << false << QByteArray("the Dog sat") << list({"<sos>", "the", "Dog", "sat", "<eos>"})
        << QList<int>{2, 4, 1, 6, 3};
    QTest::addRow("source: case matters without lowercase")
        << true << WS << CHAR << false << QByteArray("The CAT") << list({"<sos>", "The", "CAT", "<eos>"})
        << QList<int>{2, 1, 1, 3};
    QTest::addRow("source: lowercase makes them known")
        << true << WS << CHAR << true << QByteArray("The CAT") << list({"<sos>", "the", "cat", "<eos>"})
        << QList<int>{2, 4, 5, 3};
    QTest::addRow("source: typed <eos> is <unk>, spelling kept")
        << true << WS << CHAR << false << QByteArray("the <eos> cat") << list({"<sos>", "the", "<eos>", "cat", "<eos>"})
        << QList<int>{2, 4, 1, 5, 3};
    QTest::addRow("source: typed <sos> <pad> <unk> are <unk>")
        << true << WS << CHAR << false << QByteArray("<sos> <pad> <unk>")
        << list({"<sos>", "<sos>", "<pad>", "<unk>", "<eos>"}) << QList<int>{2, 1, 1, 1, 3};
    QTest::addRow("source: word tokenizer")
        << true << WORD << CHAR << false << QByteArray("don't.") << list({"<sos>", "don", "'", "t", ".", "<eos>"})
        << QList<int>{2, 8, 9, 10, 7, 3};
    QTest::addRow("source: empty text is <sos> <eos>")
        << true << WS << CHAR << false << QByteArray("  ") << list({"<sos>", "<eos>"}) << QList<int>{2, 3};
    QTest::addRow("target: char, no <sos>") << false << WS << CHAR << false << QByteArray("我爱你")
                                            << list({"我", "爱", "你", "<eos>"}) << QList<int>{4, 5, 6, 3};
    QTest::addRow("target: char marks and an unknown")
        << false << WS << CHAR << false << QByteArray(" 我 爱  他 ") << list({"我", MARK, "爱", MARK, "他", "<eos>"})
        << QList<int>{4, 7, 5, 7, 1, 3};
    QTest::addRow("target: uses the target tokenizer, not the source's")
        << false << CHAR << WS << false << QByteArray("我 爱你") << list({"我", "爱你", "<eos>"})
        << QList<int>{4, 1, 3};
    QTest::addRow("target: typed <eos> in whitespace mode is <unk>")
        << false << WS << WS << false << QByteArray("我 <eos>") << list({"我", "<eos>", "<eos>"})
        << QList<int>{4, 1, 3};
    QTest::addRow("target: empty text is <eos>")
        << false << WS << CHAR << false << QByteArray("") << list({"<eos>"}) << QList<int>{3};
}

void TestTokenizer::withIds() {
    QFETCH(bool, source);
    QFETCH(TokenizerKind, sourceKind);
    QFETCH(TokenizerKind, targetKind);
    QFETCH(bool, lowercase);
    QFETCH(QByteArray, text);
    QFETCH(QStringList, tokens);
    QFETCH(QList<int>, ids);
    const Model m = makeModel(sourceKind, targetKind, lowercase);
    const std::string_view sv(text.constData(), size_t(text.size()));
    const TokenizedText t = source ? tokenizeSource(m, sv) : tokenizeTarget(m, sv);
    QCOMPARE(toList(t.tokens), tokens);
    QCOMPARE(toIds(t.ids), ids);
}

void TestTokenizer::detokenizeTokens_data() {
    QTest::addColumn<QStringList>("tokens");
    QTest::addColumn<TokenizerKind>("kind");
    QTest::addColumn<QString>("expected");

    QTest::addRow("ws: joined with single spaces") << list({"the", "cat", "sat"}) << WS << QString("the cat sat");
    QTest::addRow("ws: <sos> <pad> <eos> left out")
        << list({"<sos>", "the", "<pad>", "cat", "<eos>"}) << WS << QString("the cat");
    QTest::addRow("ws: <unk> is shown") << list({"the", "<unk>", "cat"}) << WS << QString("the <unk> cat");
    QTest::addRow("ws: leading special does not leave a space") << list({"<pad>", "a"}) << WS << QString("a");
    QTest::addRow("word: joined with spaces too") << list({"don", "'", "t"}) << WORD << QString("don ' t");
    QTest::addRow("char: concatenated") << list({"我", "爱", "你", "<eos>"}) << CHAR << QString::fromUtf8("我爱你");
    QTest::addRow("char: mark becomes a space") << list({"a", "b", MARK, "c"}) << CHAR << QString("ab c");
    QTest::addRow("char: marks inside longer tokens") << list({MARK "the", MARK "cat"}) << CHAR << QString(" the cat");
    QTest::addRow("char: specials left out")
        << list({"<sos>", "a", "<pad>", MARK, "b", "<eos>"}) << CHAR << QString("a b");
    QTest::addRow("empty") << QStringList() << WS << QString();
    QTest::addRow("only specials") << list({"<sos>", "<eos>"}) << CHAR << QString();
}

void TestTokenizer::detokenizeTokens() {
    QFETCH(QStringList, tokens);
    QFETCH(TokenizerKind, kind);
    QFETCH(QString, expected);
    std::vector<std::string> v;
    for (const QString& t : tokens) v.push_back(t.toStdString());
    QCOMPARE(QString::fromStdString(detokenize(v, kind)), expected);
}

void TestTokenizer::roundTrip_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<TokenizerKind>("kind");
    QTest::addColumn<QString>("expected");  // the text with whitespace runs normalised to one space, ends trimmed

    QTest::addRow("ws: whitespace normalised") << QByteArray(" the\t\tcat\n sat ") << WS << QString("the cat sat");
    QTest::addRow("char: CJK with spaces")
        << QByteArray("  我 爱" IDEO_SPACE "\t你  ") << CHAR << QString::fromUtf8("我 爱 你");
    QTest::addRow("char: Latin sentence") << QByteArray("Hello,  world!") << CHAR << QString("Hello, world!");
    QTest::addRow("char: Hebrew") << QByteArray("שלום עולם") << CHAR << QString::fromUtf8("שלום עולם");
}

void TestTokenizer::roundTrip() {
    QFETCH(QByteArray, text);
    QFETCH(TokenizerKind, kind);
    QFETCH(QString, expected);
    const auto tokens = tokenize(std::string_view(text.constData(), size_t(text.size())), kind, false);
    QCOMPARE(QString::fromStdString(detokenize(tokens, kind)), expected);
}

// A 10,000-word paste (mixed Latin, accented, CJK, punctuation, emoji, Arabic) gives exactly the tokens it should in
// every mode (counts worked out by hand per 8-word cycle). Its speed is measured in bench/, not asserted here.
void TestTokenizer::tenThousandWordsIsFast() {
    const char* words[] = {"The", "café,", "我爱你", "don't", "ΟΔΟΣ", "naïve", "👍", "مرحبا."};
    std::string text;
    for (int i = 0; i < 10000; ++i) {
        text += words[i % 8];
        text += (i % 13 == 12) ? "\n" : " ";
    }
    // whitespace: one token a word. word: The 1, café , 2, 我爱你 1, don ' t 3, ΟΔΟΣ 1, naïve 1, 👍 1, مرحبا . 2 = 12
    // per cycle. char: 3+5+3+5+4+5+1+6 = 32 code points per cycle plus one ▁ between neighbouring words.
    QCOMPARE(int(tokenize(text, WS, true).size()), 10000);
    QCOMPARE(int(tokenize(text, WORD, true).size()), 1250 * 12);
    QCOMPARE(int(tokenize(text, CHAR, true).size()), 1250 * 32 + 9999);
}

ATTNVIZ_TEST_MAIN(TestTokenizer)
#include "test_tokenizer.moc"
