// attnviz-cli eval and render --merge on a small trained Marian folder (docs/marian.md "Pieces or words"): eval
// --merge both counts the AER of the gold word links on the merged attention, on a chosen head (--head) and on every
// explanation method, each equal to the AER worked out here from `decode` / `explain --merge both` on the same lines;
// without --merge it says that AER needs word positions and counts none; render --merge draws the merged matrix with
// the words as labels.
#include "json_output.h"
#include "marian_folders.h"
#include "process_run.h"
#include "test_registry.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

#include <fstream>
#include <set>
#include <sstream>

using namespace attnviz::testing;
using nlohmann::json;

namespace {

constexpr const char* kPiecesConfig =
    R"({"model_type": "marian", "d_model": 16, "encoder_layers": 2, "decoder_layers": 2, "encoder_attention_heads": 2,)"
    R"( "decoder_attention_heads": 2, "encoder_ffn_dim": 32, "decoder_ffn_dim": 32, "activation_function": "swish"})";

std::vector<std::string> wordsOf(const std::string& line) {
    std::istringstream in(line);
    std::vector<std::string> words;
    for (std::string w; in >> w;) words.push_back(w);
    return words;
}

// One evaluation line: the target is the source's words in reverse order, so source word i is target word n − 1 − i.
struct PiecesLine {
    std::string source, target;
    std::set<std::pair<int, int>> gold;
};

std::vector<PiecesLine> piecesLines(int first, int count) {
    std::vector<PiecesLine> out;
    const std::vector<std::string> lines = marianTestLines(first + count);
    for (int k = first; k < first + count; ++k) {
        const std::vector<std::string> words = wordsOf(lines[size_t(k)]);
        PiecesLine l{lines[size_t(k)], "", {}};
        const int n = int(words.size());
        for (int i = n - 1; i >= 0; --i) l.target += words[size_t(i)] + (i ? " " : "");
        for (int i = 0; i < n; ++i) l.gold.insert({i, n - 1 - i});
        out.push_back(l);
    }
    return out;
}

// The argmax links of a merged (words + </s>) × (words + </s>) matrix: the last row and column are </s>, not words.
std::set<std::pair<int, int>> argmaxLinks(const json& rows) {
    std::set<std::pair<int, int>> links;
    for (size_t t = 0; t + 1 < rows.size(); ++t) {
        size_t best = 0;
        for (size_t j = 1; j + 1 < rows[t].size(); ++j)
            if (rows[t][j].get<double>() > rows[t][best].get<double>()) best = j;
        links.insert({int(best), int(t)});
    }
    return links;
}

// 1 − 2|A ∩ S| / (|A| + |S|) summed over the lines (every gold link is sure).
struct AerSum {
    double overlap = 0, predicted = 0, gold = 0;
    void add(const std::set<std::pair<int, int>>& a, const std::set<std::pair<int, int>>& s) {
        for (const auto& l : a) overlap += s.count(l);
        predicted += double(a.size());
        gold += double(s.size());
    }
    double aer() const { return 1 - 2 * overlap / (predicted + gold); }
};

// The JSON Lines of a command's standard output.
std::vector<json> jsonLines(const QByteArray& out) {
    std::vector<json> lines;
    std::istringstream in(out.toStdString());
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) lines.push_back(json::parse(line));
    return lines;
}

}  // namespace

class TestCliEvalPieces : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    std::vector<PiecesLine> lines_;
    QString path(const char* name) const { return dir_.filePath(name); }
    QString model() const { return path("pieces"); }

    // decode (or explain) on every line, forced on its reference, merged on `merge`'s sides.
    std::vector<json> mergedDecodes(const QStringList& command, const QString& merge = "both") const {
        const ProcessRun r = runCli(
            command + QStringList{"--model", model(), "--json", "--merge", merge, "--input", path("forced.tsv")});
        if (r.code != 0) qWarning("%s", qPrintable(r.errText()));
        return jsonLines(r.out);
    }

    json evalJson(const QStringList& extra) const {
        const ProcessRun r =
            runCli(QStringList{"eval", "--model", model(), "--data", path("test.tsv"), "--json"} + extra);
        if (r.code != 0) qWarning("%s", qPrintable(r.errText()));
        return r.code == 0 ? parseJson(r.out) : json();
    }

private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        {
            std::ofstream train(path("train.tsv").toStdString());
            for (const PiecesLine& l : piecesLines(0, 300)) train << l.source << '\t' << l.target << '\n';
            std::ofstream(path("marian.json").toStdString()) << kPiecesConfig;
        }
        const ProcessRun trained = runCli({"train", "--config", path("marian.json"), "--data", path("train.tsv"),
                                           "--steps", "30", "--quiet", "--spm-vocab", "60", "--source-lang", "en",
                                           "--target-lang", "xx", "--seed", "3", "--out", model()});
        QVERIFY2(trained.code == 0, qPrintable(trained.errText()));
        lines_ = piecesLines(0, 8);
        std::ofstream test(path("test.tsv").toStdString()), forced(path("forced.tsv").toStdString());
        for (const PiecesLine& l : lines_) {
            std::string links;
            for (const auto& [i, j] : l.gold)
                links += (links.empty() ? "" : " ") + std::to_string(i) + "-" + std::to_string(j);
            test << l.source << '\t' << l.target << '\t' << links << '\n';
            forced << l.source << '\t' << l.target << '\n';
        }
    }

    void mergedAerIsTheWordsArgmax() {
        const std::vector<json> decodes = mergedDecodes({"decode"}), pieces = mergedDecodes({"decode"}, "none");
        QCOMPARE(decodes.size(), lines_.size());
        QCOMPARE(pieces.size(), lines_.size());
        AerSum want, want_head;
        bool split = false;  // some word is more than one piece: the merge is tested, not the identity
        for (size_t k = 0; k < lines_.size(); ++k) {
            QCOMPARE(decodes[k]["source_tokens"].size(), wordsOf(lines_[k].source).size() + 1);  // words + </s>
            split = split || pieces[k]["source_tokens"].size() > decodes[k]["source_tokens"].size();
            want.add(argmaxLinks(decodes[k]["attention"]), lines_[k].gold);
            want_head.add(argmaxLinks(decodes[k]["cross_attention"][1][0]), lines_[k].gold);  // layer 2, head 1
        }
        const json j = evalJson({"--merge", "both"});
        QVERIFY(j.contains("aer"));
        QCOMPARE(j["merge"].get<std::string>(), std::string("both"));
        QCOMPARE(j["aligned_lines"].get<int>(), int(lines_.size()));
        QVERIFY2(std::abs(j["aer"].get<double>() - want.aer()) < 1e-12, j.dump().c_str());
        const json h = evalJson({"--merge", "both", "--head", "2,1"});
        QVERIFY2(std::abs(h["aer"].get<double>() - want_head.aer()) < 1e-12, h.dump().c_str());
        QCOMPARE(h["align_head"], (json{{"layer", 2}, {"head", 1}}));
        QVERIFY(split);
    }

    void everyMethodsAerIsItsMergedMatrixsArgmax() {
        const std::vector<json> explained = mergedDecodes({"explain", "--method", "all"});
        QCOMPARE(explained.size(), lines_.size());
        const json j = evalJson({"--merge", "both", "--explain", "all"});
        QVERIFY(j.contains("explain"));
        int methods = 0;
        for (const auto& [name, matrix] : explained[0]["explanations"].items()) {
            AerSum want;
            for (size_t k = 0; k < lines_.size(); ++k)
                want.add(argmaxLinks(explained[k]["explanations"][name]), lines_[k].gold);
            const double aer = j["explain"][name]["aer"].get<double>();
            QVERIFY2(std::abs(aer - want.aer()) < 1e-12, (name + ": " + std::to_string(aer)).c_str());
            ++methods;
        }
        QCOMPARE(methods, 7);  // attention, norm, grad_input, grad_norm, ig, occlusion, rollout
    }

    void withoutMergeAerNeedsWords() {
        for (const QStringList& merge : {QStringList{}, QStringList{"--merge", "source"}}) {
            const ProcessRun r =
                runCli(QStringList{"eval", "--model", model(), "--data", path("test.tsv"), "--json"} + merge);
            QCOMPARE(r.code, 0);
            QVERIFY2(r.errText().contains("AER needs word positions (--merge both)"), qPrintable(r.errText()));
            const json j = parseJson(r.out);
            QVERIFY(!j.contains("aer"));
            QCOMPARE(j["aligned_lines"].get<int>(), 0);
        }
    }

    void renderDrawsTheMergedMatrixWithWords() {
        const PiecesLine& l = lines_[0];
        const QStringList base{
            "render", "--model", model(), "--merge", "both", "--target", QString::fromStdString(l.target)};
        const QString sentence = QString::fromStdString(l.source);
        QCOMPARE(runCli(base + QStringList{"--out", path("words.json"), sentence}).code, 0);
        QCOMPARE(runCli(base + QStringList{"--out", path("words.png"), sentence}).code, 0);
        QVERIFY(QFile(path("words.png")).size() > 0);
        const ProcessRun decoded = runCli({"decode", "--model", model(), "--json", "--merge", "both", "--target",
                                           QString::fromStdString(l.target), sentence});
        QFile drawn(path("words.json"));
        QVERIFY(drawn.open(QIODevice::ReadOnly));
        const json r = parseJson(drawn.readAll()), d = parseJson(decoded.out);
        QCOMPARE(r["source_tokens"], d["source_tokens"]);
        QCOMPARE(r["attention"], d["attention"]);
        std::vector<std::string> labels = wordsOf(l.source);
        labels.push_back("</s>");
        QCOMPARE(r["source_tokens"].get<std::vector<std::string>>(), labels);
        // an explanation method's matrix drawn in words: explain --merge both's
        QCOMPARE(runCli(base + QStringList{"--method", "grad_input", "--out", path("gi.json"), sentence}).code, 0);
        const ProcessRun explained = runCli({"explain", "--model", model(), "--json", "--merge", "both", "--method",
                                             "grad_input", "--target", QString::fromStdString(l.target), sentence});
        QFile gi(path("gi.json"));
        QVERIFY(gi.open(QIODevice::ReadOnly));
        QCOMPARE(parseJson(gi.readAll())["explanations"]["grad_input"],
                 parseJson(explained.out)["explanations"]["grad_input"]);
        const ProcessRun marked = runCli(base + QStringList{"--knockout", "1", "--out", path("k.png"), sentence});
        QCOMPARE(marked.code, 2);
        QVERIFY2(marked.errText().contains("--merge"), qPrintable(marked.errText()));
    }
};

ATTNVIZ_TEST_MAIN(TestCliEvalPieces)
#include "test_cli_eval_pieces.moc"
