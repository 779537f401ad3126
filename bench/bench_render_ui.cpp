// Heatmap rendering costs: a 1600x1200 PNG export of a 20x20 heatmap (target: <= 200 ms median) and the widget's
// setData + replot for a 20-word and a 200-word sentence. Runs offscreen.
//   bench_render_ui --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include "heatmap/heatmap_export.h"
#include "heatmap/heatmap_view.h"

#include <benchmark/benchmark.h>
#include <qcustomplot.h>
#include <QApplication>
#include <QTemporaryDir>

using namespace attnviz;
using namespace attnviz::ui;

namespace {

// n source words (+ <sos>/<eos>), n target words (+ <eos>), rows summing to 1 with a diagonal-ish peak.
HeatmapData makeData(int n) {
    HeatmapData d;
    d.source_tokens << "<sos>";
    for (int i = 0; i < n; ++i) d.source_tokens << QStringLiteral("word%1").arg(i);
    d.source_tokens << "<eos>";
    for (int i = 0; i < n; ++i) d.target_tokens << QStringLiteral("词%1").arg(i);
    d.target_tokens << "<eos>";
    const int S = d.cols();
    for (int t = 0; t < d.rows(); ++t) {
        std::vector<float> row(S);
        double sum = 0;
        for (int s = 0; s < S; ++s) sum += (row[s] = float(1.0 / (1.0 + 4.0 * std::abs(s - 1 - t))));
        for (float& x : row) x = float(x / sum);
        d.weights.push_back(row);
    }
    return d;
}

DecodeResult toResult(const HeatmapData& d) {
    DecodeResult r;
    for (const QString& s : d.source_tokens) r.source_tokens.push_back(s.toStdString()), r.source_ids.push_back(1);
    for (const QString& s : d.target_tokens) r.target_tokens.push_back(s.toStdString()), r.target_ids.push_back(1);
    r.attention = d.weights;
    r.log_probs.assign(d.rows(), -0.5f);
    return r;
}

void BM_ExportPng1600x1200(benchmark::State& state) {
    const HeatmapData d = makeData(int(state.range(0)) - 2);  // a 20 x 20 matrix, specials included
    const DecodeResult r = toResult(d);
    QTemporaryDir dir;
    const QString path = dir.filePath("bench.png");
    ExportOptions o;  // 1600 x 1200 @ 144 dpi
    o.style.annotate = state.range(1) != 0;
    QString error;
    for (auto _ : state)
        if (!exportHeatmap(d, r, ModelConfig{}, path, o, &error)) state.SkipWithError(error.toStdString().c_str());
}
BENCHMARK(BM_ExportPng1600x1200)
    ->Args({20, 0})
    ->Args({20, 1})
    ->ArgNames({"n", "annotate"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

void BM_RenderImage1600x1200(benchmark::State& state) {
    const HeatmapData d = makeData(int(state.range(0)) - 2);
    ExportOptions o;
    for (auto _ : state) benchmark::DoNotOptimize(renderHeatmapImage(d, o));
}
BENCHMARK(BM_RenderImage1600x1200)->Arg(20)->ArgName("n")->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_ViewSetDataReplot(benchmark::State& state) {
    const HeatmapData a = makeData(int(state.range(0))), b = makeData(int(state.range(0)));
    HeatmapView view;
    view.resize(1100, 750);
    view.show();
    QCoreApplication::processEvents();
    bool flip = false;
    for (auto _ : state) {
        view.setData(flip ? a : b);  // replots at once
        flip = !flip;
    }
}
BENCHMARK(BM_ViewSetDataReplot)->Arg(20)->Arg(200)->ArgName("words")->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    int qargc = 1;
    QApplication app(qargc, argv);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
