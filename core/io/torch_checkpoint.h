// A PyTorch `torch.save` state dict (`pytorch_model.bin`) in either form, with no knowledge of models
// (docs/robustness.md "PyTorch .bin files"):
//   zip     (PyTorch >= 1.6) `<dir>/data.pkl` + one stored entry `<dir>/data/<key>` per storage (io/torch_zip)
//   legacy  five pickles, one after the other: the magic number 0x1950a86a20f9469cfc6c, the protocol version 1001,
//           the system info (little_endian must be true), the state dict, the list of storage keys; then each
//           storage in that order as an 8-byte little-endian element count and its bytes
// The pickles are run by the restricted unpickler (io/torch_pickle); every tensor is a view (offset, shape, strides)
// of a storage, checked against the storage's size, and every storage against the bytes of the file, all in open().
// readFloat then streams a tensor's bytes from the file into the caller's floats: no storage is held in memory,
// and tensors that share a storage (tied weights) are read from the same bytes.
#pragma once
#include "io/safetensors.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace attnviz {

struct StoredTensor {
    std::string name;
    safetensors::DType dtype = safetensors::DType::F32;
    std::vector<int64_t> shape;
    std::vector<int64_t> strides;  // in elements (row-major contiguous: the products of the later sizes)
    int64_t offset = 0;            // the storage offset, in elements
    int64_t numel = 0;             // product of shape
    size_t storage = 0;            // index into TorchCheckpoint::storages()
};

struct StoredStorage {
    std::string key;
    safetensors::DType dtype = safetensors::DType::F32;
    int64_t numel = 0;
    uint64_t file_offset = 0;  // where element 0 is in the file
};

class TorchCheckpoint {
public:
    enum class Form { Zip, Legacy };

    // Parses and checks the whole file (no tensor byte is read). ModelError "PATH: what" naming what is wrong.
    static TorchCheckpoint open(const std::string& path);

    const std::string& path() const { return path_; }
    Form form() const { return form_; }
    const std::vector<StoredTensor>& tensors() const { return tensors_; }  // the state dict's order
    const std::vector<StoredStorage>& storages() const { return storages_; }

    // Tensor i as float32 into out (its numel floats, row-major), converting F16, BF16 and F64; honours offset and
    // strides. Returns the index of the first value that is not finite, or -1 (as safetensors::toFloat). The bytes
    // are read from the file in pieces of at most kChunkBytes. ModelError if the file cannot be read (or shrank).
    int64_t readFloat(size_t i, float* out) const;

    static constexpr size_t kChunkBytes = size_t(1) << 20;

    TorchCheckpoint(TorchCheckpoint&&) noexcept;
    TorchCheckpoint& operator=(TorchCheckpoint&&) noexcept;
    ~TorchCheckpoint();

private:
    TorchCheckpoint() = default;
    struct File;
    void readRaw(uint64_t offset, uint8_t* dst, size_t n) const;
    void readContiguous(const StoredTensor& t, const StoredStorage& s, float* out) const;
    void readStrided(const StoredTensor& t, const StoredStorage& s, float* out) const;

    std::string path_;
    Form form_ = Form::Zip;
    std::vector<StoredTensor> tensors_;
    std::vector<StoredStorage> storages_;
    std::unique_ptr<File> file_;  // the open file, read with pread
};

}  // namespace attnviz
