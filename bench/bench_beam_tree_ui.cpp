// The beam search view's cost (target: width 8 at 30 steps ≤ 50 ms, search + layout): the search alone, the search
// and the tree's layout (BeamTreeCanvas::setTree), and both with a paint of a 1200 × 320 view of the tree.
// The tree's memory is reported as counters of the search alone (bytes of rows and nodes).
// Model: the en_zh additive sample model with <eos> made unreachable, so that all 8 hypotheses live for the whole 30
// steps (the worst case: 8 expansions of 8 children per step), else a random model of sample size.
//   bench_beam_tree_ui --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include "bench_ui_support.h"
#include "dialogs/model_library.h"
#include "io/model_file.h"
#include "text/tokenizer.h"
#include "views/beam_tree_canvas.h"

#include <benchmark/benchmark.h>
#include <QApplication>
#include <QFileInfo>
#include <QImage>

#include <cstdio>
#include <memory>

using namespace attnviz;
using namespace attnviz::ui;

namespace {

constexpr int kSteps = 30;

std::shared_ptr<const Model> benchModel() {
    static std::shared_ptr<const Model> model = [] {
        Model m;
        bool loaded = false;
        for (const QString& dir : sampleModelDirs()) {
            const QString path = dir + QStringLiteral("/en_zh-bahdanau-additive.safetensors");
            if (loaded || !QFileInfo::exists(path)) continue;
            try {
                m = loadModel(path.toStdString());
                loaded = true;
                std::fprintf(stderr, "model: %s\n", qPrintable(path));
            } catch (const std::exception& e) {
                std::fprintf(stderr, "cannot load %s (%s)\n", qPrintable(path), e.what());
            }
        }
        if (!loaded) {
            m = bench::randomSampleSizeModel(7);
        }
        m.params.fc_out_b[kEos] -= 1000.0f;  // no hypothesis finishes before the length limit
        return std::make_shared<const Model>(std::move(m));
    }();
    return model;
}

TokenizedText benchSource(const Model& m) {
    std::string s;
    for (int i = 0; i < 12; ++i) s += (i ? " " : "") + m.source_vocab.token(4 + (i * 37) % (m.source_vocab.size() - 4));
    return tokenizeSource(m, s);
}

DecodeOptions thirtySteps() {
    DecodeOptions o;
    o.max_len = kSteps;
    return o;
}

// Also what the tree keeps, in bytes: its attention rows (one per expansion), what one row per node would take (as
// the tree kept before), and its nodes with their lists of children.
void BM_BeamSearchOnly(benchmark::State& state) {
    const auto model = benchModel();
    const TokenizedText src = benchSource(*model);
    for (auto _ : state) benchmark::DoNotOptimize(beamSearch(*model, src, int(state.range(0)), thirtySteps()));
    const BeamResult tree = beamSearch(*model, src, int(state.range(0)), thirtySteps());
    const double row_bytes = double(src.ids.size() * sizeof(float));
    double node_bytes = 0;
    for (const BeamNode& n : tree.nodes) node_bytes += double(sizeof(BeamNode) + n.children.size() * sizeof(int));
    state.counters["S"] = double(src.ids.size());
    state.counters["nodes"] = double(tree.nodes.size());
    state.counters["rows"] = double(tree.rows.size());
    state.counters["row_bytes"] = double(tree.rows.size()) * row_bytes;
    state.counters["row_bytes_one_per_node"] = double(tree.nodes.size() - 1) * row_bytes;
    state.counters["node_bytes"] = node_bytes;
}
BENCHMARK(BM_BeamSearchOnly)->Arg(8)->ArgName("width")->Unit(benchmark::kMillisecond)->UseRealTime();

// What the view does for a new decode or width: search, then lay the tree out (the paint comes later, clipped).
void BM_BeamSearchAndLayout(benchmark::State& state) {
    const auto model = benchModel();
    const TokenizedText src = benchSource(*model);
    BeamTreeCanvas canvas;
    double nodes = 0;
    for (auto _ : state) {
        const BeamResult tree = beamSearch(*model, src, int(state.range(0)), thirtySteps());
        canvas.setTree(&tree, &model->target_vocab);
        nodes += double(tree.nodes.size());
        canvas.setTree(nullptr, nullptr);
    }
    state.counters["nodes"] = nodes / double(state.iterations());
}
BENCHMARK(BM_BeamSearchAndLayout)->Arg(8)->ArgName("width")->Unit(benchmark::kMillisecond)->UseRealTime();

// The same and the first paint of a 1200 × 320 view onto the tree's left end.
void BM_BeamSearchLayoutPaint(benchmark::State& state) {
    const auto model = benchModel();
    const TokenizedText src = benchSource(*model);
    BeamTreeCanvas canvas;
    QImage image(1200, 320, QImage::Format_ARGB32_Premultiplied);
    for (auto _ : state) {
        const BeamResult tree = beamSearch(*model, src, int(state.range(0)), thirtySteps());
        canvas.setTree(&tree, &model->target_vocab);
        canvas.render(&image, QPoint(), QRegion(0, 0, image.width(), image.height()));
        canvas.setTree(nullptr, nullptr);
    }
}
BENCHMARK(BM_BeamSearchLayoutPaint)->Arg(8)->ArgName("width")->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

int main(int argc, char** argv) { return attnviz::bench::runUiBenchmarks(argc, argv); }
