// The window on Hugging Face Marian folders (issue 42, window; docs/marian.md "In the window"):
//   HubCacheListing    the model library's listing of a Hugging Face cache of 10,000 snapshot folders (100
//                      repositories of 100, a config.json in one snapshot of each): target < 1 s
//   MarianEditToHeatmap  a keystroke reaching the heatmap for a 12-word sentence, the synchronous path the window
//                      takes once the debounce has fired (DecodeWorker::run + the heatmap's data + setData, which
//                      replots), on the folder in ATTNVIZ_MARIAN_FOLDER (an opus-mt-sized one:
//                      `python3 scripts/make_marian_folder.py OUT --opus-mt-en-zh --no-eos --source-spm ...`): ≤ 0.5 s
//   MarianWordsToHeatmap the same decode shown in words (mergeWords on both sides, every layer's and head's attention)
#include "bench_ui_support.h"
#include "decode/subword_words.h"
#include "dialogs/hub_cache.h"
#include "heatmap/heatmap_view.h"
#include "io/model_file.h"
#include "state/decode_worker.h"

#include <benchmark/benchmark.h>
#include <qcustomplot.h>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>

#include <cstdio>
#include <memory>

using namespace attnviz;
using namespace attnviz::ui;

namespace {

const char* kTwelveWords = "last year they gave an apple to the famous teacher in Paris";

void BM_HubCacheListing(benchmark::State& state) {
    QTemporaryDir cache;
    for (int i = 0; i < 100; ++i) {
        const QString repo = cache.filePath(QStringLiteral("models--Helsinki-NLP--opus-mt-r%1-en-zh").arg(i));
        for (int s = 0; s < 100; ++s) QDir().mkpath(QStringLiteral("%1/snapshots/rev%2").arg(repo).arg(s));
        QFile config(QStringLiteral("%1/snapshots/rev%2/config.json").arg(repo).arg(i));
        if (!config.open(QIODevice::WriteOnly)) state.SkipWithError("cannot write the cache");
        config.write(R"({"model_type": "marian", "d_model": 512})");
    }
    size_t listed = 0;
    for (auto _ : state) listed = scanHubCache(cache.path()).size();
    state.counters["repositories"] = double(listed);
}
BENCHMARK(BM_HubCacheListing)->Unit(benchmark::kMillisecond)->Iterations(5);

std::shared_ptr<const Model> marianModel() {
    static std::shared_ptr<const Model> model = []() -> std::shared_ptr<const Model> {
        const QString path = qEnvironmentVariable("ATTNVIZ_MARIAN_FOLDER");
        if (path.isEmpty()) return nullptr;
        return std::make_shared<const Model>(loadModel(path.toStdString()));
    }();
    return model;
}

void editToHeatmap(benchmark::State& state, bool words) {
    auto model = marianModel();
    if (!model) {
        state.SkipWithError("set ATTNVIZ_MARIAN_FOLDER to an opus-mt-sized Marian folder");
        return;
    }
    HeatmapView view;
    view.resize(1000, 700);
    view.show();
    QApplication::processEvents();
    DecodeRequest request;
    request.model = model;
    // two versions of the sentence that differ in their last word, as after one edit
    const std::string a = kTwelveWords, b = std::string(kTwelveWords).substr(0, a.rfind(' ') + 1) + "London";
    int flip = 0;
    double rows = 0, cols = 0;
    for (auto _ : state) {
        request.source = (flip++ & 1) ? b : a;
        const DecodeOutcome out = DecodeWorker::run(request);
        const DecodeResult shown = words ? mergeWords(out.result, MergeSides::Both) : out.result;
        view.setData(HeatmapData::fromDecode(shown), -1, int(shown.target_tokens.size()) - 1);
        benchmark::DoNotOptimize(view.plot());
        rows += double(shown.target_tokens.size());
        cols += double(shown.source_tokens.size());
    }
    state.counters["T"] = rows / double(state.iterations());
    state.counters["S"] = cols / double(state.iterations());
}

void BM_MarianEditToHeatmap(benchmark::State& state) { editToHeatmap(state, false); }
void BM_MarianWordsToHeatmap(benchmark::State& state) { editToHeatmap(state, true); }
BENCHMARK(BM_MarianEditToHeatmap)->Unit(benchmark::kMillisecond)->Repetitions(3)->ReportAggregatesOnly(true);
BENCHMARK(BM_MarianWordsToHeatmap)->Unit(benchmark::kMillisecond)->Repetitions(3)->ReportAggregatesOnly(true);

}  // namespace

int main(int argc, char** argv) { return attnviz::bench::runUiBenchmarks(argc, argv); }
