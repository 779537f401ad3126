// What the training tests share (tests/engine/test_training*.cpp, tests/cli/test_cli_train.cpp): the reverse task
// (a corpus whose target is the source reversed, and a model sized to learn it) and a comparison of parameters.
#pragma once
#include "model/model.h"

#include <QString>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace attnviz {
struct TrainExample;
}

namespace attnviz::testing {

// Writes n lines of symbol sequences of length 3..6 over a..j, tab, the sequence reversed. `aligned` adds the gold
// alignment column (target word j ↔ source word len−1−j).
void writeReverseTask(const QString& path, int n, uint64_t seed, bool aligned = false);
// The same kind of lines in memory: (source, target) pairs.
std::vector<std::pair<std::string, std::string>> reversePairs(int n, uint64_t seed);
// A bahdanau additive model (E 16, H_e 24, H_d 48) over the ten symbols a..j, randomly initialised from `seed`.
Model reverseModel(uint64_t seed);

// A Transformer (d_model 16, 2 heads, 1 + 1 layers, dim_feedforward 32, post-LN relu) over the same symbols, with
// the tutorial's initialisation from `seed`; maxlen > 0 stores a positional table of that many rows.
Model reverseTransformerModel(uint64_t seed, int maxlen = 0);

// The largest |a − b| over every tensor; `scale` (optional) gets the largest |b|.
double maxAbsDiff(const ModelParams& a, const ModelParams& b, double* scale = nullptr);

// The addresses of `examples`, as the engine's batches take them.
std::vector<const TrainExample*> pointers(const std::vector<TrainExample>& examples);

}  // namespace attnviz::testing
