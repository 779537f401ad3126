// libFuzzer target: any bytes run by the restricted unpickler (io/torch_pickle) must end in a value tree or a
// ModelError, and a tree read as a state dict (io/torch_state_dict) in tensors or a ModelError; anything else (a
// crash, a sanitizer report, a leak, another exception) is a bug. An accepted tensor must also keep what
// readStateDict promises: its storage exists, it has no more elements than the storage, and its furthest element
// lies inside it.
#include "base/errors.h"
#include "io/torch_pickle.h"
#include "io/torch_state_dict.h"

#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace attnviz;
    try {
        const torch_pickle::Pickle p = torch_pickle::unpickle(data, size, "fuzz-input", "data.pkl");
        if (p.end() > size) std::abort();
        const torch_pickle::StateDict sd = torch_pickle::readStateDict(p.root(), "fuzz-input");
        for (const torch_pickle::TensorEntry& t : sd.tensors) {
            if (t.storage >= sd.storages.size() || t.shape.size() != t.strides.size()) std::abort();
            const int64_t numel = sd.storages[t.storage].numel;
            if (t.numel > numel || t.offset < 0 || t.offset > numel) std::abort();
            int64_t last = t.offset;
            for (size_t d = 0; d < t.shape.size(); ++d) last += (t.shape[d] - 1) * t.strides[d];
            if (t.numel > 0 && last >= numel) std::abort();
        }
    } catch (const ModelError&) {}
    return 0;
}
