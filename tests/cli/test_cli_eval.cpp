// attnviz-cli eval, driven as a user would: the built binary (ATTNVIZ_CLI_PATH) run on small models saved into a
// temporary folder; the metrics are compared with an independent computation on the engine's decodes.
#include "decode/decoding.h"
#include "eval/metrics.h"
#include "io/model_file.h"
#include "json_output.h"
#include "process_run.h"
#include "test_files.h"
#include "test_models.h"
#include "test_registry.h"
#include "text/tokenizer.h"

#include <QTemporaryDir>
#include <QtTest>

#include <nlohmann/json.hpp>

#include <cmath>
#include <set>

using namespace attnviz;
using namespace attnviz::testing;
using nlohmann::json;

namespace {

using Run = ProcessRun;

// Tokens joined with spaces (a whitespace-tokenized reference that gives exactly these tokens back, "<unk>" included).
std::string joined(const std::vector<std::string>& tokens) {
    std::string s;
    for (const std::string& t : tokens) s += (s.empty() ? "" : " ") + t;
    return s;
}

}  // namespace

class TestCliEval : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();

    void evalMatchesIndependentComputation();
    void evalPerfectAlignmentAndSelfReference();
    void evalBeamScoresTheBestHypothesis();
    void evalBadData_data();
    void evalBadData();

private:
    QTemporaryDir dir_;
    QString additive_, dot_;  // two bahdanau models, additive and dot scores
    Model additive_model_, dot_model_;
};

void TestCliEval::initTestCase() {
    QVERIFY(dir_.isValid());
    additive_ = saveInto(smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 11, 2.0f), dir_,
                         "bahdanau_additive.safetensors");
    dot_ = saveInto(smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Dot), 12, 2.0f), dir_,
                    "bahdanau_dot.safetensors");
    // Reload as the CLI does, so that the engine sees the same floats.
    additive_model_ = loadModel(additive_.toStdString());
    dot_model_ = loadModel(dot_.toStdString());
}

void TestCliEval::evalMatchesIndependentComputation() {
    // Lines 1-2 use the model's own greedy output as the reference (exact), lines 3-4 an arbitrary one; line 4 and 1
    // carry gold alignments.
    const std::vector<std::string> sources = {"i love you", "the cat sat on the mat", "an apple", "you ate the cat"};
    std::vector<std::string> refs;
    for (int k = 0; k < 2; ++k)
        refs.push_back(joined(withoutEos(greedyDecode(additive_model_, sources[size_t(k)]).target_tokens)));
    refs.push_back("一个 苹果");
    refs.push_back("你 吃 了 猫");
    QVERIFY(!refs[0].empty() && !refs[1].empty());
    const std::vector<std::vector<AlignmentLink>> gold = {{{0, 0}, {2, 0}}, {}, {}, {{0, 0}, {1, 1}, {1, 2}, {3, 3}}};
    QByteArray text;
    for (int k = 0; k < 4; ++k) {
        text += QByteArray::fromStdString(sources[size_t(k)] + "\t" + refs[size_t(k)]);
        if (k == 0) text += "\t0-0 2-0";
        if (k == 3) text += "\t0-0 1-1 1-2 3-3";
        text += "\n";
    }
    const QString data = dir_.filePath("eval.tsv");
    writeFile(data, text);

    // Independent computation (double precision; argmax written here, not core's).
    int exact = 0;
    int64_t correct = 0, positions = 0, rows = 0, a_size = 0, g_size = 0, both = 0;
    double entropy = 0;
    std::vector<std::vector<std::string>> hyps, ref_tokens;
    for (int k = 0; k < 4; ++k) {
        const DecodeResult g = greedyDecode(additive_model_, sources[size_t(k)]);
        std::vector<std::string> ref = tokenizeTarget(additive_model_, refs[size_t(k)]).tokens;  // with <eos>
        std::vector<std::string> out = g.target_tokens;
        exact += (withoutEos(out) == withoutEos(ref)) ? 1 : 0;  // an output cut at the length limit has no <eos>
        for (size_t p = 0; p < ref.size(); ++p) {
            ++positions;
            if (p < out.size() && out[p] == ref[p]) ++correct;
        }
        for (const auto& row : g.attention) {
            ++rows;
            for (float a : row)
                if (a > 0) entropy -= double(a) * std::log(double(a));
        }
        hyps.push_back(withoutEos(out));
        ref_tokens.push_back(withoutEos(ref));
        if (k == 0 || k == 3) {
            const DecodeResult f = forcedDecode(additive_model_, sources[size_t(k)], refs[size_t(k)]);
            std::set<std::pair<int, int>> A, G(gold[size_t(k)].begin(), gold[size_t(k)].end());
            for (size_t t = 0; t + 1 < f.attention.size(); ++t) {
                int best = 1;
                for (int s = 1; s < int(f.attention[t].size()) - 1; ++s)
                    if (f.attention[t][size_t(s)] > f.attention[t][size_t(best)]) best = s;
                A.insert({best - 1, int(t)});
            }
            a_size += int64_t(A.size());
            g_size += int64_t(G.size());
            for (const auto& l : A) both += G.count(l) ? 1 : 0;
        }
    }
    QCOMPARE(exact, 2);

    const Run r = runCli({"eval", "--model", additive_, "--data", data, "--json"});
    QVERIFY2(r.code == 0, qPrintable(r.errText()));
    const json j = parseJson(r.out);
    QCOMPARE(j["lines"].get<int>(), 4);
    QCOMPARE(j["aligned_lines"].get<int>(), 2);
    QCOMPARE(j["exact_match"].get<double>(), 0.5);
    QVERIFY(std::abs(j["token_accuracy"].get<double>() - double(correct) / double(positions)) < 1e-12);
    QCOMPARE(j["reference_tokens"].get<int64_t>(), positions);
    QVERIFY(std::abs(j["mean_entropy"].get<double>() - entropy / double(rows)) < 1e-9);
    QVERIFY(std::abs(j["bleu"].get<double>() - corpusBleu(hyps, ref_tokens)) < 1e-9);  // BLEU's maths: test_metrics
    ChrfStats chrf;  // chrF's maths: test_metrics; here, that the lines' counts are summed, not their scores averaged
    for (size_t k = 0; k < hyps.size(); ++k) chrf += chrfStats(hyps[k], ref_tokens[k]);
    QVERIFY(std::abs(j["chrf"].get<double>() - chrf.chrf()) < 1e-9);
    QVERIFY(j["chrf"].get<double>() > 0 && j["chrf"].get<double>() < 100);
    QVERIFY(j.contains("aer"));
    QVERIFY(std::abs(j["aer"].get<double>() - (1.0 - 2.0 * double(both) / double(a_size + g_size))) < 1e-12);

    // The readable report names every metric; --threads 1 gives the same numbers.
    const Run t = runCli({"eval", "--model", additive_, "--data", data});
    QCOMPARE(t.code, 0);
    for (const char* key : {"exact_match", "token_accuracy", "bleu", "chrf", "mean_entropy", "aer"})
        QVERIFY(QString::fromUtf8(t.out).contains(key));
    const Run one = runCli({"eval", "--model", additive_, "--data", data, "--json", "--threads", "1"});
    QCOMPARE(parseJson(one.out)["token_accuracy"], j["token_accuracy"]);
    QCOMPARE(parseJson(one.out)["aer"], j["aer"]);
}

void TestCliEval::evalPerfectAlignmentAndSelfReference() {
    // References = the model's outputs and gold = the attention's own argmax links: exact 1, accuracy 1, AER 0;
    // no alignments on a line -> no "aer" key when none has them.
    const std::string src = "the cat sat on the mat";
    const DecodeResult g = greedyDecode(dot_model_, src);
    const std::string ref = joined(withoutEos(g.target_tokens));
    QVERIFY(!ref.empty());
    std::string links;
    for (const AlignmentLink& l : attentionAlignment(forcedDecode(dot_model_, src, ref)))
        links += (links.empty() ? "" : " ") + std::to_string(l.first) + "-" + std::to_string(l.second);
    const QString data = dir_.filePath("self.tsv");
    writeFile(data, QByteArray::fromStdString(src + "\t" + ref + "\t" + links + "\n"));
    const Run r = runCli({"eval", "--model", dot_, "--data", data, "--json"});
    QVERIFY2(r.code == 0, qPrintable(r.errText()));
    const json j = parseJson(r.out);
    QCOMPARE(j["exact_match"].get<double>(), 1.0);
    // Without <eos> (cut at the length limit) the reference's <eos> position is the one miss.
    const size_t n = withoutEos(g.target_tokens).size();
    const bool has_eos = g.target_tokens.back() == "<eos>";
    QCOMPARE(j["token_accuracy"].get<double>(), has_eos ? 1.0 : double(n) / double(n + 1));
    QCOMPARE(j["aer"].get<double>(), 0.0);
    if (n >= 4) QVERIFY(std::abs(j["bleu"].get<double>() - 100.0) < 1e-9);

    const QString plain = dir_.filePath("plain.tsv");
    writeFile(plain, QByteArray::fromStdString(src + "\t" + ref + "\n"));
    const Run p = runCli({"eval", "--model", dot_, "--data", plain, "--json"});
    QCOMPARE(p.code, 0);
    QVERIFY(!parseJson(p.out).contains("aer"));
}

void TestCliEval::evalBeamScoresTheBestHypothesis() {
    // Random small models rank differently under a width-4 search than greedily on some of these sentences; the
    // metrics must be those of beamSearch's best hypotheses, computed here through the engine directly.
    const std::vector<std::string> sources = {"i love you",      "the cat sat on the mat", "an apple",
                                              "you ate the cat", "the mat sat on you",     "i ate an apple"};
    QByteArray text;
    std::vector<std::vector<std::string>> beam_hyps, greedy_hyps, refs;
    for (const std::string& src : sources) {
        const std::string ref = "你 吃 了 一个 苹果";
        text += QByteArray::fromStdString(src + "\t" + ref + "\n");
        refs.push_back(withoutEos(tokenizeTarget(additive_model_, ref).tokens));
        beam_hyps.push_back(withoutEos(beamSearch(additive_model_, src, 4).best.target_tokens));
        greedy_hyps.push_back(withoutEos(greedyDecode(additive_model_, src).target_tokens));
    }
    QVERIFY2(beam_hyps != greedy_hyps, "no sentence where the search changes the output: the test cannot tell");
    const QString data = dir_.filePath("beam.tsv");
    writeFile(data, text);
    const Run r = runCli({"eval", "--model", additive_, "--data", data, "--json", "--beam", "4"});
    QVERIFY2(r.code == 0, qPrintable(r.errText()));
    const json j = parseJson(r.out);
    QCOMPARE(j["beam"].get<int>(), 4);
    ChrfStats chrf;
    for (size_t k = 0; k < refs.size(); ++k) chrf += chrfStats(beam_hyps[k], refs[k]);
    QVERIFY(std::abs(j["chrf"].get<double>() - chrf.chrf()) < 1e-9);
    QVERIFY(std::abs(j["bleu"].get<double>() - corpusBleu(beam_hyps, refs)) < 1e-9);
    // --beam 1 is greedy decoding.
    const Run g = runCli({"eval", "--model", additive_, "--data", data, "--json", "--beam", "1"});
    QCOMPARE(g.code, 0);
    ChrfStats greedy_chrf;
    for (size_t k = 0; k < refs.size(); ++k) greedy_chrf += chrfStats(greedy_hyps[k], refs[k]);
    QVERIFY(std::abs(parseJson(g.out)["chrf"].get<double>() - greedy_chrf.chrf()) < 1e-9);
    QCOMPARE(runCli({"eval", "--model", additive_, "--data", data, "--beam", "0"}).code, 2);
    // --length-penalty: the engine's search with the same α, recorded in the JSON; without --beam, a usage error
    DecodeOptions alpha;
    alpha.length_penalty = 2.0;
    std::vector<std::vector<std::string>> ranked_hyps;
    for (const std::string& src : sources)
        ranked_hyps.push_back(
            withoutEos(beamSearch(additive_model_, tokenizeSource(additive_model_, src), 4, alpha).best.target_tokens));
    QVERIFY2(ranked_hyps != beam_hyps, "the length penalty changes no output: the test cannot tell");
    const Run lp =
        runCli({"eval", "--model", additive_, "--data", data, "--json", "--beam", "4", "--length-penalty", "2"});
    QVERIFY2(lp.code == 0, qPrintable(lp.errText()));
    QCOMPARE(parseJson(lp.out)["length_penalty"].get<double>(), 2.0);
    QVERIFY(std::abs(parseJson(lp.out)["bleu"].get<double>() - corpusBleu(ranked_hyps, refs)) < 1e-9);
    const Run no_beam = runCli({"eval", "--model", additive_, "--data", data, "--length-penalty", "1"});
    QVERIFY2(no_beam.code == 2 && no_beam.errText().contains("give --beam K too"), qPrintable(no_beam.errText()));
}

void TestCliEval::evalBadData_data() {
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("mentions");  // after "attnviz-cli eval: DATA"
    QTest::newRow("bad alignment token") << QByteArray("i love you\t我 爱 你\t0-0\nthe cat\t猫\t1-x\n")
                                         << ":2: bad alignment link \"1-x\"";
    QTest::newRow("alignment source index out of range")
        << QByteArray("i love you\t我 爱 你\t3-0\n") << ":1: alignment link 3-0: source word 3";
    QTest::newRow("missing tab") << QByteArray("i love you\t我\nthe cat\n") << ":2: no tab";
    QTest::newRow("empty file") << QByteArray("\n\n") << ": no examples";
}

void TestCliEval::evalBadData() {
    QFETCH(QByteArray, text);
    QFETCH(QString, mentions);
    const QString data = dir_.filePath("bad.tsv");
    writeFile(data, text);
    const Run r = runCli({"eval", "--model", additive_, "--data", data});
    QCOMPARE(r.code, 1);
    QVERIFY2(r.errText().startsWith("attnviz-cli eval: " + data + mentions), qPrintable(r.errText()));
    QCOMPARE(r.err.count('\n'), 1);
    // A missing data file names it too.
    const Run m = runCli({"eval", "--model", additive_, "--data", dir_.filePath("nope.tsv")});
    QCOMPARE(m.code, 1);
    QVERIFY2(m.errText().contains(dir_.filePath("nope.tsv") + ": cannot open"), qPrintable(m.errText()));
}

ATTNVIZ_TEST_MAIN(TestCliEval)
#include "test_cli_eval.moc"
