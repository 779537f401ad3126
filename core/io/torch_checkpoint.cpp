// torch.save files in both forms (torch_checkpoint.h): the container is found, the pickles run, every storage bound
// to its bytes in the file, and tensors streamed from there on request.
#include "io/torch_checkpoint.h"
#include "base/errors.h"
#include "base/utf8.h"
#include "io/input_file.h"
#include "io/torch_pickle.h"
#include "io/torch_state_dict.h"
#include "io/torch_zip.h"

#include <algorithm>
#include <cerrno>
#include <cstring>

#include <unistd.h>

namespace attnviz {

using safetensors::dtypeSize;
using safetensors::fail;
using torch_pickle::Kind;
using torch_pickle::StateDict;

struct TorchCheckpoint::File {
    int fd = -1;
    uint64_t size = 0;
    ~File() {
        if (fd >= 0) ::close(fd);
    }
};

TorchCheckpoint::TorchCheckpoint(TorchCheckpoint&&) noexcept = default;
TorchCheckpoint& TorchCheckpoint::operator=(TorchCheckpoint&&) noexcept = default;
TorchCheckpoint::~TorchCheckpoint() = default;

namespace {

// The legacy form's first pickle: LONG1 of these 10 bytes (little-endian 0x1950a86a20f9469cfc6c).
constexpr uint8_t kLegacyMagic[10] = {0x6c, 0xfc, 0x9c, 0x46, 0xf9, 0x20, 0x6a, 0xa8, 0x50, 0x19};
constexpr int64_t kLegacyProtocol = 1001;

// Bytes of `numel` elements of `dtype`, or -1 when that overflows.
int64_t storageBytes(int64_t numel, safetensors::DType dtype) {
    int64_t bytes = 0;
    return __builtin_mul_overflow(numel, int64_t(dtypeSize(dtype)), &bytes) ? -1 : bytes;
}

// For messages: "the storage of tensor \"x\"", naming the first tensor that uses each storage.
std::vector<std::string> storageUsers(const StateDict& sd) {
    std::vector<std::string> users(sd.storages.size());
    for (const auto& t : sd.tensors)
        if (users[t.storage].empty()) users[t.storage] = "the storage of tensor \"" + printable(t.name) + "\"";
    return users;
}

bool isRowMajor(const StoredTensor& t) {
    int64_t expected = 1;
    for (size_t d = t.shape.size(); d-- > 0;) {
        if (t.shape[d] != 1 && t.strides[d] != expected) return false;
        expected *= t.shape[d];
    }
    return true;
}

// A state dict and where each of its storages starts in the file.
struct Bound {
    StateDict sd;
    std::vector<uint64_t> offsets;
};

Bound bindZip(const std::string& path, int fd, uint64_t size) {
    torch_pickle::TorchZip zip(fd, size, path);
    torch_pickle::ZipSpan pickle_span;
    const std::vector<uint8_t> bytes = zip.readPickle(pickle_span);
    const torch_pickle::Pickle p =
        torch_pickle::unpickle(bytes.data(), bytes.size(), path, printable(zip.pickleEntry()));
    Bound b{torch_pickle::readStateDict(p.root(), path), {}};
    std::vector<torch_pickle::ZipSpan> spans = {pickle_span};
    const std::vector<std::string> users = storageUsers(b.sd);
    for (size_t i = 0; i < b.sd.storages.size(); ++i) {
        const auto& s = b.sd.storages[i];
        const torch_pickle::ZipSpan span = zip.locateStorage(s.key, users[i]);
        const int64_t need = storageBytes(s.numel, s.dtype);
        if (need < 0 || uint64_t(need) != span.size)
            fail(path, "the entry \"" + printable(span.entry) + "\" (" + users[i] + ") holds " +
                           std::to_string(span.size) + " bytes, but its " + std::to_string(s.numel) + " " +
                           std::string(safetensors::dtypeName(s.dtype)) + " elements need " +
                           (need < 0 ? "more than 2^63" : std::to_string(need)));
        spans.push_back(span);
        b.offsets.push_back(span.offset);
    }
    zip.requireDisjoint(spans);
    return b;
}

torch_pickle::ReadAt preadAt(int fd) {
    return [fd](uint64_t offset, uint8_t* dst, size_t n) -> size_t {
        size_t got = 0;
        while (got < n) {
            const ssize_t r = ::pread(fd, dst + got, n - got, off_t(offset + got));
            if (r < 0 && errno == EINTR) continue;
            if (r <= 0) break;  // the unpickler reports the input as cut off
            got += size_t(r);
        }
        return got;
    };
}

// The legacy form's header pickles: magic number, protocol, system info.
void checkLegacyHeader(const torch_pickle::Value& magic, const torch_pickle::Value& protocol,
                       const torch_pickle::Value& info, const std::string& path) {
    if (magic.kind != Kind::BigInt ||
        magic.text != std::string(reinterpret_cast<const char*>(kLegacyMagic), sizeof kLegacyMagic))
        fail(path,
             "the first pickle is not torch.save's magic number 0x1950a86a20f9469cfc6c: not a PyTorch checkpoint");
    if (protocol.kind != Kind::Int || protocol.integer != kLegacyProtocol)
        fail(path, "the second pickle is not torch.save's legacy protocol version 1001");
    if (info.kind != Kind::Dict) fail(path, "the third pickle (system info) is not a dict");
    for (size_t i = 0; i + 1 < info.items.size(); i += 2)
        if (info.items[i]->kind == Kind::String && info.items[i]->text == "little_endian" &&
            info.items[i + 1]->kind == Kind::Bool && info.items[i + 1]->integer == 0)
            fail(path, "the file was written on a big-endian machine; only little-endian files are read");
}

// After the pickles: each storage named by the keys pickle, as an 8-byte element count and its bytes.
std::vector<uint64_t> legacyOffsets(const StateDict& sd, const torch_pickle::Value& keys, uint64_t at, uint64_t size,
                                    int fd, const std::string& path) {
    if (keys.kind != Kind::List) fail(path, "the fifth pickle (the storage keys) is not a list");
    const std::vector<std::string> users = storageUsers(sd);
    std::vector<uint64_t> offsets(sd.storages.size(), UINT64_MAX);
    for (const torch_pickle::Value* k : keys.items) {
        if (k->kind != Kind::String) fail(path, "the list of storage keys holds a " + std::string(kindName(k->kind)));
        const auto it =
            std::find_if(sd.storages.begin(), sd.storages.end(), [&](const auto& s) { return s.key == k->text; });
        if (it == sd.storages.end())
            fail(path, "the storage \"" + printable(k->text) + "\" is in the file but no tensor uses it");
        const size_t i = size_t(it - sd.storages.begin());
        if (offsets[i] != UINT64_MAX) fail(path, "the storage \"" + printable(k->text) + "\" is listed twice");
        uint8_t count_bytes[8];
        if (size - at < 8 || preadAt(fd)(at, count_bytes, 8) != 8)
            fail(path, "the file is cut off at byte " + std::to_string(size) + ", before " + users[i]);
        uint64_t count = 0;
        for (int b = 7; b >= 0; --b) count = (count << 8) | count_bytes[b];
        if (count != uint64_t(it->numel))
            fail(path, users[i] + " holds " + std::to_string(count) + " elements in the file but " +
                           std::to_string(it->numel) + " in the state dict");
        const int64_t bytes = storageBytes(it->numel, it->dtype);
        if (bytes < 0 || uint64_t(bytes) > size - at - 8)
            fail(path, "the file is cut off: " + users[i] + " needs " +
                           (bytes < 0 ? "more than 2^63" : std::to_string(bytes)) + " bytes at byte " +
                           std::to_string(at + 8) + ", but the file has " + std::to_string(size - at - 8) + " left");
        offsets[i] = at + 8;
        at += 8 + uint64_t(bytes);
    }
    for (size_t i = 0; i < offsets.size(); ++i)
        if (offsets[i] == UINT64_MAX)
            fail(path, users[i] + " (key \"" + printable(sd.storages[i].key) + "\") is not in the file");
    if (at != size)
        fail(path, std::to_string(size - at) + " bytes after the last storage (the file is " + std::to_string(size) +
                       " bytes; its storages end at byte " + std::to_string(at) + "): trailing data or a damaged file");
    return offsets;
}

Bound bindLegacy(const std::string& path, int fd, uint64_t size) {
    const torch_pickle::ReadAt read = preadAt(fd);
    uint64_t at = 0;
    auto next = [&](const char* where) {
        torch_pickle::Pickle p = torch_pickle::unpickle(read, at, size, path, where);
        at = p.end();
        return p;
    };
    const torch_pickle::Pickle magic = next("the magic-number pickle");
    const torch_pickle::Pickle protocol = next("the protocol pickle");
    const torch_pickle::Pickle info = next("the system-info pickle");
    checkLegacyHeader(magic.root(), protocol.root(), info.root(), path);
    Bound b;
    {
        const torch_pickle::Pickle state = next("the state-dict pickle");
        b.sd = torch_pickle::readStateDict(state.root(), path);
    }
    const torch_pickle::Pickle keys = next("the storage-keys pickle");
    b.offsets = legacyOffsets(b.sd, keys.root(), at, size, fd, path);
    return b;
}

}  // namespace

TorchCheckpoint TorchCheckpoint::open(const std::string& path) {
    uint64_t size = 0;
    std::string problem;
    const int fd = openRegularFile(path, &size, &problem);
    if (fd < 0) fail(path, problem);
    TorchCheckpoint c;
    c.path_ = path;
    c.file_ = std::make_unique<File>();
    c.file_->fd = fd;
    c.file_->size = size;
    uint8_t head[4] = {};
    const size_t got = preadAt(fd)(0, head, 4);
    Bound b;
    if (got == 4 && head[0] == 'P' && head[1] == 'K' &&
        ((head[2] == 3 && head[3] == 4) || (head[2] == 5 && head[3] == 6))) {
        c.form_ = Form::Zip;
        b = bindZip(path, fd, size);
    } else if (got >= 2 && head[0] == 0x80 && head[1] == 0x02) {
        c.form_ = Form::Legacy;
        b = bindLegacy(path, fd, size);
    } else {
        fail(path, size == 0 ? std::string("the file is empty")
                             : "neither a zip archive (PyTorch >= 1.6) nor a legacy torch.save file (a pickle of "
                               "protocol 2): not a PyTorch checkpoint");
    }
    for (size_t i = 0; i < b.sd.storages.size(); ++i) {
        const auto& s = b.sd.storages[i];
        c.storages_.push_back({s.key, s.dtype, s.numel, b.offsets[i]});
    }
    for (const auto& t : b.sd.tensors)
        c.tensors_.push_back(
            {t.name, b.sd.storages[t.storage].dtype, t.shape, t.strides, t.offset, t.numel, t.storage});
    return c;
}

void TorchCheckpoint::readRaw(uint64_t offset, uint8_t* dst, size_t n) const {
    size_t got = 0;
    while (got < n) {
        const ssize_t r = ::pread(file_->fd, dst + got, n - got, off_t(offset + got));
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) fail(path_, std::string("cannot read: ") + std::strerror(errno));
        if (r == 0)
            fail(path_, "the file ends at byte " + std::to_string(offset + got) +
                            " while a tensor is read (it changed since it was opened?)");
        got += size_t(r);
    }
}

void TorchCheckpoint::readContiguous(const StoredTensor& t, const StoredStorage& s, float* out) const {
    const int width = dtypeSize(s.dtype);
    const uint64_t first = s.file_offset + uint64_t(t.offset) * uint64_t(width);
    if (s.dtype == safetensors::DType::F32) {  // straight into the caller's floats
        readRaw(first, reinterpret_cast<uint8_t*>(out), size_t(t.numel) * 4);
        return;
    }
    const int64_t per_chunk = int64_t(kChunkBytes) / width;
    std::vector<uint8_t> chunk(size_t(std::min(t.numel, per_chunk)) * size_t(width));
    for (int64_t done = 0; done < t.numel;) {
        const int64_t n = std::min(per_chunk, t.numel - done);
        readRaw(first + uint64_t(done) * uint64_t(width), chunk.data(), size_t(n) * size_t(width));
        safetensors::convertToFloat(s.dtype, chunk.data(), n, out + done);
        done += n;
    }
}

// A view that is not row-major (a transpose, a slice): its dimensions are walked in the order of their strides,
// largest first, so that the storage index only grows (torch_state_dict refused views where it would not), and the
// storage is read through a window that moves forwards: each byte of the storage is read at most once.
void TorchCheckpoint::readStrided(const StoredTensor& t, const StoredStorage& s, float* out) const {
    struct Dim {
        int64_t size, stride, out_stride;
    };
    std::vector<Dim> dims;
    int64_t out_stride = 1;
    for (size_t d = t.shape.size(); d-- > 0;) {
        if (t.shape[d] > 1) dims.push_back({t.shape[d], t.strides[d], out_stride});
        out_stride *= t.shape[d];
    }
    std::stable_sort(dims.begin(), dims.end(), [](const Dim& a, const Dim& b) { return a.stride > b.stride; });
    const int width = dtypeSize(s.dtype);
    const int64_t window_elems = std::min<int64_t>(int64_t(kChunkBytes) / width, s.numel);
    std::vector<uint8_t> window(size_t(window_elems) * size_t(width));
    int64_t w_begin = 0, w_end = 0;  // the storage elements the window holds
    std::vector<int64_t> idx(dims.size(), 0);
    for (int64_t n = 0; n < t.numel; ++n) {
        int64_t e = t.offset, o = 0;
        for (size_t k = 0; k < dims.size(); ++k) {
            e += idx[k] * dims[k].stride;
            o += idx[k] * dims[k].out_stride;
        }
        if (e < w_begin || e >= w_end) {
            w_begin = e;
            w_end = std::min(s.numel, e + window_elems);
            readRaw(s.file_offset + uint64_t(e) * uint64_t(width), window.data(),
                    size_t(w_end - w_begin) * size_t(width));
        }
        safetensors::convertToFloat(s.dtype, window.data() + (e - w_begin) * width, 1, out + o);
        for (size_t k = dims.size(); k-- > 0;) {  // the odometer, last dimension fastest
            if (++idx[k] < dims[k].size) break;
            idx[k] = 0;
        }
    }
}

int64_t TorchCheckpoint::readFloat(size_t i, float* out) const {
    if (i >= tensors_.size()) throw std::out_of_range("TorchCheckpoint::readFloat: no tensor " + std::to_string(i));
    const StoredTensor& t = tensors_[i];
    const StoredStorage& s = storages_[t.storage];
    if (t.numel == 0) return -1;
    if (isRowMajor(t))
        readContiguous(t, s, out);
    else
        readStrided(t, s, out);
    return safetensors::firstNonFinite(out, t.numel);
}

}  // namespace attnviz
