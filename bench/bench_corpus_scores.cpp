// The corpus browser's scoring (core/eval/corpus_scores.h): every line of the Tatoeba test split (1,000 lines)
// scored by the shipped tatoeba-bahdanau-additive model, the lines decoded side by side on every core. Issue 15's
// target: 1,000 lines in ≤ 2 s. The split is made by sample_models/corpora/tatoeba.py (as sample_models/build.sh does):
//   python3 sample_models/corpora/tatoeba.py --out build/corpora
// and read from $ATTNVIZ_CORPORA/tatoeba/test.tsv (default build/corpora under the source tree).
#include "eval/corpus_scores.h"
#include "io/corpus.h"
#include "io/model_file.h"
#include "tatoeba_split.h"

#include <benchmark/benchmark.h>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

using namespace attnviz;

namespace {

const bench::TatoebaSplit& data() {
    static const bench::TatoebaSplit d = bench::readTatoebaSplit("tatoeba-bahdanau-additive.safetensors");
    return d;
}

// The first `range(0)` lines of the split, on `range(1)` threads (0: one per core).
void BM_scoreTatoebaTest(benchmark::State& state) {
    const bench::TatoebaSplit& d = data();
    if (!d.error.empty()) {
        state.SkipWithError(d.error.c_str());
        return;
    }
    std::vector<CorpusExample> lines = d.corpus.examples;
    lines.resize(std::min(lines.size(), size_t(state.range(0))));
    CorpusScoreOptions o;
    o.threads = int(state.range(1));
    size_t tokens = 0;
    for (auto _ : state) {
        const std::vector<LineScores> s = scoreCorpus(*d.model, lines, o);
        tokens = 0;
        for (const LineScores& l : s) tokens += l.output_tokens.size();
        benchmark::DoNotOptimize(tokens);
    }
    state.counters["lines"] = double(lines.size());
    state.counters["output_tokens"] = double(tokens);
}
BENCHMARK(BM_scoreTatoebaTest)->Args({1000, 0})->Args({1000, 1})->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
