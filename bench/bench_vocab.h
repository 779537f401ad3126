// Synthetic vocabularies for the benchmarks: the four specials, then prefix4, prefix5, ... up to `size` entries.
#pragma once
#include "model/vocab.h"

#include <string>
#include <vector>

namespace attnviz::bench {

inline Vocabulary numberedVocab(int size, const char* prefix) {
    std::vector<std::string> t = {"<pad>", "<unk>", "<sos>", "<eos>"};
    for (int i = 4; i < size; ++i) t.push_back(prefix + std::to_string(i));
    return Vocabulary(std::move(t));
}

}  // namespace attnviz::bench
