// What the value tree of a `torch.save` state-dict pickle (io/torch_pickle) says: the tensors, in the file's order,
// each a view (offset, size, stride, in elements) of a storage named by its key. Both forms of the file write the
// same calls; only the storage's persistent id differs:
//   zip     ('storage', torch.FloatStorage, key, location, numel)
//   legacy  ('storage', torch.FloatStorage, key, location, numel, view_metadata)   view_metadata None
// Every view is checked against its storage's element count here (overflow-safe), before any tensor byte is read;
// where the storages' bytes are is the container's business (io/torch_checkpoint).
#pragma once
#include "io/safetensors.h"
#include "io/torch_pickle.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace attnviz::torch_pickle {

// At most this many dimensions per tensor (as the safetensors reader).
inline constexpr size_t kMaxDims = 8;

struct StorageRef {
    std::string key;  // the zip entry <dir>/data/<key>, or the legacy file's key
    safetensors::DType dtype = safetensors::DType::F32;
    int64_t numel = 0;  // elements in the storage
};

struct TensorEntry {
    std::string name;
    size_t storage = 0;  // index into StateDict::storages
    int64_t offset = 0;  // storage offset, in elements
    std::vector<int64_t> shape;
    std::vector<int64_t> strides;  // in elements, all >= 0
    int64_t numel = 0;             // product of shape, at most the storage's numel
};

struct StateDict {
    std::vector<TensorEntry> tensors;  // the dict's order
    std::vector<StorageRef> storages;  // the order in which tensors first name them
};

// Reads the root of a state-dict pickle: a dict (OrderedDict or plain) of string name -> tensor (a
// _rebuild_tensor_v2 / _rebuild_tensor call, or a _rebuild_parameter* call of one). Refused with ModelError
// "NAME: what", naming the tensor: another value, a name twice, a persistent id of another shape, a storage type
// other than Float, Half, BFloat16 and Double ("stored as torch.LongStorage (int64)"), one key given two types or
// sizes, negative sizes or strides, size and stride of different lengths, more than kMaxDims dimensions, and a view
// that reaches past its storage, has more elements than it, or puts two elements in one place (a zero stride, an
// overlap): the views left can be read walking the storage forwards (TorchCheckpoint::readFloat).
StateDict readStateDict(const Value& root, const std::string& name);

}  // namespace attnviz::torch_pickle
