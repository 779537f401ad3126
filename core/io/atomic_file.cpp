#include "io/atomic_file.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <random>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace attnviz {
namespace {

// The fault of setWriteFaultForTesting, or of ATTNVIZ_TEST_WRITE_FAULT when the test did not set one.
struct FaultState {
    std::mutex mutex;
    bool set_by_test = false;
    std::optional<WriteFault> fault;
};

FaultState& faultState() {
    static FaultState state;
    return state;
}

std::optional<WriteFault> faultFromEnvironment() {
    const char* text = std::getenv("ATTNVIZ_TEST_WRITE_FAULT");
    if (!text || !*text) return std::nullopt;
    const std::string s(text);
    const std::string name = s.substr(0, s.find(':'));
    WriteFault f;
    f.error = name == "ENOSPC" ? ENOSPC : name == "EIO" ? EIO : name == "EDQUOT" ? EDQUOT : name == "EFBIG" ? EFBIG : 0;
    if (f.error == 0) return std::nullopt;
    if (const size_t colon = s.find(':'); colon != std::string::npos)
        f.after_bytes = std::strtoull(s.c_str() + colon + 1, nullptr, 10);
    return f;
}

std::optional<WriteFault> currentFault() {
    FaultState& st = faultState();
    std::lock_guard lock(st.mutex);
    if (st.set_by_test) return st.fault;
    static const std::optional<WriteFault> from_env = faultFromEnvironment();
    return from_env;
}

[[noreturn]] void fail(const std::string& path, const std::string& what, int error) {
    throw WriteError(path + ": cannot save: " + what + (error ? std::string(": ") + std::strerror(error) : ""));
}

// Closes the descriptor and removes the temporary file unless the write was committed.
class TempFile {
public:
    TempFile(const std::string& path, const std::filesystem::path& dir) {
        std::random_device rd;
        const uint64_t tag = (uint64_t(rd()) << 32) ^ rd() ^ uint64_t(::getpid());
        const std::string base = std::filesystem::path(path).filename().string();
        for (int attempt = 0; attempt < 16 && fd_ < 0; ++attempt) {
            char suffix[32];
            std::snprintf(suffix, sizeof suffix, ".tmp-%016llx", static_cast<unsigned long long>(tag + attempt));
            std::string hidden(".");  // (appends: GCC 12 gives a false -Wrestrict for "." + string)
            hidden += base;
            hidden += suffix;
            name_ = (dir / hidden).string();
            fd_ = ::open(name_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
            if (fd_ < 0 && errno != EEXIST) break;
        }
        if (fd_ < 0) fail(path, "cannot create a temporary file in " + dir.string(), errno);
    }
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;
    ~TempFile() {
        if (fd_ >= 0) ::close(fd_);
        if (!committed_) ::unlink(name_.c_str());
    }
    int fd() const { return fd_; }
    const std::string& name() const { return name_; }
    // Closes the descriptor; returns 0 or the errno of close().
    int close() {
        const int r = ::close(fd_);
        fd_ = -1;
        return r == 0 ? 0 : errno;
    }
    void committed() { committed_ = true; }

private:
    int fd_ = -1;
    std::string name_;
    bool committed_ = false;
};

// Writes every byte or returns the errno of the failure (short writes are continued, EINTR retried).
int writeAll(int fd, const uint8_t* data, size_t size, const std::optional<WriteFault>& fault) {
    size_t done = 0;
    while (done < size) {
        size_t chunk = size - done;
        if (fault) {
            if (done >= fault->after_bytes) return fault->error;
            chunk = std::min<size_t>(chunk, size_t(fault->after_bytes - done));
        }
        const ssize_t w = ::write(fd, data + done, chunk);
        if (w < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        if (w == 0) return EIO;  // no progress and no error: treat as an I/O error rather than loop
        done += size_t(w);
    }
    return 0;
}

}  // namespace

void setWriteFaultForTesting(std::optional<WriteFault> fault) {
    FaultState& st = faultState();
    std::lock_guard lock(st.mutex);
    st.set_by_test = true;
    st.fault = fault;
}

void writeFileAtomically(const std::string& path, std::string_view bytes) {
    writeFileAtomically(path, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}

void writeFileAtomically(const std::string& path, const uint8_t* data, size_t size) {
    namespace fs = std::filesystem;
    const fs::path target(path);
    if (!target.has_filename()) fail(path, "not a file name", 0);
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    struct stat old {};
    const bool exists = ::stat(path.c_str(), &old) == 0;
    if (exists && S_ISDIR(old.st_mode)) fail(path, "cannot replace a folder", EISDIR);
    if (exists && !S_ISREG(old.st_mode))
        fail(path, "not a regular file (a device, FIFO or socket is never replaced)", 0);

    TempFile temp(path, dir);
    if (exists) (void)::fchmod(temp.fd(), old.st_mode & 07777);  // keep the permissions of the file replaced
    if (const int e = writeAll(temp.fd(), data, size, currentFault())) fail(path, "write failed", e);
    if (::fsync(temp.fd()) != 0) fail(path, "fsync failed", errno);
    if (const int e = temp.close()) fail(path, "close failed", e);
    if (::rename(temp.name().c_str(), path.c_str()) != 0) fail(path, "cannot replace the file", errno);
    temp.committed();
    // Make the rename itself durable; a failure here does not undo the save.
    const int d = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (d >= 0) {
        (void)::fsync(d);
        ::close(d);
    }
}

}  // namespace attnviz
