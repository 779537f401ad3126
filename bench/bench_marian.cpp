// A Hugging Face Marian folder of opus-mt-en-zh's size (d 512, 6 + 6 layers, 8 heads, F 2048, V 65,001, F32 weights,
// tied tables stored once), random weights, written once into a temporary folder (ATTNVIZ_MARIAN_FOLDER to reuse
// one). Issue 42's targets, each at one thread against bench/pytorch_marian_speed.py in the same run:
//   openFolder        the folder opens in ≤ 1.5 s; the RSS it adds is printed as a counter (≤ 1.3 × weights)
//   step              one decoder step (the position after 10 output tokens) ≤ 15 ms
//   greedy20          greedy decoding of 20 output tokens, ≥ 3× PyTorch eager with a key/value cache
// The model's pieces: a small SentencePiece model trained on generated lines; the other vocabulary rows are
// numbered pieces (they are never produced from text, only by the decoder).
#include "decode/decoding.h"
#include "io/marian_writer.h"
#include "io/model_file.h"
#include "kernels/thread_pool.h"
#include "model/model.h"
#include "text/sentencepiece_model.h"
#include "text/sentencepiece_training.h"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <string>

using namespace attnviz;

namespace {

constexpr int kVocab = 65001, kWidth = 512, kLayers = 6, kHeads = 8, kFfn = 2048;
const char* kSentence = "My brother and I went to the old market to buy fresh fruit";

std::vector<std::string> lines() {
    static const char* words[] = {"my",    "brother", "and",   "i",  "went", "to", "the",   "old",  "market", "buy",
                                  "fresh", "fruit",   "bread", "we", "saw",  "a",  "small", "bird", "near",   "river"};
    std::mt19937 rng(3);
    std::vector<std::string> out;
    for (int i = 0; i < 400; ++i) {
        std::string s;
        for (int k = 0; k < 8; ++k) s += (k ? " " : "") + std::string(words[rng() % std::size(words)]);
        out.push_back(s);
    }
    return out;
}

Model randomMarianModel() {
    Model m;
    auto spm = std::make_shared<const SentencePieceModel>(
        SentencePieceModel::fromBytes(trainSentencePiece(lines(), {40, 1, 1.0, 1000000}), "bench.spm"));
    std::vector<std::string> tokens{"</s>", "<unk>"};
    for (const std::string& p : spm->normalPieces()) tokens.push_back(p);
    for (int i = int(tokens.size()); i < kVocab - 1; ++i) tokens.push_back("▁w" + std::to_string(i));
    tokens.push_back("<pad>");
    const int pad = kVocab - 1;
    m.source_spm = m.target_spm = spm;
    m.source_vocab = Vocabulary(tokens, SpecialIds{pad, 1, -1, 0, -1}, "vocabulary");
    m.target_vocab = Vocabulary(tokens, SpecialIds{pad, 1, -1, 0, pad}, "vocabulary");
    m.config.decoder = DecoderKind::Transformer;
    m.config.score = ScoreKind::ScaledDot;
    m.config.tokenizer = {TokenizerKind::SentencePiece, TokenizerKind::SentencePiece, false};
    TransformerConfig& t = m.config.transformer;
    t = {kWidth, kHeads, kLayers, kLayers, kFfn, false, Activation::Swish};
    t.final_norms = false;
    t.positions = PositionLayout::Halves;
    t.max_positions = 512;
    t.shared_embeddings = t.tied_output = true;
    t.forbidden_outputs = {pad};
    initTransformerParams(m.transformer, m.transformerShape(), {5, false});
    m.transformer.generator_bias[0] = -100.0f;  // </s> pushed down: every greedy decode runs to its length limit
    m.marian = MarianOrigin{};
    return m;
}

const std::string& folder() {
    static const std::string path = [] {
        if (const char* given = std::getenv("ATTNVIZ_MARIAN_FOLDER")) return std::string(given);
        const std::string p = (std::filesystem::temp_directory_path() / "attnviz-bench-opus-mt-size").string();
        if (!std::filesystem::exists(p + "/model.safetensors")) saveMarianFolder(randomMarianModel(), p, {}, true);
        return p;
    }();
    return path;
}

long rssKiB() {
    std::ifstream in("/proc/self/status");
    for (std::string line; std::getline(in, line);)
        if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
    return 0;
}

std::shared_ptr<const Model> opened() {
    static const auto model = std::make_shared<const Model>(loadModel(folder()));
    return model;
}

void openFolder(benchmark::State& state) {
    (void)folder();
    for (auto _ : state) {
        const long before = rssKiB();
        Model m = loadModel(folder());
        const long after = rssKiB();
        const double weights = 4.0 * double(m.parameterCount());
        state.counters["rss_over_weights"] = double(after - before) * 1024.0 / weights;
        state.counters["weights_MB"] = weights / 1e6;
        benchmark::DoNotOptimize(m);
    }
}

void step(benchmark::State& state) {
    const auto model = opened();
    DecodeOptions o;
    o.max_len = 11;
    o.top_k = 10;
    o.parallel_steps = false;  // one thread, as PyTorch's
    DecodingSession session(model, kSentence, o);
    for (int i = 0; i < 10; ++i) session.forward();
    for (auto _ : state) {
        session.force(10, 5);  // the step at position 10 recomputed from its kept cache
        benchmark::DoNotOptimize(session.steps().back().log_prob);
    }
}

void greedy20(benchmark::State& state) {
    const auto model = opened();
    DecodeOptions o;
    o.max_len = 20;
    o.parallel_steps = false;
    for (auto _ : state) {
        const DecodeResult r = greedyDecode(*model, kSentence, o);
        benchmark::DoNotOptimize(r.total_log_prob);
    }
}

}  // namespace

BENCHMARK(openFolder)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(step)->Unit(benchmark::kMillisecond);
BENCHMARK(greedy20)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
