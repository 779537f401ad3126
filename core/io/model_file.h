// Model files: reading, validating and writing the safetensors files of docs/model-format.md.
#pragma once
#include "io/safetensors.h"
#include "io/siblings.h"
#include "model/model.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace attnviz {

// Reads and validates a model file (model_file.cpp), or a Hugging Face Marian folder (a directory, or its
// config.json: io/marian_folder.h). Every problem is a ModelError whose message starts with
// the path: "PATH: tensor decoder.fc_out.weight has shape [10, 20]; the config needs [12, 20]".
Model loadModel(const std::string& path);
// The same from bytes in memory (the fuzzer's entry point); `name` stands for the path in messages.
Model loadModelFromBytes(const uint8_t* data, size_t size, const std::string& name);
// Writes atomically (temp file in the same folder + rename); throws ModelError naming the path on failure. The
// weights are stored as `dtype` (F32, F16 or BF16, rounded to nearest even; loading widens them back to float32).
void saveModel(const Model& model, const std::string& path, safetensors::DType dtype = safetensors::DType::F32);
// The bytes saveModel writes.
std::vector<uint8_t> serializeModel(const Model& model, safetensors::DType dtype = safetensors::DType::F32);

// What the header of a model file says, read without loading the weights (readModelHeader).
struct TensorEntry {
    std::string name;
    std::string dtype;            // "F32", "F16", "BF16" or "F64"
    std::vector<int64_t> shape;   // as written in the file
    uint64_t begin = 0, end = 0;  // byte offsets into the data buffer
};
struct ModelHeader {
    ModelConfig config;
    Vocabulary source_vocab;
    Vocabulary target_vocab;
    std::string task, description, training;
    std::map<std::string, std::string> extra_metadata;
    int maxlen = 0;                    // Transformer: rows of the stored positional table; 0 when it has none
    std::vector<TensorEntry> tensors;  // in the order of their data in the file
    uint64_t file_size = 0;
    int64_t parameterCount() const;
};
// Reads only the first 8 + N bytes and checks everything loadModel checks except the weights' values (for
// `attnviz-cli info`, the sample-model browser and sibling scans). Throws ModelError("PATH: ..."), also for a header
// longer than `max_header` (not read: a sibling scan's cap).
ModelHeader readModelHeader(const std::string& path, uint64_t max_header = safetensors::kMaxHeaderSize);

// Siblings (findSiblings, matchingSibling) are in io/siblings.h.

}  // namespace attnviz
