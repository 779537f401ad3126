// libFuzzer target: any bytes given to the model loader must end in a model or in a ModelError/InputError;
// anything else (a crash, a sanitizer report, another exception) is a bug. A model that loads must also save and
// load back to the same bytes.
#include "base/errors.h"
#include "io/model_file.h"
#include "model/model.h"

#include <cstdint>
#include <cstdlib>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace attnviz;
    Model m;
    try {
        m = loadModelFromBytes(data, size, "fuzz-input");
    } catch (const ModelError&) {
        return 0;
    } catch (const InputError&) {
        return 0;
    }
    // Not caught: a model that was accepted must be writable and read back unchanged.
    const std::vector<uint8_t> bytes = serializeModel(m);
    const Model again = loadModelFromBytes(bytes.data(), bytes.size(), "round-trip");
    if (!(again.config == m.config) || !(again.source_vocab == m.source_vocab) ||
        !(again.target_vocab == m.target_vocab) || again.task != m.task || again.description != m.description ||
        again.training != m.training || again.extra_metadata != m.extra_metadata || serializeModel(again) != bytes)
        std::abort();
    return 0;
}
