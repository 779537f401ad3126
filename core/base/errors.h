// Errors the engine reports to its callers. Every message names the file (or input) and what is wrong.
#pragma once
#include <stdexcept>
#include <string>

namespace attnviz {

// A model file (or model config / vocabulary) that cannot be used.
struct ModelError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Bad input data: a sentence, a corpus line, a flag value.
struct InputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

}  // namespace attnviz
