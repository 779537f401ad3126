// explain and render --method bounded before they start (issue 44, "Hostile CLI, round 3", item 3; docs/explain.md
// "What a method costs"): a method's work and memory are estimated from the model's sizes and the decode's S and T,
// refused past the bounds with the figure and the flag that raises it, counted on a terminal while they run, and a
// method that fails says which it was.
#include "process_run.h"
#include "test_files.h"
#include "test_models.h"
#include "test_registry.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

using namespace attnviz;
using namespace attnviz::testing;

namespace {

// The figures of a work refusal: S, T, the estimate (G multiply-adds) and the --max-work it names, or nothing.
struct WorkRefusal {
    int S = 0, T = 0;
    qint64 needs = 0, allows = 0;
    QString method;
};

std::optional<WorkRefusal> workRefusal(const QString& message) {
    static const QRegularExpression re(
        "--method (\\w+) on (\\d+) source and (\\d+) target tokens needs about (\\d+) G multiply-adds \\(the limit is "
        "\\d+ G: --max-work (\\d+) allows it, or use a shorter sentence");
    const QRegularExpressionMatch m = re.match(message);
    if (!m.hasMatch()) return std::nullopt;
    return WorkRefusal{m.captured(2).toInt(), m.captured(3).toInt(), m.captured(4).toLongLong(),
                       m.captured(5).toLongLong(), m.captured(1)};
}

}  // namespace

class TestCliExplainBounds : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void workPastTheBoundIsRefusedWithItsFigure();
    void memoryPastTheBoundIsRefusedFirst();
    void renderMethodIsBoundedAlike();
    void passesAreCountedOnATerminal();
    void aFailingMethodIsNamed();

private:
    QTemporaryDir dir_;
    QString small_, wide_;
};

void TestCliExplainBounds::initTestCase() {
    QVERIFY(dir_.isValid());
    small_ = saveInto(smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 451, 2.0f), dir_,
                      "small.safetensors");
    // Source embeddings 128 wide: the gradients integrated gradients holds are T x S x 128 floats per step.
    wide_ = saveInto(
        smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive, SpanKind::Global, false, 128), 452, 2.0f),
        dir_, "wide.safetensors");
}

// --max-work 1 refuses what needs more, before any pass: the message names the method, S and T, the estimate and
// the --max-work that allows it, which then runs. Integrated gradients' estimate is its steps times grad_input's:
// each step is the backward grad_input makes once. Each refusal comes at once (a CPU-time limit of 10 s; the run of
// before went on with the work, however large).
void TestCliExplainBounds::workPastTheBoundIsRefusedWithItsFigure() {
    RunOptions bounded;
    bounded.cpu_seconds = 10;
    const QStringList forced = {"--target", words(600, "我"), words(600, "cat")};
    const auto refusal = [&](const QStringList& method) {
        const ProcessRun r =
            runCli(QStringList{"explain", "--model", wide_, "--max-work", "1"} + method + forced, bounded);
        if (r.code != 1) qWarning("exit %d: %s", r.code, r.err.constData());
        return r.code == 1 ? workRefusal(r.errText()) : std::nullopt;
    };
    const std::optional<WorkRefusal> grad = refusal({"--method", "grad_input"});
    QVERIFY(grad);
    QCOMPARE(grad->method, QString("grad_input"));
    QCOMPARE(grad->S, 602);
    QCOMPARE(grad->T, 601);
    QCOMPARE(grad->allows, grad->needs);
    QVERIFY(grad->needs > 1);
    const std::optional<WorkRefusal> ig = refusal({"--method", "ig", "--ig-steps", "4"});
    QVERIFY(ig);
    QVERIFY2(ig->needs >= 4 * grad->needs - 4 && ig->needs <= 4 * grad->needs + 4,
             qPrintable(QString("ig with 4 steps %1 G, grad_input %2 G").arg(ig->needs).arg(grad->needs)));

    const ProcessRun allowed = runCli(QStringList{"explain", "--model", wide_, "--max-work",
                                                  QString::number(grad->allows), "--method", "grad_input", "--json"} +
                                      forced);
    QCOMPARE(allowed.code, 0);
    QVERIFY(allowed.err.isEmpty());  // no progress: stderr is not a terminal
}

// Integrated gradients holds 17 sets of T x S x E gradients (16 steps at once and their mean): for 1,000 words of a
// model with 128-wide embeddings 8 GiB, past the decode's 4 GiB bound: refused before anything of that size is made
// (the run of before went on until it ran out of memory, "out of memory" naming no method).
void TestCliExplainBounds::memoryPastTheBoundIsRefusedFirst() {
    RunOptions bounded;
    bounded.cpu_seconds = 20;
    const ProcessRun r = runCli(
        {"explain", "--model", wide_, "--method", "attention,ig", "--target", words(1000, "我"), words(1000, "cat")},
        bounded);
    QCOMPARE(r.code, 1);
    QVERIFY2(r.errText().contains(QRegularExpression(
                 "^attnviz-cli explain: SENTENCE: --method ig on 1002 source and 1001 target tokens may hold up to "
                 "[0-9.]+ GiB \\(the limit is 4.0 GiB\\): use a shorter sentence or fewer --ig-steps\\n$")),
             r.err.constData());
    QVERIFY(r.out.isEmpty());  // every method is checked before the first runs
}

// render --method takes the same bound and names it the same way.
void TestCliExplainBounds::renderMethodIsBoundedAlike() {
    RunOptions bounded;
    bounded.cpu_seconds = 10;
    const ProcessRun r = runCli({"render", "--model", wide_, "--method", "occlusion", "--max-work", "1", "--out",
                                 dir_.filePath("occlusion.png"), "--target", words(300, "我"), words(300, "cat")},
                                bounded);
    QCOMPARE(r.code, 1);
    const std::optional<WorkRefusal> refused = workRefusal(r.errText());
    QVERIFY2(refused && refused->method == "occlusion", r.err.constData());
    QVERIFY(r.errText().startsWith("attnviz-cli render: SENTENCE: --method occlusion on 302 source"));
    QVERIFY(!QFile::exists(dir_.filePath("occlusion.png")));
    const ProcessRun attention =
        runCli({"render", "--model", small_, "--max-work", "5", "--out", dir_.filePath("a.png"), "i love you"});
    QCOMPARE(attention.code, 2);  // the attention runs no model pass to bound
}

// On a terminal (a pseudo-terminal from script(1)), "N / M passes of ig" is rewritten in place on stderr while the
// method runs, and cleared at the end; without a terminal nothing is written (the other tests).
void TestCliExplainBounds::passesAreCountedOnATerminal() {
    const QString command = QString("'%1' explain --model '%2' --method ig --json --target '%3' '%4' >/dev/null")
                                .arg(QStringLiteral(ATTNVIZ_CLI_PATH), small_, words(40, "我"), words(40, "cat"));
    const ProcessRun r = runProcess("script", {"-q", "-e", "-c", command, "/dev/null"});
    QCOMPARE(r.code, 0);
    QVERIFY2(r.outText().contains(QRegularExpression("attnviz-cli explain: \\d+ / \\d+ passes of ig")),
             r.out.left(400).constData());
    QVERIFY2(r.out.contains("\r\x1b[K"), r.out.right(200).constData());
}

// A method that runs out of memory says which it was: under a 400 MB address space the decode fits and integrated
// gradients' estimate passes the 4 GiB bound, but its gradients do not fit.
void TestCliExplainBounds::aFailingMethodIsNamed() {
    RunOptions limited;
    limited.address_space_bytes = rlim_t(400) << 20;
    limited.cpu_seconds = 60;
    const ProcessRun r = runCli({"explain", "--model", wide_, "--method", "attention,ig", "--max-work", "1000000",
                                 "--threads", "1", "--target", words(400, "我"), words(400, "cat")},
                                limited);
    QCOMPARE(r.code, 1);
    QVERIFY2(r.errText() == "attnviz-cli explain: --method ig: out of memory\n", r.err.constData());
}

ATTNVIZ_TEST_MAIN(TestCliExplainBounds)
#include "test_cli_explain_bounds.moc"
