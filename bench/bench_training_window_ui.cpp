// The training window's throughput against `attnviz-cli train`'s on the same settings (issue target: >= 90 %).
// The CLI's route is core's trainModel with a progress report every 5 s (stderr not a terminal); the window's is the
// whole TrainingWindow: its worker thread, a progress report per update into the loss curves, the probe decoded and
// kept every 20 updates, while the UI thread replots the curves and the heatmap. Both train 150 updates of 64
// sentences of 10 words (en_fr's sizes: E 64, H 64/128, 500-word vocabularies); the figure is target tokens per
// second of the training loop's wall time (TrainReport::seconds: the updates and, in the window, its callbacks).
//   bench_training_window_ui --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
#include "bench_ui_support.h"

#include "io/corpus.h"
#include "train/corpus_training.h"
#include "training/training_form.h"
#include "training/training_window.h"

#include <QEventLoop>
#include <QFile>
#include <QTemporaryDir>

using namespace attnviz;
using namespace attnviz::ui;

namespace {

constexpr int64_t kUpdates = 150;

// 2,000 lines of 10 random words over 500 per side.
QString writeCorpus(const QTemporaryDir& dir) {
    const QString path = dir.filePath(QStringLiteral("train.tsv"));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) std::abort();
    std::mt19937 rng(7);
    for (int line = 0; line < 2000; ++line) {
        QByteArray text;
        for (int side = 0; side < 2; ++side) {
            for (int w = 0; w < 10; ++w)
                text += (w ? " " : "") + QByteArray(side ? "t" : "w") + QByteArray::number(int(rng() % 500));
            text += side ? "\n" : "\t";
        }
        f.write(text);
    }
    return path;
}

TrainingSettings settings(const QTemporaryDir& dir, const QString& corpus) {
    TrainingSettings s = defaultTrainingSettings(QStringLiteral("en_fr"));
    s.corpus = corpus;
    s.config.tokenizer = {};
    s.max_lines = 0;
    s.options.steps = kUpdates;
    s.options.threads = 2;
    s.snapshot_every = 20;
    s.out = dir.filePath(QStringLiteral("window.safetensors"));
    return s;
}

void cliRoute(benchmark::State& state) {
    QTemporaryDir dir;
    const TrainingSettings s = settings(dir, writeCorpus(dir));
    int64_t tokens = 0;
    double seconds = 0;
    for (auto _ : state) {
        const Corpus corpus = readCorpus(s.corpus.toStdString(), CorpusOptions{true, s.config.tokenizer});
        CorpusVocabularies v = corpusVocabularies(corpus, 1);
        Model m = makeRandomModel(s.config, std::move(v.source), std::move(v.target), s.options.seed);
        const std::vector<TrainExample> train = corpusExamples(m, corpus);
        TrainOptions o = s.options;
        o.progress_interval = 5.0;
        TrainCallbacks cb;
        cb.progress = [](const TrainProgress&) {};
        const TrainReport rep = trainModel(m, train, {}, o, cb);
        seconds += rep.seconds;
        tokens += rep.target_tokens;
    }
    state.counters["target_tokens_per_s"] = double(tokens) / seconds;
}

void windowRoute(benchmark::State& state) {
    QTemporaryDir dir;
    const TrainingSettings s = settings(dir, writeCorpus(dir));
    int64_t tokens = 0;
    double seconds = 0;
    for (auto _ : state) {
        TrainingWindow w;
        w.form()->applySettings(s);
        QEventLoop loop;
        QObject::connect(&w, &TrainingWindow::trainingFinished, &loop, &QEventLoop::quit);
        if (!w.start()) std::abort();
        loop.exec();
        seconds += w.lastReport().seconds;
        tokens += w.lastReport().target_tokens;
    }
    state.counters["target_tokens_per_s"] = double(tokens) / seconds;
}

}  // namespace

BENCHMARK(cliRoute)->Unit(benchmark::kSecond)->Iterations(2)->UseRealTime();
BENCHMARK(windowRoute)->Unit(benchmark::kSecond)->Iterations(2)->UseRealTime();

int main(int argc, char** argv) { return attnviz::bench::runUiBenchmarks(argc, argv); }
