// Decoding speed, one sentence at a time: S = 12 (10 words + <sos>/<eos>), 11 target steps.
// Greedy runs with max_len 11 on a random model whose <eos> logit is pushed down (so every run takes 11 steps);
// forced decoding scores an 11-token reference (10 words + <eos>). greedy, session and beam4 decode with the model's
// token tables filled in advance (fast/token_tables.h: as once every token has been stepped from, any sentence runs
// at this speed); greedyNoTables without them, as a decode from tokens never stepped from before.
// Issue targets: small (E=64, H_e=64, H_d=128, V=500) ≤ 0.3 ms; large (E=256, H_e=256, H_d=512, V=8000) ≤ 8 ms.
// Compare with bench/pytorch_decode.py (the same sizes in eager PyTorch).
// greedyTransformer: issue 16's Transformer (d_model 256, 4 heads, 3 + 3 layers, dim_feedforward 1024, post-LN relu,
// V_s = V_t = 8000), the same sentence and 11 steps; target ≥ 5× PyTorch eager (bench/pytorch_transformer_speed.py,
// bench/compare_transformer.sh). threads:2 shares each step's generator product with a second core; threads:1 runs
// on one.
#include "bench_vocab.h"
#include "decode/decoding.h"
#include "decode/on_path.h"
#include "fast/token_tables.h"
#include "kernels/gemv_terms.h"
#include "kernels/huge_pages.h"
#include "kernels/row_split.h"
#include "model/model.h"
#include "nn/decoder.h"

#include <benchmark/benchmark.h>
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

using namespace attnviz;

namespace {

using bench::numberedVocab;

struct Sizes {
    int E, He, Hd, V;
};
constexpr Sizes kSmall{64, 64, 128, 500};
constexpr Sizes kLarge{256, 256, 512, 8000};

std::shared_ptr<const Model> makeModel(const Sizes& z, DecoderKind d, ScoreKind s, SpanKind span = SpanKind::Global,
                                       bool input_feeding = false) {
    ModelConfig c;
    c.decoder = d;
    c.score = s;
    c.span = span;
    c.input_feeding = input_feeding;
    c.emb_dim = z.E;
    c.enc_hid_dim = z.He;
    c.dec_hid_dim = z.Hd;
    Model m = makeRandomModel(c, numberedVocab(z.V, "s"), numberedVocab(z.V, "t"), 42);
    m.params.fc_out_b[kEos] = -1e4f;  // never stop early: every greedy run takes max_len steps
    return std::make_shared<const Model>(std::move(m));
}

TokenizedText source(int V) {
    TokenizedText t;
    t.ids.push_back(kSos);
    for (int i = 0; i < 10; ++i) t.ids.push_back(4 + (i * 37) % (V - 4));
    t.ids.push_back(kEos);
    return t;
}

TokenizedText reference(int V) {
    TokenizedText t;
    for (int i = 0; i < 10; ++i) t.ids.push_back(4 + (i * 53 + 11) % (V - 4));
    t.ids.push_back(kEos);
    return t;
}

// Issue 16's Transformer with random weights and <eos> pushed down, like makeModel's.
std::shared_ptr<const Model> makeTransformer(int V) {
    ModelConfig c;
    c.decoder = DecoderKind::Transformer;
    c.score = ScoreKind::ScaledDot;
    c.transformer = {256, 4, 3, 3, 1024, false, Activation::Relu};
    Model m = makeRandomModel(c, numberedVocab(V, "s"), numberedVocab(V, "t"), 42);
    m.transformer.generator_bias[kEos] = -1e4f;  // never stop early: every greedy run takes max_len steps
    return std::make_shared<const Model>(std::move(m));
}

// The model's own token tables with every row computed (outside the timed loop).
void fillTables(const Model& m) { detail::tablesOf(m).computeAll(&ThreadPool::engine()); }

void greedyWith(benchmark::State& state, const std::shared_ptr<const Model>& m, const TokenizedText& src,
                const detail::StepPath& path) {
    DecodeOptions opt;
    opt.max_len = 11;
    for (auto _ : state) {
        DecodeResult r = detail::greedyDecode(*m, src, opt, path);
        if (r.target_ids.size() != 11) state.SkipWithError("greedy did not take 11 steps");
        benchmark::DoNotOptimize(r);
    }
    state.SetLabel("per sentence, 11 steps");
}

void greedy(benchmark::State& state, Sizes z, DecoderKind d, ScoreKind s) {
    auto m = makeModel(z, d, s);
    fillTables(*m);
    greedyWith(state, m, source(z.V), detail::defaultPath(*m, {}));
}

void greedyNoTables(benchmark::State& state, Sizes z, DecoderKind d, ScoreKind s) {
    auto m = makeModel(z, d, s);
    greedyWith(state, m, source(z.V), {Folding::Auto, nullptr, &ThreadPool::engine()});
}

// threads 2: the generator's product of each step shared with a second core; 1: everything on the calling thread
// (DecodeOptions::parallel_steps false), PyTorch's one thread against one.
void greedyTransformer(benchmark::State& state) {
    constexpr int V = 8000;
    auto m = makeTransformer(V);
    DecodeOptions o;
    o.parallel_steps = state.range(0) > 1;
    greedyWith(state, m, source(V), detail::defaultPath(*m, o));
}

// Filling a model's token tables in full (TokenTables::computeAll).
void tokenTables(benchmark::State& state, Sizes z, DecoderKind d, ScoreKind s) {
    auto m = makeModel(z, d, s);
    std::int64_t bytes = 0;
    for (auto _ : state) {
        TokenTables tables(*m);
        tables.computeAll(&ThreadPool::engine());
        bytes = tables.bytesKept();
    }
    state.counters["MB"] = double(bytes) / 1e6;
}

void forced(benchmark::State& state, Sizes z, DecoderKind d, ScoreKind s) {
    auto m = makeModel(z, d, s);
    const TokenizedText src = source(z.V), ref = reference(z.V);
    for (auto _ : state) {
        DecodeResult r = forcedDecode(*m, src, ref);
        benchmark::DoNotOptimize(r);
    }
    state.SetLabel("per sentence, 11 tokens");
}

// bahdanau with the context not folded (nn/decoder.h): docs/model-format.md's maths in its order, for comparison.
void greedyUnfolded(benchmark::State& state, Sizes z, DecoderKind d, ScoreKind s) {
    auto m = makeModel(z, d, s);
    greedyWith(state, m, source(z.V), {Folding::Never, nullptr, &ThreadPool::engine()});
}

// The GUI's path: a session with top-5 candidates, run to the end.
void session(benchmark::State& state, Sizes z, DecoderKind d, ScoreKind s) {
    auto m = makeModel(z, d, s);
    const TokenizedText src = source(z.V);
    fillTables(*m);
    DecodeOptions opt;
    opt.max_len = 11;
    for (auto _ : state) {
        DecodingSession sess(m, src, opt);
        sess.runToEnd();
        benchmark::DoNotOptimize(sess.steps().data());
    }
}

void beam4(benchmark::State& state, Sizes z, DecoderKind d, ScoreKind s) {
    auto m = makeModel(z, d, s);
    const TokenizedText src = source(z.V);
    fillTables(*m);
    DecodeOptions opt;
    opt.max_len = 11;
    for (auto _ : state) {
        BeamResult r = beamSearch(*m, src, 4, opt);
        benchmark::DoNotOptimize(r);
    }
}

// The floor of greedy decoding by docs/model-format.md: the 11 output-layer GEMVs alone (fc_out is most of the weights
// a step reads; at V=8000 it does not fit in L2, so this measures the memory system, not the engine), split between
// the two cores (kernels/row_split.h). bahdanau's decoder folds the context (fast/folded_decoder.h) and reads only
// part of fc_out per step, so its greedy time can fall below this.
void fcOutFloor(benchmark::State& state, Sizes z, DecoderKind d, ScoreKind s) {
    auto m = makeModel(z, d, s);
    const Mat& w = m->params.fc_out_w;
    Vec x = Vec::Random(w.cols()), y(w.rows());
    for (auto _ : state) {
        for (int t = 0; t < 11; ++t) {
            splitGemv(w, x.data(), y.data(), &ThreadPool::engine());
            x[0] = y[t];  // a dependency between steps, as in decoding
        }
        benchmark::DoNotOptimize(y.data());
    }
    state.counters["MB_per_sentence"] = 11.0 * double(w.size()) * 4 / 1e6;
}

// Streams, per sentence, `per_sentence` floats once, then `first` floats for the first step and `later` for each of
// the 10 others (a prefix of the same matrix), as products of contiguous matrices on both cores with no other
// arithmetic and no phases. Both matrices are on huge pages, like the model's weights.
void streamFloor(benchmark::State& state, std::int64_t per_sentence, std::int64_t first, std::int64_t later) {
    constexpr Eigen::Index kCols = 1024;
    auto rowsFor = [](std::int64_t floats) { return Eigen::Index((floats + kCols - 1) / kCols); };
    Mat sentence, steps;  // on huge pages, as the model's weights are (kernels/huge_pages.h)
    zeroOnHugePages(sentence, rowsFor(per_sentence), kCols);
    zeroOnHugePages(steps, rowsFor(first), kCols);
    sentence.setRandom();
    steps.setRandom();
    Vec x = Vec::Random(kCols), y(steps.rows());
    auto stream = [&](const Mat& w, Eigen::Index rows) {
        const GemvTerm all{w.data(), kCols, kCols, x.data()};
        gemvTerms({&all, 1}, rows, y.data(), &ThreadPool::engine());
        x[0] = y[0];  // a dependency between steps, as in decoding
    };
    for (auto _ : state) {
        stream(sentence, sentence.rows());
        stream(steps, steps.rows());
        for (int t = 1; t < 11; ++t) stream(steps, rowsFor(later));
        benchmark::DoNotOptimize(y.data());
    }
    state.counters["MB_per_sentence"] = double(per_sentence + first + 10 * later) * 4 / 1e6;
}

// The floor of the folded bahdanau decode (fast/folded_decoder.h) with token tables on this machine: the bytes that a
// greedy decode of the large model must read, streamed (streamFloor):
//   per sentence: the encoder's weights, enc_fc, the additive keys' block of attn.weight, W_ih's context columns;
//   step 1: fc_out's s and context columns (those are folded then) and the state's products (W_hh, the query W_s);
//   steps 2..11: fc_out's s columns, W_c Hᵀ (V, S padded) and the state's products.
// (The token tables' rows, 38 KB a step, are left out.) The working set is the decoder's (about 55 MB).
// greedy / foldedFloor in the same run is how far the decoder is from streaming its bytes at full speed.
void foldedFloor(benchmark::State& state, Sizes z, DecoderKind, ScoreKind) {
    const std::int64_t E = z.E, He = z.He, Hd = z.Hd, V = z.V;
    const std::int64_t padded_source = paddedColumns(Eigen::Index(source(z.V).ids.size()));  // W_c Hᵀ's width
    const std::int64_t per_sentence = 2 * (3 * He * E + 3 * He * He) + 2 * Hd * 2 * He + 3 * Hd * 2 * He;
    const std::int64_t state_products = 3 * Hd * Hd + Hd * Hd;
    streamFloor(state, per_sentence, V * (Hd + 2 * He) + state_products, V * Hd + V * padded_source + state_products);
}

// The same floor for a decode that does not fold (the small model: Folding::Auto keeps its fc_out, which fits in
// L2, unfolded), with token tables: per sentence the encoder's weights, enc_fc and the keys' block of attn.weight;
// every step fc_out's s and context columns, W_ih's context columns, W_hh and the query W_s.
void unfoldedFloor(benchmark::State& state, Sizes z, DecoderKind, ScoreKind) {
    const std::int64_t E = z.E, He = z.He, Hd = z.Hd, V = z.V;
    const std::int64_t per_sentence = 2 * (3 * He * E + 3 * He * He) + 2 * Hd * 2 * He;
    const std::int64_t step = V * (Hd + 2 * He) + 3 * Hd * 2 * He + 3 * Hd * Hd + Hd * Hd;
    streamFloor(state, per_sentence, step, step);
}

}  // namespace

#define ATTNVIZ_BENCH(fn, size, dec, score)                                                    \
    BENCHMARK_CAPTURE(fn, size##_##dec##_##score, k##size, DecoderKind::dec, ScoreKind::score) \
        ->Unit(benchmark::kMicrosecond)                                                        \
        ->Repetitions(5)                                                                       \
        ->ReportAggregatesOnly(true)                                                           \
        ->ComputeStatistics("min", [](const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); })

ATTNVIZ_BENCH(greedy, Small, Bahdanau, Additive);
ATTNVIZ_BENCH(greedyUnfolded, Small, Bahdanau, Additive);
ATTNVIZ_BENCH(greedy, Small, Luong, General);
ATTNVIZ_BENCH(forced, Small, Bahdanau, Additive);
ATTNVIZ_BENCH(forced, Small, Luong, General);
ATTNVIZ_BENCH(session, Small, Bahdanau, Additive);
ATTNVIZ_BENCH(beam4, Small, Bahdanau, Additive);
ATTNVIZ_BENCH(fcOutFloor, Small, Bahdanau, Additive);
ATTNVIZ_BENCH(unfoldedFloor, Small, Bahdanau, Additive);
ATTNVIZ_BENCH(greedy, Large, Bahdanau, Additive);
ATTNVIZ_BENCH(greedyNoTables, Large, Bahdanau, Additive);
ATTNVIZ_BENCH(greedyUnfolded, Large, Bahdanau, Additive);
ATTNVIZ_BENCH(greedy, Large, Luong, General);
ATTNVIZ_BENCH(forced, Large, Bahdanau, Additive);
ATTNVIZ_BENCH(forced, Large, Luong, General);
ATTNVIZ_BENCH(beam4, Large, Bahdanau, Additive);
ATTNVIZ_BENCH(fcOutFloor, Large, Bahdanau, Additive);
ATTNVIZ_BENCH(foldedFloor, Large, Bahdanau, Additive);
ATTNVIZ_BENCH(fcOutFloor, Large, Luong, General);
BENCHMARK(greedyTransformer)
    ->Name("greedy/Large_Transformer_d256_3x3")
    ->ArgName("threads")
    ->Arg(2)
    ->Arg(1)
    ->Unit(benchmark::kMicrosecond)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true);
BENCHMARK_CAPTURE(tokenTables, Large_Bahdanau_Additive, kLarge, DecoderKind::Bahdanau, ScoreKind::Additive)
    ->Unit(benchmark::kMillisecond)
    ->Iterations(3)
    ->Repetitions(3)
    ->ReportAggregatesOnly(true);

BENCHMARK_MAIN();
