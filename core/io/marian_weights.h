// A Marian folder's weights (docs/marian.md "Weights") read into the engine's Transformer parameters: the tensor
// names save_pretrained writes mapped onto TransformerParams (q_proj / k_proj / v_proj into in_proj's row blocks,
// the tied tables stored once), from model.safetensors or pytorch_model.bin, one tensor at a time so that the
// weights are never held twice.
#pragma once
#include "model/transformer_params.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace attnviz {

// The tensors of a weights file as the reader lists them, and a read of one into float32.
class StoredWeights {
public:
    struct Entry {
        std::string name;
        std::vector<int64_t> shape;
        std::string dtype;  // "F32", "F16", "BF16", "F64"
    };
    virtual ~StoredWeights() = default;
    virtual const std::vector<Entry>& entries() const = 0;
    // entries()[i] into out (its element count); the index of the first non-finite value, or -1.
    virtual int64_t readFloat(size_t i, float* out) const = 0;
};
// Throws ModelError("PATH: ...").
std::unique_ptr<StoredWeights> openSafetensorsWeights(const std::string& path);
std::unique_ptr<StoredWeights> openTorchWeights(const std::string& path);

// The tensors save_pretrained writes for params of this config, in its names and shapes: a tied table once (its
// first name: model.shared.weight when shared), q/k/v as row blocks of in_proj, final_logits_bias (1, V_t), and the
// embed_positions tables when p stores them. The views point into p. For writing a folder, and for tests that make
// folders.
struct MarianTensor {
    std::string name;
    std::vector<int64_t> shape;
    const float* data;
};
std::vector<MarianTensor> marianTensors(const TransformerConfig& c, const TransformerParams& p);

// Sizes p for the shape (V = source_vocab, V_t = target_vocab, maxlen 0 unless the file stores positions: the
// encoder's table, and the decoder's apart when it differs) and fills it from `w`. Throws ModelError("FILE: ...")
// naming the tensor: a wrong shape, a missing tensor nothing stands for, an unknown name, a non-finite value.
void readMarianWeights(const StoredWeights& w, const std::string& file, const TransformerConfig& c, int source_vocab,
                       int target_vocab, TransformerParams& p);

}  // namespace attnviz
