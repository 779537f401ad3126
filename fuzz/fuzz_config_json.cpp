// libFuzzer target: the model config JSON (train --config, a model file's "config" metadata). Any bytes must end in
// a ModelConfig or a ModelError; a config that was accepted must write (configToJson) and read back equal.
#include "base/errors.h"
#include "model/config.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace attnviz;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    ModelConfig c;
    try {
        c = configFromJsonText(text);
    } catch (const ModelError&) {
        return 0;
    }
    if (!(configFromJson(configToJson(c)) == c)) std::abort();
    return 0;
}
