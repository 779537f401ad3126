// Shared by the window's benchmarks (bench_*_ui.cpp): a random model of sample-model size, deterministic sentences,
// and main() for Google Benchmark under an offscreen QApplication.
#pragma once
#include "model/model.h"

#include <benchmark/benchmark.h>
#include <QApplication>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

namespace attnviz::bench {

// bahdanau/additive, E 64, H_e 64, H_d 128, 2,000-word vocabularies: its outputs run to the length limit.
inline Model randomSampleSizeModel(uint64_t seed) {
    std::vector<std::string> src = {"<pad>", "<unk>", "<sos>", "<eos>"}, tgt = src;
    for (int i = 0; i < 2000; ++i) {
        src.push_back(std::string("w").append(std::to_string(i)));
        tgt.push_back(std::string("t").append(std::to_string(i)));
    }
    ModelConfig c;
    c.emb_dim = 64;
    c.enc_hid_dim = 64;
    c.dec_hid_dim = 128;
    std::fprintf(stderr, "model: random bahdanau/additive, E 64, H 64/128, V 2000/2000\n");
    return makeRandomModel(c, Vocabulary(src), Vocabulary(tgt), seed);
}

// `words` words of the model's source vocabulary (no <unk>), deterministic.
inline std::string benchSentence(const Model& m, int words, uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> pick(4, m.source_vocab.size() - 1);
    std::string s;
    for (int i = 0; i < words; ++i) {
        if (i) s += ' ';
        s += m.source_vocab.token(pick(rng));
    }
    return s;
}

inline int runUiBenchmarks(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}

}  // namespace attnviz::bench
