// libFuzzer target: any bytes, as a file, opened by TorchCheckpoint (both forms of pytorch_model.bin: the zip
// through libzip, the legacy pickles and storages) must end in a checkpoint or a ModelError; anything else is a bug.
// Every tensor of a checkpoint that opens must then read (readFloat) without error into numel floats: open() promised
// that its bytes are in the file.
#include "base/errors.h"
#include "io/torch_checkpoint.h"

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace attnviz;
    // The input as a file in memory, opened by path like any other.
    static const int fd = memfd_create("fuzz-checkpoint", 0);
    if (fd < 0 || ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != ssize_t(size)) std::abort();
    const std::string path = "/proc/self/fd/" + std::to_string(fd);
    std::optional<TorchCheckpoint> c;
    try {
        c.emplace(TorchCheckpoint::open(path));
    } catch (const ModelError& e) {
        if (std::string(e.what()).rfind(path + ": ", 0) != 0) std::abort();  // every message names the file
        return 0;
    }
    for (size_t i = 0; i < c->tensors().size(); ++i) {  // not caught: a checkpoint that opened must read
        std::vector<float> out(size_t(c->tensors()[i].numel));
        c->readFloat(i, out.data());
    }
    return 0;
}
