// The safetensors container's files on disk (io/safetensors.h): a whole file read, a header read alone, and a file
// whose tensors are read one at a time (TensorFile). Regular files only (io/input_file.h).
#include "base/errors.h"
#include "io/input_file.h"
#include "io/safetensors.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>
#include <vector>

#include <unistd.h>

namespace attnviz::safetensors {

namespace {

std::string errnoText(int e) { return std::strerror(e); }

// Closes fd on scope exit.
struct Fd {
    int fd = -1;
    ~Fd() {
        if (fd >= 0) ::close(fd);
    }
    int release() {
        int f = fd;
        fd = -1;
        return f;
    }
};

bool readAll(int fd, uint8_t* dst, size_t n, size_t& got) {
    got = 0;
    while (got < n) {
        const ssize_t r = ::read(fd, dst + got, n - got);
        if (r < 0) {
            if (errno == EINTR) continue;
            return false;
        }
        if (r == 0) break;  // shorter than fstat said (file changed underneath)
        got += size_t(r);
    }
    return true;
}

int openForReading(const std::string& path, uint64_t& size) {
    std::string problem;
    const int fd = openRegularFile(path, &size, &problem);
    if (fd < 0) fail(path, problem);
    return fd;
}

}  // namespace

std::vector<uint8_t> readFile(const std::string& path) {
    uint64_t size = 0;
    Fd f{openForReading(path, size)};
    std::vector<uint8_t> bytes;
    try {
        bytes.resize(size);
    } catch (const std::bad_alloc&) {
        fail(path, "not enough memory to read " + std::to_string(size) + " bytes");
    }
    size_t got = 0;
    if (!readAll(f.fd, bytes.data(), bytes.size(), got)) fail(path, "cannot read: " + errnoText(errno));
    bytes.resize(got);
    return bytes;
}

namespace {

// The header length of the open file `f` of `size` bytes, from its first 8 bytes (checked by readHeaderLength).
uint64_t readLength(const Fd& f, uint64_t size, const std::string& path) {
    uint8_t first[8];
    size_t got = 0;
    if (!readAll(f.fd, first, 8, got)) fail(path, "cannot read: " + errnoText(errno));
    return readHeaderLength(first, got, size, path);
}

}  // namespace

uint64_t readHeaderLengthOf(const std::string& path) {
    uint64_t size = 0;
    Fd f{openForReading(path, size)};
    return readLength(f, size, path);
}

namespace {

// The header of the open file `f` of `size` bytes, read and checked (at most max_header bytes of it).
Header readHeaderOf(const Fd& f, uint64_t size, const std::string& path, uint64_t max_header) {
    const uint64_t n = readLength(f, size, path);
    if (n > max_header)
        fail(path,
             "the header is " + std::to_string(n) + " bytes; at most " + std::to_string(max_header) + " are read here");
    std::string text(n, '\0');
    size_t got = 0;
    if (!readAll(f.fd, reinterpret_cast<uint8_t*>(text.data()), n, got)) fail(path, "cannot read: " + errnoText(errno));
    if (got != n) fail(path, "file truncated while reading the header");
    return parseHeader(text, size - 8 - n, path);
}

}  // namespace

Header readFileHeader(const std::string& path, uint64_t max_header) {
    uint64_t size = 0;
    Fd f{openForReading(path, size)};
    return readHeaderOf(f, size, path, max_header);
}

TensorFile::TensorFile(const std::string& path) : path_(path) {
    uint64_t size = 0;
    Fd f{openForReading(path, size)};
    header_ = readHeaderOf(f, size, path, kMaxHeaderSize);
    fd_ = f.release();
}

TensorFile::~TensorFile() {
    if (fd_ >= 0) ::close(fd_);
}

int64_t TensorFile::readFloat(const TensorInfo& t, float* out) const {
    // Chunks of whole elements, each converted by toFloat: the file is never held in memory.
    constexpr uint64_t kChunk = uint64_t(1) << 20;
    const uint64_t width = uint64_t(dtypeSize(t.dtype));
    std::vector<uint8_t> buffer(std::min<uint64_t>(kChunk, t.end - t.begin));
    int64_t done = 0;
    for (uint64_t offset = t.begin; offset < t.end;) {
        const uint64_t bytes = std::min<uint64_t>(buffer.size() / width * width, t.end - offset);
        uint64_t got = 0;
        while (got < bytes) {
            const ssize_t r = ::pread(fd_, buffer.data() + got, bytes - got, off_t(header_.dataStart() + offset + got));
            if (r < 0 && errno == EINTR) continue;
            if (r < 0) fail(path_, "cannot read: " + errnoText(errno));
            if (r == 0) fail(path_, "file truncated while reading tensor \"" + t.name + "\"");
            got += uint64_t(r);
        }
        TensorInfo chunk = t;
        chunk.begin = 0;
        chunk.end = bytes;
        chunk.numel = int64_t(bytes / width);
        const int64_t bad = toFloat(chunk, buffer.data(), out + done);
        if (bad >= 0) return done + bad;
        done += chunk.numel;
        offset += bytes;
    }
    return -1;
}

}  // namespace attnviz::safetensors
