// The safetensors container (docs/model-format.md "Container"), without any knowledge of models:
//   8 bytes   little-endian u64 N, the header length
//   N bytes   UTF-8 JSON object: "__metadata__" (string -> string) and one entry per tensor
//             {"dtype": "F32", "shape": [..], "data_offsets": [begin, end]}, offsets relative to the byte buffer
//   the byte buffer, tensors row-major (C order), little-endian.
// Every error is a ModelError whose message starts with the file name it was given.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace attnviz::safetensors {

enum class DType { F32, F16, BF16, F64 };
std::string_view dtypeName(DType d);
int dtypeSize(DType d);  // bytes per element

// The Python library refuses headers above 100 MB; so do we (a vocabulary of a million tokens fits easily).
inline constexpr uint64_t kMaxHeaderSize = 100'000'000;

struct TensorInfo {
    std::string name;
    DType dtype = DType::F32;
    std::vector<int64_t> shape;
    uint64_t begin = 0;  // byte offsets into the buffer
    uint64_t end = 0;
    int64_t numel = 0;  // product of shape
};

struct Header {
    bool has_metadata = false;
    std::map<std::string, std::string> metadata;
    std::vector<TensorInfo> tensors;  // sorted by begin offset (file order of the data)
    uint64_t header_size = 0;         // N
    uint64_t buffer_size = 0;         // bytes after the header
    uint64_t dataStart() const { return 8 + header_size; }
};

// Throws ModelError("NAME: what"): the one way the model-file readers report a problem.
[[noreturn]] void fail(const std::string& name, const std::string& what);
// "[2, 3]": a shape as messages write it.
std::string shapeText(const std::vector<int64_t>& shape);

// Reads N from the first 8 bytes and checks it against the file size. `available` is how many bytes `first` holds.
uint64_t readHeaderLength(const uint8_t* first, size_t available, uint64_t file_size, const std::string& name);
// Parses and checks the whole header: JSON shape, dtypes, shapes, offsets inside the buffer, sizes, no overlaps.
Header parseHeader(std::string_view json_text, uint64_t buffer_size, const std::string& name);
// Checks that the tensors fill the buffer exactly, as the Python library requires: no gap between them, no byte
// after the last. (Separate from parseHeader so that a model's own problems, such as a missing tensor, are named
// first.)
void requireExactBuffer(const Header& h, const std::string& name);
// Parses a whole file held in memory (header checked; data not touched).
Header parseFile(const uint8_t* data, size_t size, const std::string& name);

// n values of `dtype` at `src` (little-endian, any alignment) as float32 into `out`; an F64 beyond float's range
// becomes ±Inf.
void convertToFloat(DType dtype, const uint8_t* src, int64_t n, float* out);
// The index of the first value of x[0, n) that is not finite (NaN, ±Inf), or -1.
int64_t firstNonFinite(const float* x, int64_t n);

// Converts tensor `t` to float32: `buffer` is the start of the byte buffer, `out` holds t.numel floats.
// Returns the index of the first value that is not finite (NaN, ±Inf, or an F64 outside float range), or -1.
int64_t toFloat(const TensorInfo& t, const uint8_t* buffer, float* out);

// float32 narrowed for writing (Eigen's conversions): round to nearest, ties to even, as torch's .half() and
// .bfloat16(). Beyond the type's range gives ±Inf (F16: |x| >= 65520), NaN stays NaN, F16 keeps its subnormals.
uint16_t floatToHalf(float f);
uint16_t floatToBFloat16(float f);

// A tensor to write: float32 values, stored in the file as serialize's `dtype`.
struct TensorView {
    std::string name;
    std::vector<int64_t> shape;
    const float* data;
};
// The bytes of a file: header in the Python library's layout (`__metadata__` first, compact JSON, padded with
// spaces to a multiple of 8), tensors in the order given, data_offsets contiguous, every tensor stored as `dtype`
// (F32, F16 or BF16). Throws ModelError (no file name) if a metadata string is not valid UTF-8, a name repeats,
// `dtype` is F64, or a finite value becomes infinite in `dtype` (naming the tensor and value).
std::vector<uint8_t> serialize(const std::map<std::string, std::string>& metadata,
                               const std::vector<TensorView>& tensors, DType dtype = DType::F32);

// Whole-file I/O (regular files only: io/input_file.h). All throw ModelError("PATH: ...").
std::vector<uint8_t> readFile(const std::string& path);
// Reads only the first 8 + N bytes of a file and parses the header (offsets checked against the file size). A header
// longer than `max_header` is refused before it is read ("the header is N bytes; at most M are read here").
Header readFileHeader(const std::string& path, uint64_t max_header = kMaxHeaderSize);
// N, from the first 8 bytes of a file.
uint64_t readHeaderLengthOf(const std::string& path);

// An open file whose tensors are read one at a time, in bounded chunks: a large file is never held in memory
// besides the floats it fills (a Marian folder's model.safetensors). Throws ModelError("PATH: ...").
class TensorFile {
public:
    explicit TensorFile(const std::string& path);  // reads and checks the header
    ~TensorFile();
    TensorFile(const TensorFile&) = delete;
    TensorFile& operator=(const TensorFile&) = delete;
    const Header& header() const { return header_; }
    // t.numel floats into out (t one of header().tensors); as toFloat, the index of the first non-finite value or -1.
    int64_t readFloat(const TensorInfo& t, float* out) const;

private:
    std::string path_;
    Header header_;
    int fd_ = -1;
};

}  // namespace attnviz::safetensors
