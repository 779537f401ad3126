// What the restricted unpickler (io/torch_pickle) lets a pickle do, in one place: the globals it may name, the
// argument lists of the ones it may "call" (REDUCE makes a node; nothing is called), and the names of all pickle
// opcodes, so that a refused one is named in the message.
//   collections.OrderedDict                          no arguments (an empty ordered dict)
//   torch._utils._rebuild_tensor_v2                  (storage, storage_offset, size, stride, requires_grad,
//                                                     backward_hooks[, metadata])
//   torch._utils._rebuild_tensor                     (storage, storage_offset, size, stride)   (old files)
//   torch._utils._rebuild_parameter                  (data, requires_grad, backward_hooks)
//   torch._utils._rebuild_parameter_with_state       (data, requires_grad, backward_hooks, state)
//   torch.FloatStorage, HalfStorage, ... (16 types)  named in persistent ids, never called
#pragma once
#include "io/safetensors.h"
#include "io/torch_pickle.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace attnviz::torch_pickle {

inline constexpr std::string_view kOrderedDict = "collections.OrderedDict";

// A torch storage type: its global, torch's name of its element type, and whether attnviz reads it (as `dtype`).
struct StorageType {
    std::string_view global;
    const char* element;
    bool read;
    safetensors::DType dtype;
};
// The storage type named `global` ("torch.FloatStorage"), or null.
const StorageType* storageType(std::string_view global);

// "STACK_GLOBAL (0x93)", or "byte 0xff, not a pickle opcode".
std::string opcodeText(uint8_t op);
// Whether a pickle may name `module.name` with GLOBAL.
bool isAllowedGlobal(std::string_view global);
// Why calling the allowed global `callee` with the tuple `args` is refused (count or types), or "" when it is not.
// collections.OrderedDict is the machine's own business (it makes a dict).
std::string callProblem(const Value& args, const std::string& callee);

}  // namespace attnviz::torch_pickle
