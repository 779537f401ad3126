// Intervention speed (issue 29's targets, docs/performance.md "Interventions"): the window re-decodes a sentence as
// soon as an intervention is made, within one frame (≤ 16 ms) for a 20-word sentence on the Tatoeba models; head
// importance of the Tatoeba Transformer over its 1,000-line test split takes ≤ 2 minutes on 2 cores.
// - redecode: greedy decoding of the 20-word sentence, plain and with one word knocked out (every sibling and the
//   Transformer), one row attended (the RNN siblings), one head off (the Transformer);
// - head importance: core's headImportanceReport (every head off in turn, two decodes a line, and the gradient) over
//   the first N lines of the split on every core. The split is made by sample_models/corpora/tatoeba.py:
//     python3 sample_models/corpora/tatoeba.py --out build/corpora
//   and read from $ATTNVIZ_CORPORA/tatoeba/test.tsv (default build/corpora under the source tree).
#include "decode/decoding.h"
#include "eval/head_importance.h"
#include "io/corpus.h"
#include "io/model_file.h"
#include "tatoeba_split.h"
#include "text/tokenizer.h"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <string>

using namespace attnviz;

namespace {

// 20 source words (the word tokenizer splits off the full stop): "party" is position 9 (<sos> = 0).
const char* kSentence = "Tom said that he would come to the party with his sister if she could find a car tomorrow.";
constexpr int kParty = 9;

std::shared_ptr<const Model> sample(const std::string& name) {
    static std::map<std::string, std::shared_ptr<const Model>> loaded;
    auto& m = loaded[name];
    if (!m) m = std::make_shared<const Model>(loadModel(std::string(ATTNVIZ_SOURCE_DIR "/sample_models/") + name));
    return m;
}

enum class Intervention { None, Knockout, Attend, HeadOff };

void redecode(benchmark::State& state, const char* model, Intervention kind) {
    const std::shared_ptr<const Model> m = sample(model);
    const TokenizedText src = tokenizeSource(*m, kSentence);
    DecodeOptions o;  // the window's: greedy, the length limit of docs/cli.md
    if (kind == Intervention::Knockout) o.interventions.knockout = {kParty};
    if (kind == Intervention::Attend) o.interventions.attend = {{3, kParty}};  // the fourth output token reads "party"
    if (kind == Intervention::HeadOff) o.interventions.heads_off = {{AttentionKind::Cross, 1, 0}};
    size_t rows = 0;
    for (auto _ : state) {
        const DecodeResult r = greedyDecode(*m, src, o);
        rows = r.target_ids.size();
        benchmark::DoNotOptimize(r.target_ids.data());
    }
    state.counters["S"] = double(src.ids.size());
    state.counters["rows"] = double(rows);
}

const bench::TatoebaSplit& tatoebaSplit() {
    static const bench::TatoebaSplit d = bench::readTatoebaSplit("tatoeba-transformer.safetensors");
    return d;
}

// The first range(0) lines of the split, on every core.
void BM_headImportanceTatoeba(benchmark::State& state) {
    const bench::TatoebaSplit& d = tatoebaSplit();
    if (!d.error.empty()) {
        state.SkipWithError(d.error.c_str());
        return;
    }
    std::vector<CorpusExample> lines = d.corpus.examples;
    lines.resize(std::min(lines.size(), size_t(state.range(0))));
    for (auto _ : state) benchmark::DoNotOptimize(headImportanceReport(*d.model, lines).bleu);
    state.counters["lines"] = double(lines.size());
    state.counters["heads"] = double(allHeads(d.model->config.transformer).size());
}

}  // namespace

#define ATTNVIZ_REDECODE(label, file, kind) \
    BENCHMARK_CAPTURE(redecode, label, file, Intervention::kind)->Unit(benchmark::kMillisecond)
ATTNVIZ_REDECODE(additive_plain, "tatoeba-bahdanau-additive.safetensors", None);
ATTNVIZ_REDECODE(additive_knockout, "tatoeba-bahdanau-additive.safetensors", Knockout);
ATTNVIZ_REDECODE(additive_attend, "tatoeba-bahdanau-additive.safetensors", Attend);
ATTNVIZ_REDECODE(dot_knockout, "tatoeba-bahdanau-dot.safetensors", Knockout);
ATTNVIZ_REDECODE(scaled_dot_knockout, "tatoeba-bahdanau-scaled_dot.safetensors", Knockout);
ATTNVIZ_REDECODE(general_knockout, "tatoeba-bahdanau-general.safetensors", Knockout);
ATTNVIZ_REDECODE(luong_feed_plain, "tatoeba-luong-general-feed.safetensors", None);
ATTNVIZ_REDECODE(luong_feed_knockout, "tatoeba-luong-general-feed.safetensors", Knockout);
ATTNVIZ_REDECODE(luong_feed_attend, "tatoeba-luong-general-feed.safetensors", Attend);
ATTNVIZ_REDECODE(transformer_plain, "tatoeba-transformer.safetensors", None);
ATTNVIZ_REDECODE(transformer_knockout, "tatoeba-transformer.safetensors", Knockout);
ATTNVIZ_REDECODE(transformer_head_off, "tatoeba-transformer.safetensors", HeadOff);
// One pass over 1,000 lines takes about a minute: one iteration each (--benchmark_filter=100 for a quick look).
BENCHMARK(BM_headImportanceTatoeba)->Arg(100)->Arg(1000)->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();

BENCHMARK_MAIN();
