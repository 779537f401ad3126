// SentencePiece models (docs/marian.md "Tokenization"): unigram models trained by the library's trainer on the
// Tatoeba split, text to pieces and back, deterministic training, the sizes a corpus allows, language codes, and
// .spm bytes that are corrupt, truncated, random or hand-made to point the library's tries outside the file.
#include "base/errors.h"
#include "io/sentencepiece_file.h"
#include "test_registry.h"
#include "text/language_code.h"
#include "text/sentencepiece_model.h"
#include "text/sentencepiece_proto.h"
#include "text/sentencepiece_training.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

using namespace attnviz;

namespace {

// The first `n` lines of one column (0 English, 1 Chinese) of the Tatoeba train split.
std::vector<std::string> tatoebaLines(int column, int n) {
    QFile f(QStringLiteral(ATTNVIZ_CORPORA_DIR "/tatoeba/train.tsv"));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("%s: missing (build the attnviz_corpora target)", qPrintable(f.fileName()));
    std::vector<std::string> lines;
    while (!f.atEnd() && static_cast<int>(lines.size()) < n) {
        const QList<QByteArray> fields = f.readLine().trimmed().split('\t');
        if (fields.size() == 2) lines.push_back(fields[column].toStdString());
    }
    return lines;
}

// The message of what f() throws if it is an E; "<no E>" otherwise (another exception, or none).
template <typename E, typename F>
QString errorOfType(F&& f) {
    try {
        f();
    } catch (const E& e) {
        return QString::fromUtf8(e.what());
    } catch (const std::exception& e) {
        return QStringLiteral("<not the expected type: ") + QString::fromUtf8(e.what()) + ">";
    }
    return QStringLiteral("<no exception>");
}

QStringList toList(const std::vector<std::string>& v) {
    QStringList out;
    for (const auto& s : v) out << QString::fromStdString(s);
    return out;
}

// Protobuf wire format, to write .spm files by hand.
std::string varint(uint64_t v) {
    std::string out;
    do {
        out += static_cast<char>((v & 0x7F) | (v > 0x7F ? 0x80 : 0));
        v >>= 7;
    } while (v);
    return out;
}
std::string lengthField(int number, const std::string& payload) {
    return varint(uint64_t(number) << 3 | 2) + varint(payload.size()) + payload;
}
std::string varintField(int number, uint64_t value) { return varint(uint64_t(number) << 3) + varint(value); }
std::string floatField(int number, float value) {
    std::string out = varint(uint64_t(number) << 3 | 5);
    char b[4];
    std::memcpy(b, &value, 4);
    return out + std::string(b, 4);
}
std::string pieceField(const std::string& piece, float score, int type) {
    return lengthField(1, lengthField(1, piece) + floatField(2, score) + varintField(3, type));
}
std::string u32(uint32_t v) {
    std::string out(4, '\0');
    for (int i = 0; i < 4; ++i) out[i] = static_cast<char>(v >> (8 * i));
    return out;
}

// A unigram model written by hand: <unk>, <s>, </s>, then "▁a", "▁b", "c"; `extra` appended (more fields).
std::string handMadeModel(const std::string& extra = {}) {
    return pieceField("<unk>", 0, 2) + pieceField("<s>", 0, 3) + pieceField("</s>", 0, 3) +
           pieceField(
               "\xE2\x96\x81"
               "a",
               -1, 1) +
           pieceField(
               "\xE2\x96\x81"
               "b",
               -2, 1) +
           pieceField("c", -3, 1) + lengthField(2, varintField(3, 1)) + extra;
}

// A normalizer spec (field 3) whose character map is `trie` units then `strings`.
std::string charsMap(const std::vector<uint32_t>& trie, const std::string& strings) {
    std::string blob = u32(static_cast<uint32_t>(trie.size() * 4));
    for (uint32_t u : trie) blob += u32(u);
    return lengthField(3, lengthField(2, blob + strings));
}

// Loads or refuses: what must hold for any bytes. A loaded model must encode and decode without crashing.
void loadsOrRefuses(const std::string& bytes) {
    try {
        const auto m = SentencePieceModel::fromBytes(bytes, "x.spm");
        m.decode(m.encode("Tom isn't here. 汤姆不在这里。 \t x"));
    } catch (const ModelError& e) {
        QVERIFY2(QString::fromUtf8(e.what()).startsWith("x.spm: not a SentencePiece model: "), e.what());
    } catch (const InputError&) {  // a model that loads but cannot encode this text
    }
}

}  // namespace

class TestSentencePiece : public QObject {
    Q_OBJECT
    std::optional<SentencePieceModel> english_;  // 300 pieces from 400 English lines
    std::optional<SentencePieceModel> chinese_;  // 450 pieces from 400 Chinese lines
    std::string english_bytes_;

private slots:
    void initTestCase() {
        english_bytes_ = trainSentencePiece(tatoebaLines(0, 400), {.vocab_size = 300});
        english_ = SentencePieceModel::fromBytes(english_bytes_, "en.spm");
        chinese_ =
            SentencePieceModel::fromBytes(trainSentencePiece(tatoebaLines(1, 400), {.vocab_size = 450}), "zh.spm");
    }

    // decode(encode(text)) is the text after the library's normalization: NFKC, whitespace runs as one, none at the
    // ends.
    void decodeUndoesEncode_data() {
        QTest::addColumn<bool>("chinese");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("english sentence") << false << "Tom doesn't like the old market."
                                          << "Tom doesn't like the old market.";
        QTest::newRow("whitespace runs") << false << "  Tom \t  runs.  "
                                         << "Tom runs.";
        QTest::newRow("NFKC: fullwidth letters") << false << "\uFF34om"
                                                 << "Tom";
        QTest::newRow("chinese sentence") << true << "我哥和我去了市场。"
                                          << "我哥和我去了市场。";
        QTest::newRow("empty") << false << ""
                               << "";
    }
    void decodeUndoesEncode() {
        QFETCH(bool, chinese);
        QFETCH(QString, text);
        QFETCH(QString, expected);
        const SentencePieceModel& m = chinese ? *chinese_ : *english_;
        const auto pieces = m.encode(text.toStdString());
        QCOMPARE(QString::fromStdString(m.decode(pieces)), expected);
    }

    // Each English word starts one piece with "▁"; the pieces spell the text; a frequent word is one piece.
    void piecesMarkWordStarts() {
        const auto pieces = english_->encode("Tom likes the market");
        int starts = 0;
        QString joined;
        for (const auto& p : pieces) {
            const QString q = QString::fromStdString(p);
            starts += q.startsWith(u'\u2581');
            joined += q;
        }
        QCOMPARE(starts, 4);
        QCOMPARE(joined, QString::fromUtf8("▁Tom▁likes▁the▁market"));
        QVERIFY2(toList(pieces).contains(QString::fromUtf8("▁the")), qPrintable(toList(pieces).join('|')));
    }

    // A character no training line has is no piece: it keeps its spelling through encode and decode; the piece
    // "<unk>" itself decodes as the unknown surface " ⁇ ", and control pieces as nothing.
    void unknownPieces() {
        QVERIFY(!english_->hasPiece("Ω"));
        const QStringList pieces = toList(english_->encode("Ωmega"));  // "▁", "Ω", then pieces spelling "mega"
        QCOMPARE(pieces.mid(0, 2), QStringList({"▁", "Ω"}));
        QCOMPARE(pieces.mid(2).join(""), QString("mega"));
        QCOMPARE(QString::fromStdString(english_->decode(english_->encode("Ωmega"))), QString::fromUtf8("Ωmega"));
        QCOMPARE(QString::fromStdString(english_->decode({"\xE2\x96\x81Tom", "<unk>", "<s>", "</s>", "."})),
                 QString::fromUtf8("Tom ⁇ ."));
    }

    void hasPiece() {
        QVERIFY(english_->hasPiece("\xE2\x96\x81the"));
        QVERIFY(english_->hasPiece("<unk>"));
        QVERIFY(english_->hasPiece("</s>"));
        QVERIFY(
            !english_->hasPiece("\xE2\x96\x81"
                                "zzqqzz"));
        const auto normal = english_->normalPieces();
        QCOMPARE(int(normal.size()), 300 - 3);  // <unk>, <s>, </s> left out
        QVERIFY(!toList(normal).contains("<unk>") && toList(normal).contains(QString::fromUtf8("▁the")));
    }

    void invalidUtf8TextIsAnInputError() {
        QCOMPARE(errorOfType<InputError>([&] { english_->encode("ab\xFF"); }),
                 QString("input text: invalid UTF-8 at byte 2 (0xFF: byte never used in UTF-8)"));
    }

    // Same lines and options, same bytes (and so the same pieces); the bytes a model keeps load again.
    void trainingIsDeterministic() {
        const auto again = trainSentencePiece(tatoebaLines(0, 400), {.vocab_size = 300});
        QVERIFY(again == english_bytes_);
        const auto reloaded = SentencePieceModel::fromBytes(english_->bytes(), "again.spm");
        const char* text = "Tom doesn't like the old market.";
        QCOMPARE(toList(reloaded.encode(text)), toList(english_->encode(text)));
    }

    // With more lines than max_sentences the seed picks the sample: seeds 1 and 2 give different models, seed 1
    // twice the same.
    void seedPicksTheSample() {
        const auto lines = tatoebaLines(0, 400);
        const auto a = trainSentencePiece(lines, {.vocab_size = 150, .seed = 1, .max_sentences = 200});
        const auto b = trainSentencePiece(lines, {.vocab_size = 150, .seed = 2, .max_sentences = 200});
        const auto a2 = trainSentencePiece(lines, {.vocab_size = 150, .seed = 1, .max_sentences = 200});
        QVERIFY(a == a2);
        QVERIFY(a != b);
        QVERIFY(toList(SentencePieceModel::fromBytes(a, "a").normalPieces()) !=
                toList(SentencePieceModel::fromBytes(b, "b").normalPieces()));
    }

    // A word that is always followed by another ("and" in "apple and river stone") becomes a piece. Debian's
    // SentencePiece 0.1.97 never makes it one from the sentences alone (its candidates are taken before the split into
    // words); the same lines with each distinct word also given once alone make "▁and" a piece.
    void aWordAlwaysFollowedByAnotherBecomesAPiece() {
        const char* words[] = {"apple",  "river",  "stone",  "cloud",  "green",  "small", "happy",
                               "table",  "window", "garden", "music",  "paper",  "light", "water",
                               "forest", "summer", "winter", "yellow", "silver", "bridge"};
        std::mt19937 draw(1);
        auto any = [&] { return std::string(words[draw() % std::size(words)]); };
        std::vector<std::string> lines;
        for (int i = 0; i < 400; ++i) lines.push_back(any() + " and " + any() + " " + any());
        const SentencePieceModel m =
            SentencePieceModel::fromBytes(trainSentencePiece(lines, {.vocab_size = 40}), "and");
        const QStringList pieces = toList(m.normalPieces());
        QVERIFY2(pieces.contains(QString::fromUtf8("▁and")), qPrintable(pieces.join(' ')));
        QVERIFY(toList(m.encode("stone and water")).contains(QString::fromUtf8("▁and")));
    }

    // The normalization rule decides what text the pieces see: NFKC (the default, nmt_nfkc, as opus-mt models) makes
    // Chinese full-width punctuation ASCII, so such a model writes "," where the corpus had "，"; "identity" keeps
    // "，" and "？" as pieces and gives the text back as it was. A rule the library does not have is refused.
    void theNormalizationRuleDecidesWhetherFullWidthPunctuationStays() {
        const auto lines = tatoebaLines(1, 400);
        const std::string text = "你好，你去哪儿？";
        const SentencePieceModel nfkc =
            SentencePieceModel::fromBytes(trainSentencePiece(lines, {.vocab_size = 450}), "nfkc");
        QCOMPARE(QString::fromStdString(nfkc.decode(nfkc.encode(text))), QString::fromUtf8("你好,你去哪儿?"));
        QVERIFY(!nfkc.hasPiece("，"));
        const SentencePieceModel identity = SentencePieceModel::fromBytes(
            trainSentencePiece(lines, {.vocab_size = 450, .normalization = "identity"}), "identity");
        QCOMPARE(QString::fromStdString(identity.decode(identity.encode(text))), QString::fromStdString(text));
        QVERIFY(identity.hasPiece("，") && identity.hasPiece("？"));
        QCOMPARE(
            errorOfType<InputError>([&] { trainSentencePiece(lines, {.vocab_size = 450, .normalization = "NFKC"}); }),
            QStringLiteral("normalization \"NFKC\": must be one of nmt_nfkc, nfkc, nmt_nfkc_cf, nfkc_cf, identity"));
    }

    // A corpus too small for the size asked says the largest it allows, and that size trains while one more does not.
    void tooSmallCorpusSaysTheLargestSize() {
        const auto lines = tatoebaLines(0, 60);
        const QString message = errorOfType<InputError>([&] { trainSentencePiece(lines, {.vocab_size = 5000}); });
        const QString marker = "the corpus is too small for a vocabulary of 5000 pieces: it has pieces for at most ";
        QVERIFY2(message.startsWith(marker), qPrintable(message));
        bool ok = false;
        const int most = message.mid(marker.size()).toInt(&ok);
        QVERIFY2(ok && most > 50 && most < 5000, qPrintable(message));
        QVERIFY(!SentencePieceModel::fromBytes(trainSentencePiece(lines, {.vocab_size = most}), "m").bytes().empty());
        QVERIFY(errorOfType<InputError>([&] {
                    trainSentencePiece(lines, {.vocab_size = most + 1});
                }).startsWith("the corpus is too small"));
    }

    // A size below the corpus's characters (3,000+ in Chinese) says the least it needs, and that size trains.
    void tooFewPiecesForTheCharactersSaysTheLeast() {
        const auto lines = tatoebaLines(1, 400);
        const QString message = errorOfType<InputError>([&] { trainSentencePiece(lines, {.vocab_size = 100}); });
        const QString marker = "a vocabulary of 100 pieces cannot hold the corpus's characters: it needs at least ";
        QVERIFY2(message.startsWith(marker), qPrintable(message));
        const int least = message.mid(marker.size()).section(' ', 0, 0).toInt();
        QVERIFY2(least > 100 && least < 450, qPrintable(message));
        trainSentencePiece(lines, {.vocab_size = least});
    }

    void badOptionsAndLines_data() {
        QTest::addColumn<int>("vocab");
        QTest::addColumn<double>("coverage");
        QTest::addColumn<QStringList>("lines");
        QTest::addColumn<QString>("message");
        const QStringList some{"Tom runs.", "Mary sings."};
        QTest::newRow("size 0") << 0 << 1.0 << some << "vocabulary size 0: must be from 4 to 1000000";
        QTest::newRow("size 3") << 3 << 1.0 << some << "vocabulary size 3: must be from 4 to 1000000";
        QTest::newRow("size 10^9") << 1000000000 << 1.0 << some
                                   << "vocabulary size 1000000000: must be from 4 to 1000000";
        QTest::newRow("coverage 0.5") << 20 << 0.5 << some << "character coverage 0.5: must be from 0.98 to 1";
        QTest::newRow("no lines")
            << 20 << 1.0 << QStringList{}
            << "the corpus has no line with a letter, digit, punctuation or symbol to learn pieces from";
        QTest::newRow("only whitespace and controls")
            << 20 << 1.0 << QStringList{"", "   ", "\t\u3000", "\u200B"}
            << "the corpus has no line with a letter, digit, punctuation or symbol to learn pieces from";
    }
    void badOptionsAndLines() {
        QFETCH(int, vocab);
        QFETCH(double, coverage);
        QFETCH(QStringList, lines);
        QFETCH(QString, message);
        std::vector<std::string> v;
        for (const auto& l : lines) v.push_back(l.toStdString());
        QElapsedTimer timer;
        timer.start();
        QCOMPARE(errorOfType<InputError>(
                     [&] { trainSentencePiece(v, {.vocab_size = vocab, .character_coverage = coverage}); }),
                 message);
        QVERIFY(timer.elapsed() < 1000);
    }

    void badLineBytes() {
        QCOMPARE(errorOfType<InputError>([] {
                     trainSentencePiece({"fine", "ab\xC3"}, {.vocab_size = 20});
                 }),
                 QString("line 2: invalid UTF-8 at byte 3 (truncated 2-byte sequence)"));
        QCOMPARE(errorOfType<InputError>([] { trainSentencePiece({std::string("a\0b", 3)}, {.vocab_size = 20}); }),
                 QString("line 1: contains a NUL byte"));
    }

    void languageCode_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("rest");
        QTest::newRow("code and text") << ">>fra<< Hello"
                                       << ">>fra<<"
                                       << " Hello";
        QTest::newRow("no code") << "Hello"
                                 << ""
                                 << "Hello";
        QTest::newRow("not at the start") << " >>fra<< Hello"
                                          << ""
                                          << " >>fra<< Hello";
        QTest::newRow("never closed") << ">>fra Hello"
                                      << ""
                                      << ">>fra Hello";
        QTest::newRow("cut at the first <<") << ">>a<<b<<"
                                             << ">>a<<"
                                             << "b<<";
        QTest::newRow("empty code") << ">><<x"
                                    << ">><<"
                                    << "x";
        QTest::newRow("only a code") << ">>zho_Hans<<"
                                     << ">>zho_Hans<<"
                                     << "";
    }
    void languageCode() {
        QFETCH(QString, text);
        QFETCH(QString, code);
        QFETCH(QString, rest);
        const std::string t = text.toStdString();
        const auto split = splitLanguageCode(t);
        QCOMPARE(QString::fromStdString(std::string(split.code)), code);
        QCOMPARE(QString::fromStdString(std::string(split.rest)), rest);
    }

    // Hand-made models: a valid one loads and encodes; each defect is named; self-test samples are dropped (the
    // library would refuse this one, whose sample does not match, and log its text).
    void handMadeModels_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("message");
        const auto b = [](const std::string& s) { return QByteArray(s.data(), qsizetype(s.size())); };
        const std::string self_test =
            lengthField(4, lengthField(1, lengthField(1, "\x1b]0;hi\x07") + lengthField(2, "x")));
        QTest::newRow("valid") << b(handMadeModel()) << "";
        QTest::newRow("valid, with a failing self-test") << b(handMadeModel(self_test)) << "";
        QTest::newRow("empty") << QByteArray() << "the file is empty";
        QTest::newRow("model type 7") << b(handMadeModel(lengthField(2, varintField(3, 7))))
                                      << "unknown model type 7 (unigram 1, BPE 2, word 3, char 4)";
        QTest::newRow("piece with NUL") << b(pieceField("<unk>", 0, 2) + pieceField(std::string("a\0b", 3), 0, 1))
                                        << "piece 1 contains a NUL byte";
        QTest::newRow("piece not UTF-8") << b(pieceField("<unk>", 0, 2) + pieceField("a\xFF", 0, 1))
                                         << "piece 1 is not valid UTF-8";
        QTest::newRow("NaN score") << b(pieceField("<unk>", 0, 2) + pieceField("a", NAN, 1))
                                   << "piece 1 has a score that is not a finite number";
        QTest::newRow("no pieces") << b(lengthField(2, varintField(3, 1))) << "it has no pieces";
        QTest::newRow("no <unk>") << b(pieceField("a", -1, 1)) << "unk is not defined.";
        QTest::newRow("group wire type") << QByteArray("\x0b", 1)
                                         << "wire type 3 (protobuf groups are not used in a model)";
        QTest::newRow("length past the end")
            << QByteArray("\x0a\x05\x0a", 3) << "a length runs past the end of its message";
        // Unit 0's offset sends the search to base 2^20, past the map's 2 units.
        QTest::newRow("trie offset outside") << b(handMadeModel(charsMap({(1u << 20) << 10, 0}, "x")))
                                             << "the normalizer's character map points outside itself";
        // Unit 0 -> base 1; unit 1^'a' = 0x60... is outside too: a search reads it for byte 'a'.
        QTest::newRow("trie too small for a byte")
            << b(handMadeModel(charsMap({1u << 10, 0}, "x"))) << "the normalizer's character map points outside itself";
        QTest::newRow("trie size past the map")
            << b(handMadeModel(lengthField(3, lengthField(2, u32(400) + "abcd"))))
            << "the normalizer's character map has a trie size (400 bytes) that does not fit it";
    }
    void handMadeModels() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, message);
        const std::string s(bytes.constData(), size_t(bytes.size()));
        if (message.isEmpty()) {
            const auto m = SentencePieceModel::fromBytes(s, "hand.spm");
            QCOMPARE(toList(m.encode("a b c")), QStringList({"▁a", "▁b", "▁", "c"}));
            QCOMPARE(QString::fromStdString(m.decode(m.encode("a bc"))), QString("a bc"));
            return;
        }
        QCOMPARE(errorOfType<ModelError>([&] { SentencePieceModel::fromBytes(s, "hand.spm"); }),
                 "hand.spm: not a SentencePiece model: " + message);
    }

    // A trie whose leaves all stay inside: the map a model trained here carries (NFKC), walked whole, loads; a
    // replacement string that is not UTF-8 is refused.
    void replacementMustBeUtf8() {
        // Unit 0 has offset 1: the search's base is 1. Unit 1 ^ 'a' = 96 has label 'a', a leaf and offset 0, so
        // its leaf is unit 96 itself, whose value (its low 31 bits) is 'a' | 256 = 353: byte 'a' is replaced by the
        // string at offset 353. Every other unit has a label no byte has.
        std::vector<uint32_t> trie(256, 0xFFFFFFFFu);
        trie[0] = 1u << 10;
        trie[1 ^ 'a'] = 'a' | (1u << 8);
        const auto with = [&](const std::string& strings) { return handMadeModel(charsMap(trie, strings)); };
        std::string good(400, 'x'), bad(400, 'x');
        good[353] = 'y';
        bad[353] = '\xFF';
        const auto m = SentencePieceModel::fromBytes(with(good), "good.spm");
        QCOMPARE(QString::fromStdString(m.decode(m.encode("b"))), QString("b"));
        QCOMPARE(
            errorOfType<ModelError>([&] { SentencePieceModel::fromBytes(with(bad), "bad.spm"); }),
            QString("bad.spm: not a SentencePiece model: the normalizer's character map has a replacement that is not "
                    "valid UTF-8"));
    }

    // Truncations at every 509th byte, 1,000 single-byte changes and 300 random files: each loads or is refused
    // with the file's name, and a model that loads encodes and decodes. None crashes the process.
    void damagedBytesNeverCrash() {
        for (size_t n = 0; n < english_bytes_.size(); n += 509) loadsOrRefuses(english_bytes_.substr(0, n));
        std::mt19937 rng(7);
        for (int i = 0; i < 1000; ++i) {
            std::string b = english_bytes_;
            b[rng() % b.size()] = static_cast<char>(rng());
            loadsOrRefuses(b);
        }
        for (int i = 0; i < 300; ++i) {
            std::string b(rng() % 4096, '\0');
            for (char& c : b) c = static_cast<char>(rng());
            loadsOrRefuses(b);
        }
    }

    // Loading checks a 240 KB model's map in well under the time a folder may take to open.
    void loadingIsQuick() {
        QElapsedTimer timer;
        timer.start();
        for (int i = 0; i < 10; ++i) SentencePieceModel::fromBytes(english_bytes_, "en.spm");
        qInfo("one load of a %zu-byte model: %.1f ms", english_bytes_.size(), timer.elapsed() / 10.0);
        QVERIFY(timer.elapsed() < 10 * 100);
    }

    void files() {
        QTemporaryDir dir;
        const std::string d = dir.path().toStdString();
        QCOMPARE(errorOfType<ModelError>([&] { readSentencePieceModel(d + "/none.spm"); }),
                 QString::fromStdString(d + "/none.spm: cannot open: No such file or directory"));
        QCOMPARE(errorOfType<ModelError>([&] { readSentencePieceModel(d); }),
                 QString::fromStdString(d + ": is a directory, not a file"));
        QFile big(dir.filePath("big.spm"));
        QVERIFY(big.open(QIODevice::WriteOnly) && big.resize(qint64(kMaxSentencePieceModelBytes) + 1));
        big.close();
        QVERIFY(errorOfType<ModelError>([&] {
                    readSentencePieceModel(d + "/big.spm");
                }).startsWith(QString::fromStdString(d + "/big.spm: the file is")));
        QFile good(dir.filePath("en.spm"));
        QVERIFY(good.open(QIODevice::WriteOnly));
        good.write(english_bytes_.data(), qint64(english_bytes_.size()));
        good.close();
        QCOMPARE(toList(readSentencePieceModel(d + "/en.spm").encode("the market")),
                 toList(english_->encode("the market")));
    }
};

ATTNVIZ_TEST_MAIN(TestSentencePiece)
#include "test_sentencepiece.moc"
