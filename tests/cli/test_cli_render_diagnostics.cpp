// `attnviz-cli render --diagnostics`: the figure gets the coverage row and the entropy column of docs/diagnostics.md,
// drawn by the window's renderer: the SVG's text carries every source token's coverage as the engine computes it.
#include "decode/decoding.h"
#include "eval/attention_diagnostics.h"
#include "process_run.h"
#include "test_files.h"
#include "test_models.h"
#include "test_registry.h"

#include <QTemporaryDir>
#include <QTest>

using namespace attnviz;
using attnviz::testing::readFile;

namespace {
attnviz::testing::ProcessRun render(const QStringList& args) {
    attnviz::testing::RunOptions options;
    options.timeout_ms = 120000;
    return attnviz::testing::runProcess(QStringLiteral(ATTNVIZ_CLI_PATH), QStringList{"render"} + args, options);
}
}  // namespace

class TestCliRenderDiagnostics : public QObject {
    Q_OBJECT
private slots:
    void svgShowsTheCoverageOfEveryToken();
    void pngDiffersOnlyWithTheFlag();
};

void TestCliRenderDiagnostics::svgShowsTheCoverageOfEveryToken() {
    QTemporaryDir dir;
    const Model model = testing::smallModel(testing::smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 7, 3.0f);
    const QString path = testing::saveInto(model, dir, "m.safetensors");
    const QString sentence = QStringLiteral("i love you");
    const QString out = dir.filePath("d.svg");
    const auto run = render({"--model", path, "--diagnostics", "--out", out, sentence});
    QVERIFY2(run.code == 0, qPrintable(run.errText()));
    const QString svg = QString::fromUtf8(readFile(out));
    QVERIFY(svg.contains(QStringLiteral(">coverage<")));
    QVERIFY(svg.contains(QStringLiteral(">H / ln S<")));
    const SourceCoverage c = sourceCoverage(greedyDecode(model, sentence.toStdString()).attention);
    QCOMPARE(int(c.coverage.size()), 5);  // <sos> i love you <eos>
    for (double v : c.coverage) {
        const QString text = QStringLiteral(">%1<").arg(QString::number(v, 'f', 2));
        QVERIFY2(svg.contains(text), qPrintable(text));
    }
    // Without the flag there is no coverage row.
    const QString plain = dir.filePath("p.svg");
    QCOMPARE(render({"--model", path, "--out", plain, sentence}).code, 0);
    QVERIFY(!QString::fromUtf8(readFile(plain)).contains(QStringLiteral(">coverage<")));
}

void TestCliRenderDiagnostics::pngDiffersOnlyWithTheFlag() {
    QTemporaryDir dir;
    const Model model = testing::smallModel(testing::smallConfig(DecoderKind::Luong, ScoreKind::Dot), 8, 3.0f);
    const QString path = testing::saveInto(model, dir, "m.safetensors");
    const QStringList common = {"--model", path, "--width", "600", "--height", "400"};
    QCOMPARE(render(common + QStringList{"--out", dir.filePath("a.png"), "the cat sat"}).code, 0);
    QCOMPARE(render(common + QStringList{"--out", dir.filePath("b.png"), "the cat sat"}).code, 0);
    QCOMPARE(render(common + QStringList{"--diagnostics", "--out", dir.filePath("c.png"), "the cat sat"}).code, 0);
    QCOMPARE(readFile(dir.filePath("a.png")), readFile(dir.filePath("b.png")));  // the same figure twice
    QVERIFY(readFile(dir.filePath("a.png")) != readFile(dir.filePath("c.png")));
}

ATTNVIZ_TEST_MAIN(TestCliRenderDiagnostics)
#include "test_cli_render_diagnostics.moc"
