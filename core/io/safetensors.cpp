// safetensors reader and writer. Everything in the header is checked before any tensor byte is looked at, so a
// hostile file can neither crash the reader nor make it allocate more than the file's own size.
#include "io/safetensors.h"
#include "base/errors.h"
#include "base/number_text.h"
#include "base/utf8.h"
#include "io/input_file.h"

#include <Eigen/Core>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <new>
#include <unordered_set>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace attnviz::safetensors {

// The byte buffer is little-endian; the tensor data are copied straight into float storage.
static_assert(std::endian::native == std::endian::little, "attnviz reads safetensors on little-endian hosts only");

namespace {

using json = nlohmann::json;

std::string jsonTypeName(const json& j) { return j.type_name(); }

bool parseDType(std::string_view s, DType& out) {
    if (s == "F32")
        out = DType::F32;
    else if (s == "F16")
        out = DType::F16;
    else if (s == "BF16")
        out = DType::BF16;
    else if (s == "F64")
        out = DType::F64;
    else
        return false;
    return true;
}

// A non-negative integer of the header (shape entry or offset); throws naming `what`.
uint64_t headerUInt(const json& v, const std::string& name, const std::string& what) {
    if (v.is_number_unsigned()) return v.get<uint64_t>();
    if (v.is_number_integer()) {
        const auto x = v.get<int64_t>();
        if (x >= 0) return static_cast<uint64_t>(x);
        fail(name, what + " is negative (" + std::to_string(x) + ")");
    }
    fail(name, what + " must be a non-negative integer, not " +
                   (v.is_number() ? "a fraction or a huge number" : jsonTypeName(v)));
}

TensorInfo parseTensorEntry(const std::string& key, const json& entry, uint64_t buffer_size, const std::string& name) {
    const std::string where = "tensor \"" + key + "\"";
    if (!entry.is_object())
        fail(name, where + ": entry must be an object with dtype, shape and data_offsets, not " + jsonTypeName(entry));
    TensorInfo t;
    t.name = key;

    auto dt = entry.find("dtype");
    if (dt == entry.end()) fail(name, where + ": missing \"dtype\"");
    if (!dt->is_string()) fail(name, where + ": \"dtype\" must be a string, not " + jsonTypeName(*dt));
    const std::string& dts = dt->get_ref<const std::string&>();
    if (!parseDType(dts, t.dtype))
        fail(name, where + ": unsupported dtype \"" + dts + "\" (supported: F32, F16, BF16, F64)");

    auto sh = entry.find("shape");
    if (sh == entry.end()) fail(name, where + ": missing \"shape\"");
    if (!sh->is_array()) fail(name, where + ": \"shape\" must be an array, not " + jsonTypeName(*sh));
    if (sh->size() > 8)
        fail(name, where + ": shape has " + std::to_string(sh->size()) + " dimensions (at most 8 supported)");
    int64_t numel = 1;
    bool overflow = false;
    for (const json& d : *sh) {
        const uint64_t x = headerUInt(d, name, where + ": shape entry");
        if (x > uint64_t(INT64_MAX)) {
            overflow = true;
            break;
        }
        t.shape.push_back(static_cast<int64_t>(x));
    }
    for (int64_t d : t.shape)
        if (__builtin_mul_overflow(numel, d, &numel)) overflow = true;
    int64_t bytes = 0;
    if (overflow || __builtin_mul_overflow(numel, int64_t(dtypeSize(t.dtype)), &bytes))
        fail(name, where + ": shape product overflows (shape " + sh->dump() + ")");
    t.numel = numel;

    auto off = entry.find("data_offsets");
    if (off == entry.end()) fail(name, where + ": missing \"data_offsets\"");
    if (!off->is_array() || off->size() != 2)
        fail(name, where + ": \"data_offsets\" must be an array [begin, end], not " +
                       (off->is_array() ? "an array of " + std::to_string(off->size()) : jsonTypeName(*off)));
    t.begin = headerUInt((*off)[0], name, where + ": data_offsets begin");
    t.end = headerUInt((*off)[1], name, where + ": data_offsets end");
    const std::string offs = "data_offsets [" + std::to_string(t.begin) + ", " + std::to_string(t.end) + "]";
    if (t.begin > t.end) fail(name, where + ": " + offs + " has begin > end");
    if (t.end > buffer_size)
        fail(name, where + ": " + offs + " ends past the end of the data (" + std::to_string(buffer_size) +
                       " bytes): file truncated?");
    if (t.end - t.begin != static_cast<uint64_t>(bytes))
        fail(name, where + ": " + offs + " hold " + std::to_string(t.end - t.begin) + " bytes but shape " +
                       shapeText(t.shape) + " of " + std::string(dtypeName(t.dtype)) + " needs " +
                       std::to_string(bytes));
    return t;
}

float halfToFloat(uint16_t h) {
    const uint32_t sign = uint32_t(h & 0x8000u) << 16;
    const uint32_t exp = (h >> 10) & 0x1Fu;
    const uint32_t mant = h & 0x3FFu;
    if (exp == 0) {  // zero or subnormal: mant * 2^-24, exact in float
        const float f = float(mant) * 0x1p-24f;
        return sign ? -f : f;
    }
    const uint32_t bits =
        exp == 31 ? (sign | 0x7F800000u | (mant << 13)) : (sign | ((exp + 112u) << 23) | (mant << 13));
    return std::bit_cast<float>(bits);
}

template <typename Raw, typename Conv>
void convertLoop(const uint8_t* src, float* out, int64_t n, Conv conv) {
    for (int64_t i = 0; i < n; ++i) {
        Raw r;
        std::memcpy(&r, src + i * int64_t(sizeof(Raw)), sizeof(Raw));
        out[i] = conv(r);
    }
}

// The header's shape, checked in one SAX pass before it is parsed into a tree: nesting at most kMaxHeaderDepth deep
// (a safetensors header is 3) and no top-level key twice (the tree would keep the last one silently). Linear in the
// header: nlohmann's callback parser, used before, scanned the whole root object again after each tensor entry (its
// search for discarded values), which made a header of 50,000 entries take 24 s.
class HeaderShape : public nlohmann::json_sax<json> {
public:
    explicit HeaderShape(const std::string& name) : name_(name) {}
    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool string(string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    bool start_object(std::size_t) override { return deeper(); }
    bool end_object() override { return shallower(); }
    bool start_array(std::size_t) override { return deeper(); }
    bool end_array() override { return shallower(); }
    bool key(string_t& k) override {
        if (depth_ == 1 && !keys_.insert(k).second) fail(name_, "header has the key \"" + k + "\" twice");
        return true;
    }
    bool parse_error(std::size_t, const std::string&, const nlohmann::json::exception& e) override {
        fail(name_, std::string("header is not valid JSON (") + e.what() + ")");
    }

private:
    static constexpr int kMaxHeaderDepth = 16;
    bool deeper() {
        if (++depth_ > kMaxHeaderDepth) fail(name_, "header JSON is nested too deeply");
        return true;
    }
    bool shallower() {
        --depth_;
        return true;
    }
    const std::string& name_;
    int depth_ = 0;
    std::unordered_set<std::string> keys_;
};

json parseHeaderJson(std::string_view text, const std::string& name) {
    HeaderShape shape(name);
    json::sax_parse(text.begin(), text.end(), &shape);
    try {
        return json::parse(text.begin(), text.end());
    } catch (const json::exception& e) {  // not reached: the SAX pass refused what the parser refuses
        fail(name, std::string("header is not valid JSON (") + e.what() + ")");
    }
}

}  // namespace

void fail(const std::string& name, const std::string& what) { throw ModelError(name + ": " + what); }

std::string shapeText(const std::vector<int64_t>& shape) {
    std::string s = "[";
    for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "]";
}

std::string_view dtypeName(DType d) {
    switch (d) {
    case DType::F32:
        return "F32";
    case DType::F16:
        return "F16";
    case DType::BF16:
        return "BF16";
    case DType::F64:
        return "F64";
    }
    return "?";
}

int dtypeSize(DType d) {
    switch (d) {
    case DType::F32:
        return 4;
    case DType::F16:
        return 2;
    case DType::BF16:
        return 2;
    case DType::F64:
        return 8;
    }
    return 0;
}

uint64_t readHeaderLength(const uint8_t* first, size_t available, uint64_t file_size, const std::string& name) {
    if (file_size < 8 || available < 8)
        fail(name, "file truncated: " + std::to_string(file_size) +
                       " bytes, but a safetensors file starts with an 8-byte header length");
    uint64_t n = 0;
    for (int i = 7; i >= 0; --i) n = (n << 8) | first[i];
    if (n > kMaxHeaderSize)
        fail(name, "header length " + std::to_string(n) + " is absurd (more than " + std::to_string(kMaxHeaderSize) +
                       " bytes): not a safetensors file?");
    if (n > file_size - 8)
        fail(name, "file truncated: header length " + std::to_string(n) + " runs past the end of the file (" +
                       std::to_string(file_size) + " bytes)");
    if (n < 2) fail(name, "header length " + std::to_string(n) + " is too small for a JSON object");
    return n;
}

Header parseHeader(std::string_view text, uint64_t buffer_size, const std::string& name) {
    if (!isValidUtf8(text)) fail(name, "header is not valid UTF-8");
    const json root = parseHeaderJson(text, name);
    if (!root.is_object()) fail(name, "header is not a JSON object (found " + jsonTypeName(root) + ")");

    Header h;
    h.header_size = text.size();
    h.buffer_size = buffer_size;
    for (const auto& [key, value] : root.items()) {
        if (key == "__metadata__") {
            if (!value.is_object()) fail(name, "__metadata__ must be an object of strings, not " + jsonTypeName(value));
            h.has_metadata = true;
            for (const auto& [mk, mv] : value.items()) {
                if (!mv.is_string())
                    fail(name, "__metadata__ value of \"" + mk + "\" must be a string, not " + jsonTypeName(mv));
                h.metadata.emplace(mk, mv.get<std::string>());
            }
            continue;
        }
        h.tensors.push_back(parseTensorEntry(key, value, buffer_size, name));
    }

    std::sort(h.tensors.begin(), h.tensors.end(), [](const TensorInfo& a, const TensorInfo& b) {
        return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
    });
    const TensorInfo* prev = nullptr;  // the non-empty tensor reaching furthest so far
    for (const TensorInfo& t : h.tensors) {
        if (t.begin == t.end) continue;
        if (prev && t.begin < prev->end)
            fail(name, "tensors \"" + prev->name + "\" [" + std::to_string(prev->begin) + ", " +
                           std::to_string(prev->end) + ") and \"" + t.name + "\" [" + std::to_string(t.begin) + ", " +
                           std::to_string(t.end) + ") overlap");
        if (!prev || t.end > prev->end) prev = &t;
    }
    return h;
}

void requireExactBuffer(const Header& h, const std::string& name) {
    uint64_t expected = 0;  // where the next tensor must begin (parseHeader refused overlaps already)
    for (const TensorInfo& t : h.tensors) {
        if (t.begin == t.end) continue;  // empty tensors take no room
        if (t.begin > expected)
            fail(name, "a gap of " + std::to_string(t.begin - expected) + " bytes before tensor \"" + t.name +
                           "\" (data_offsets must follow each other without gaps)");
        expected = std::max(expected, t.end);
    }
    if (expected != h.buffer_size)
        fail(name, std::to_string(h.buffer_size - expected) + " bytes after the last tensor's data (the file is " +
                       std::to_string(h.dataStart() + h.buffer_size) + " bytes; its tensors end at byte " +
                       std::to_string(h.dataStart() + expected) + "): trailing data or a damaged file");
}

Header parseFile(const uint8_t* data, size_t size, const std::string& name) {
    const uint64_t n = readHeaderLength(data, size, size, name);
    return parseHeader(std::string_view(reinterpret_cast<const char*>(data) + 8, n), size - 8 - n, name);
}

void convertToFloat(DType dtype, const uint8_t* src, int64_t n, float* out) {
    switch (dtype) {
    case DType::F32:
        if (n > 0) std::memcpy(out, src, size_t(n) * 4);
        break;
    case DType::F16:
        convertLoop<uint16_t>(src, out, n, halfToFloat);
        break;
    case DType::BF16:
        convertLoop<uint16_t>(src, out, n, [](uint16_t b) { return std::bit_cast<float>(uint32_t(b) << 16); });
        break;
    case DType::F64:
        convertLoop<double>(src, out, n, [](double d) {
            // a double outside float range must not be cast (undefined behaviour); it becomes Inf
            if (std::isnan(d)) return NAN;
            if (!(std::fabs(d) <= double(FLT_MAX))) return d > 0 ? INFINITY : -INFINITY;
            return static_cast<float>(d);
        });
        break;
    }
}

int64_t firstNonFinite(const float* x, int64_t n) {
    // Exponent bits all ones = Inf or NaN; a branch-free scan the compiler vectorises, then locate.
    auto bad = [](float f) { return (std::bit_cast<uint32_t>(f) & 0x7F800000u) == 0x7F800000u; };
    uint32_t any = 0;
    for (int64_t i = 0; i < n; ++i) any |= uint32_t(bad(x[i]));
    if (!any) return -1;
    for (int64_t i = 0; i < n; ++i)
        if (bad(x[i])) return i;
    return -1;
}

int64_t toFloat(const TensorInfo& t, const uint8_t* buffer, float* out) {
    convertToFloat(t.dtype, buffer + t.begin, t.numel, out);
    return firstNonFinite(out, t.numel);
}

uint16_t floatToHalf(float f) { return Eigen::numext::bit_cast<uint16_t>(Eigen::half(f)); }

uint16_t floatToBFloat16(float f) { return Eigen::numext::bit_cast<uint16_t>(Eigen::bfloat16(f)); }

namespace {

// Writes t's values as `dtype` at dst; a finite value that the narrowing makes infinite is an error.
void writeValues(const TensorView& t, int64_t numel, DType dtype, uint8_t* dst) {
    if (dtype == DType::F32) {
        if (numel > 0) std::memcpy(dst, t.data, size_t(numel) * 4);
        return;
    }
    const bool half = dtype == DType::F16;
    for (int64_t i = 0; i < numel; ++i) {
        const float x = t.data[i];
        const uint16_t v = half ? floatToHalf(x) : floatToBFloat16(x);
        if ((v & 0x7FFFu) == (half ? 0x7C00u : 0x7F80u) && std::isfinite(x)) {
            throw ModelError("tensor \"" + t.name + "\" holds " + numberText(x) + " at index " + std::to_string(i) +
                             ", beyond the range of " + std::string(dtypeName(dtype)));
        }
        std::memcpy(dst + 2 * i, &v, 2);
    }
}

}  // namespace

std::vector<uint8_t> serialize(const std::map<std::string, std::string>& metadata,
                               const std::vector<TensorView>& tensors, DType dtype) {
    if (dtype == DType::F64) throw ModelError("writing F64 tensors is not supported (F32, F16 or BF16)");
    const int width = dtypeSize(dtype);
    nlohmann::ordered_json head = nlohmann::ordered_json::object();
    if (!metadata.empty()) {
        nlohmann::ordered_json meta = nlohmann::ordered_json::object();
        for (const auto& [k, v] : metadata) {
            if (!isValidUtf8(k) || !isValidUtf8(v)) throw ModelError("metadata \"" + k + "\" is not valid UTF-8");
            meta[k] = v;
        }
        head["__metadata__"] = std::move(meta);
    }
    uint64_t offset = 0;
    for (const TensorView& t : tensors) {
        if (t.name == "__metadata__" || head.contains(t.name))
            throw ModelError("tensor name \"" + t.name + "\" is used twice");
        if (!isValidUtf8(t.name)) throw ModelError("tensor name \"" + t.name + "\" is not valid UTF-8");
        int64_t numel = 1;
        for (int64_t d : t.shape) numel *= d;
        const uint64_t bytes = uint64_t(numel) * uint64_t(width);
        head[t.name] = {
            {"dtype", std::string(dtypeName(dtype))}, {"shape", t.shape}, {"data_offsets", {offset, offset + bytes}}};
        offset += bytes;
    }
    std::string text = head.dump();
    text.append((8 - text.size() % 8) % 8, ' ');  // the Python library pads so that the data start 8-aligned

    std::vector<uint8_t> out(8 + text.size() + offset);
    const uint64_t n = text.size();
    for (int i = 0; i < 8; ++i) out[size_t(i)] = uint8_t(n >> (8 * i));
    std::memcpy(out.data() + 8, text.data(), text.size());
    uint8_t* dst = out.data() + 8 + text.size();
    for (const TensorView& t : tensors) {
        int64_t numel = 1;
        for (int64_t d : t.shape) numel *= d;
        writeValues(t, numel, dtype, dst);
        dst += numel * width;
    }
    return out;
}

}  // namespace attnviz::safetensors
