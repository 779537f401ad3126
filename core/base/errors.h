// Errors the engine reports to its callers. Every message names the file (or input) and what is wrong.
#pragma once
#include <new>
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

// What an exception says to a user: its message, or "out of memory" for std::bad_alloc (whose what() is
// "std::bad_alloc").
inline std::string errorMessage(const std::exception& e) {
    return dynamic_cast<const std::bad_alloc*>(&e) ? "out of memory" : e.what();
}

}  // namespace attnviz
