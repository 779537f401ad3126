// Explanation speed (issue 28's targets, docs/performance.md): the shipped Tatoeba additive model and the Tatoeba
// Transformer, a 10-word sentence forced along a 12-token output, every row. grad_input ≤ 5 ms (RNN) / 15 ms
// (Transformer); ig with 32 steps ≤ 100 / 300 ms; occlusion ≤ 20 / 60 ms. Compare with
// `bench/pytorch_explain_check.py --time` (PyTorch eager autograd on the same models and sentence).
#include "decode/decoding.h"
#include "explain/explanation.h"
#include "io/model_file.h"
#include "text/tokenizer.h"

#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <string>

using namespace attnviz;

namespace {

const char* kSentence = "Tom said he would come to the party with his sister.";

std::shared_ptr<const Model> sample(const std::string& name) {
    static std::map<std::string, std::shared_ptr<const Model>> loaded;
    auto& m = loaded[name];
    if (!m) m = std::make_shared<const Model>(loadModel(std::string(ATTNVIZ_SOURCE_DIR "/sample_models/") + name));
    return m;
}

// The sentence forced along a fixed 12-token output (11 tokens and <eos>), as pytorch_explain_check.py --time does.
DecodeResult decodeOf(const Model& m) {
    const TokenizedText src = tokenizeSource(m, kSentence);
    TokenizedText ref;
    for (int k = 0; k < int(src.ids.size()) - 1; ++k) {
        ref.ids.push_back(4 + k % 7);
        ref.tokens.push_back(m.target_vocab.token(4 + k % 7));
    }
    ref.ids.push_back(kEos);
    ref.tokens.push_back("<eos>");
    return forcedDecode(m, src, ref);
}

void run(benchmark::State& state, const char* model, ExplainMethod method) {
    const std::shared_ptr<const Model> m = sample(model);
    const DecodeResult d = decodeOf(*m);
    for (auto _ : state) benchmark::DoNotOptimize(explainDecode(*m, d, method).values.data());
    state.counters["rows"] = double(d.target_ids.size());
    state.counters["S"] = double(d.source_ids.size());
}

}  // namespace

BENCHMARK_CAPTURE(run, additive_grad_input, "tatoeba-bahdanau-additive.safetensors", ExplainMethod::GradInput)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(run, additive_ig32, "tatoeba-bahdanau-additive.safetensors", ExplainMethod::IntegratedGradients)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(run, additive_occlusion, "tatoeba-bahdanau-additive.safetensors", ExplainMethod::Occlusion)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(run, transformer_grad_input, "tatoeba-transformer.safetensors", ExplainMethod::GradInput)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(run, transformer_ig32, "tatoeba-transformer.safetensors", ExplainMethod::IntegratedGradients)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(run, transformer_occlusion, "tatoeba-transformer.safetensors", ExplainMethod::Occlusion)
    ->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
