// A model file as bytes, for tests that lay files out by hand or damage them: the 8-byte header length, the header
// JSON and the tensors' buffer, taken apart and put back together.
#pragma once
#include <QString>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace attnviz::testing {

using Bytes = std::vector<uint8_t>;
using ojson = nlohmann::ordered_json;  // keeps the header's key order

// The little-endian u64 at the start of a safetensors file: the header's length in bytes.
uint64_t headerLength(const Bytes& file);

// A file split into header JSON and byte buffer, for hand edits.
struct Parts {
    ojson header;
    Bytes buffer;
};
Parts split(const Bytes& file);
// The length, `header_text` as it is, then `buffer`.
Bytes rawFile(const std::string& header_text, const Bytes& buffer);
Bytes join(const Parts& parts);

void writeBytes(const QString& path, const Bytes& bytes);

}  // namespace attnviz::testing
