// The corpus browser's scoring (core/eval/corpus_scores.h): every line of the Tatoeba test split (1,000 lines)
// scored by the shipped tatoeba-bahdanau-additive model, the lines decoded side by side on every core. Issue 15's
// target: 1,000 lines in ≤ 2 s. The split is made by sample_models/corpora/tatoeba.py (as sample_models/build.sh does):
//   python3 sample_models/corpora/tatoeba.py --out build/corpora
// and read from $ATTNVIZ_CORPORA/tatoeba/test.tsv (default build/corpora under the source tree).
#include "eval/corpus_scores.h"
#include "io/corpus.h"
#include "io/model_file.h"

#include <benchmark/benchmark.h>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

using namespace attnviz;

namespace {

struct Data {
    std::shared_ptr<const Model> model;
    Corpus corpus;
    std::string error;
};

const Data& data() {
    static const Data d = [] {
        Data out;
        const char* env = std::getenv("ATTNVIZ_CORPORA");
        const std::string corpora = env ? env : std::string(ATTNVIZ_SOURCE_DIR) + "/build/corpora";
        try {
            out.model = std::make_shared<const Model>(
                loadModel(std::string(ATTNVIZ_SOURCE_DIR) + "/sample_models/tatoeba-bahdanau-additive.safetensors"));
            CorpusOptions o;
            o.tokenizer = out.model->config.tokenizer;
            out.corpus = readCorpus(corpora + "/tatoeba/test.tsv", o);
        } catch (const std::exception& e) {
            out.error = std::string(e.what()) +
                        " (make the split: python3 sample_models/corpora/tatoeba.py --out build/corpora)";
        }
        return out;
    }();
    return d;
}

// The first `range(0)` lines of the split, on `range(1)` threads (0: one per core).
void BM_scoreTatoebaTest(benchmark::State& state) {
    const Data& d = data();
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
