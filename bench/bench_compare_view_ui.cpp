// The compare view after an edit: from an edited sentence to the repainted comparison, the synchronous path the
// window and the compare view take once the debounce has fired: A's DecodeWorker::run, B's forced decode on A's
// output (CompareView::decodeB), then CompareView::showPair (core's compareRows, the three heatmaps' setData with
// their replots, the distance table, the summary). BM_CompareRepaint times the last part alone (both models already
// decoded). Targets: median <= 16 ms for 20 words, <= 50 ms for 200 words (issue 15).
// Models: the en_zh bahdanau additive and dot sample models when they are found, else two random models of sample
// size with the same vocabularies (their outputs run to the length limit).
#include "bench_ui_support.h"
#include "dialogs/model_library.h"
#include "io/model_file.h"
#include "state/decode_worker.h"
#include "views/compare_view.h"

#include <benchmark/benchmark.h>
#include <QApplication>
#include <QDir>

#include <cstdio>
#include <memory>
#include <random>
#include <utility>

using namespace attnviz;
using namespace attnviz::ui;

namespace {

using ModelPair = std::pair<std::shared_ptr<const Model>, std::shared_ptr<const Model>>;

std::shared_ptr<const Model> randomModel(uint64_t seed) {
    return std::make_shared<const Model>(bench::randomSampleSizeModel(seed));
}

const ModelPair& benchModels() {
    static const ModelPair models = []() -> ModelPair {
        for (const QString& dir : sampleModelDirs()) {
            const QString a = QDir(dir).filePath(QStringLiteral("en_zh-bahdanau-additive.safetensors"));
            const QString b = QDir(dir).filePath(QStringLiteral("en_zh-bahdanau-dot.safetensors"));
            try {
                ModelPair pair{std::make_shared<const Model>(loadModel(a.toStdString())),
                               std::make_shared<const Model>(loadModel(b.toStdString()))};
                std::fprintf(stderr, "models: %s and %s\n", qPrintable(a), qPrintable(b));
                return pair;
            } catch (const std::exception&) {
                continue;  // not in this folder
            }
        }
        return {randomModel(7), randomModel(8)};
    }();
    return models;
}

// Two versions of a sentence that differ in their last word, as after one edit.
std::pair<std::string, std::string> editedPair(const Model& m, int words) {
    const std::string a = bench::benchSentence(m, words, 1);
    return {a, a.substr(0, a.rfind(' ') + 1) + m.source_vocab.token(4)};
}

void BM_EditToCompare(benchmark::State& state) {
    const auto& [model_a, model_b] = benchModels();
    CompareView view(nullptr);
    view.resize(1400, 500);
    view.show();
    QApplication::processEvents();
    const auto [first, second] = editedPair(*model_a, int(state.range(0)));
    DecodeRequest request;
    request.model = model_a;
    int flip = 0;
    double rows = 0;
    for (auto _ : state) {
        request.source = (flip++ & 1) ? second : first;
        const DecodeOutcome out = DecodeWorker::run(request);
        auto a = std::make_shared<const DecodeResult>(out.result);
        auto b = std::make_shared<const DecodeResult>(CompareView::decodeB(*model_b, *a, {}));
        view.showPair(std::move(a), std::move(b));
        rows += double(out.result.target_tokens.size());
    }
    state.counters["S"] = double(state.range(0) + 2);
    state.counters["T"] = rows / double(state.iterations());
}

void BM_CompareRepaint(benchmark::State& state) {
    const auto& [model_a, model_b] = benchModels();
    CompareView view(nullptr);
    view.resize(1400, 500);
    view.show();
    QApplication::processEvents();
    const auto [first, second] = editedPair(*model_a, int(state.range(0)));
    std::shared_ptr<const DecodeResult> a[2], b[2];
    int i = 0;
    for (const std::string& text : {first, second}) {
        DecodeRequest request;
        request.model = model_a;
        request.source = text;
        a[i] = std::make_shared<const DecodeResult>(DecodeWorker::run(request).result);
        b[i] = std::make_shared<const DecodeResult>(CompareView::decodeB(*model_b, *a[i], {}));
        ++i;
    }
    int flip = 0;
    for (auto _ : state) {
        const int k = flip++ & 1;
        view.showPair(a[k], b[k]);
    }
    state.counters["T"] = double(a[0]->target_tokens.size());
}

// Repetitions give the median (of the per-repetition means) in the aggregates.
BENCHMARK(BM_EditToCompare)
    ->Arg(20)
    ->Arg(200)
    ->Unit(benchmark::kMillisecond)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true);
BENCHMARK(BM_CompareRepaint)
    ->Arg(20)
    ->Arg(200)
    ->Unit(benchmark::kMillisecond)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true);

}  // namespace

int main(int argc, char** argv) { return attnviz::bench::runUiBenchmarks(argc, argv); }
