// Explanation speed (issue 28's targets, docs/performance.md): the shipped Tatoeba additive model and the Tatoeba
// Transformer, a sentence forced along an output of as many tokens as the source has after <sos>, every row:
// the 10-word sentence (S = 13, 13 rows; the names ending in _10words), and an 11-word one (S = 14, 14 rows).
// Targets for the 10-word sentence: grad_input ≤ 5 ms (RNN) / 15 ms (Transformer); ig with 32 steps ≤ 100 / 300 ms;
// occlusion ≤ 20 / 60 ms. Compare with `bench/pytorch_explain_check.py --time` (PyTorch eager autograd on the same
// models and sentences).
#include "decode/decoding.h"
#include "explain/explanation.h"
#include "io/model_file.h"
#include "text/tokenizer.h"

#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <string>
#include <utility>

using namespace attnviz;

namespace {

const char* kTenWords = "Tom said he would come to the party with us.";
const char* kElevenWords = "Tom said he would come to the party with his sister.";

std::shared_ptr<const Model> sample(const std::string& name) {
    static std::map<std::string, std::shared_ptr<const Model>> loaded;
    auto& m = loaded[name];
    if (!m) m = std::make_shared<const Model>(loadModel(std::string(ATTNVIZ_SOURCE_DIR "/sample_models/") + name));
    return m;
}

// The sentence forced along a fixed output of S - 1 tokens (the last <eos>), as pytorch_explain_check.py --time does.
DecodeResult decodeOf(const Model& m, const char* sentence) {
    const TokenizedText src = tokenizeSource(m, sentence);
    TokenizedText ref;
    for (int k = 0; k < int(src.ids.size()) - 1; ++k) {
        ref.ids.push_back(4 + k % 7);
        ref.tokens.push_back(m.target_vocab.token(4 + k % 7));
    }
    ref.ids.push_back(kEos);
    ref.tokens.push_back("<eos>");
    return forcedDecode(m, src, ref);
}

void run(benchmark::State& state, const char* model, ExplainMethod method, const char* sentence) {
    const std::shared_ptr<const Model> m = sample(model);
    const DecodeResult d = decodeOf(*m, sentence);
    for (auto _ : state) benchmark::DoNotOptimize(explainDecode(*m, d, method).values.data());
    state.counters["rows"] = double(d.target_ids.size());
    state.counters["S"] = double(d.source_ids.size());
}

// run/{additive,transformer}_{grad_input,ig32,occlusion}_{10,11}words
const bool registered = [] {
    const std::pair<const char*, const char*> sentences[] = {{"10words", kTenWords}, {"11words", kElevenWords}};
    const std::pair<const char*, const char*> models[] = {{"additive", "tatoeba-bahdanau-additive.safetensors"},
                                                          {"transformer", "tatoeba-transformer.safetensors"}};
    const std::pair<const char*, ExplainMethod> methods[] = {{"grad_input", ExplainMethod::GradInput},
                                                             {"ig32", ExplainMethod::IntegratedGradients},
                                                             {"occlusion", ExplainMethod::Occlusion}};
    for (const auto& [words, sentence] : sentences)
        for (const auto& [kind, file] : models)
            for (const auto& [name, method] : methods) {
                const std::string label = std::string("run/") + kind + "_" + name + "_" + words;
                benchmark::RegisterBenchmark(label.c_str(), run, file, method, sentence)->Unit(benchmark::kMillisecond);
            }
    return true;
}();

}  // namespace

BENCHMARK_MAIN();
