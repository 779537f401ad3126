#include "io/atomic_file.h"

#include "io/input_file.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iterator>
#include <mutex>
#include <random>
#include <system_error>
#include <utility>

#include <fcntl.h>
#include <signal.h>
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

// The temporary files being written, for removeTemporaryFilesInProgress (called from a signal handler: plain
// arrays and lock-free atomics only). A write that finds every slot taken is simply not registered.
struct PendingSlot {
    std::atomic<bool> taken{false};
    std::atomic<bool> ready{false};  // `name` is complete
    char name[4096];
};
PendingSlot g_pending[16];

int registerPending(const std::string& name) {
    if (name.size() >= sizeof g_pending[0].name) return -1;
    for (int i = 0; i < int(std::size(g_pending)); ++i) {
        bool expected = false;
        if (!g_pending[i].taken.compare_exchange_strong(expected, true)) continue;
        std::memcpy(g_pending[i].name, name.c_str(), name.size() + 1);
        g_pending[i].ready.store(true);
        return i;
    }
    return -1;
}

void unregisterPending(int slot) {
    if (slot < 0) return;
    g_pending[slot].ready.store(false);
    g_pending[slot].taken.store(false);
}

// The prefix of the temporary files of `base` (".NAME.tmp-"), followed by "PID-XXXXXXXX".
std::string tempPrefix(const std::string& base) {
    std::string prefix(".");  // (appends: GCC 12 gives a false -Wrestrict for "." + string)
    prefix += base;
    prefix += ".tmp-";
    return prefix;
}

// Removes the temporary files of `base` in `dir` left by processes that no longer run (killed while writing it).
// A file whose process runs, or may run (another user's: EPERM), is left alone.
void removeStaleTempFiles(const std::filesystem::path& dir, const std::string& base) {
    const std::string prefix = tempPrefix(base);
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.compare(0, prefix.size(), prefix) != 0) continue;
        char* end = nullptr;
        const long pid = std::strtol(name.c_str() + prefix.size(), &end, 10);
        if (pid <= 0 || end == name.c_str() + prefix.size() || *end != '-' || pid == long(::getpid())) continue;
        if (::kill(pid_t(pid), 0) != 0 && errno == ESRCH) ::unlink(entry.path().c_str());
    }
}

[[noreturn]] void fail(const std::string& path, const std::string& what, int error) {
    throw WriteError(path + ": cannot save: " + what + (error ? std::string(": ") + std::strerror(error) : ""));
}

// Closes the descriptor and removes the temporary file unless the write was committed.
class TempFile {
public:
    TempFile(const std::string& path, const std::filesystem::path& dir) {
        std::random_device rd;
        const uint32_t tag = rd();
        const std::string prefix = tempPrefix(std::filesystem::path(path).filename().string());
        for (int attempt = 0; attempt < 16 && fd_ < 0; ++attempt) {
            char suffix[48];
            std::snprintf(suffix, sizeof suffix, "%ld-%08x", long(::getpid()), unsigned(tag + uint32_t(attempt)));
            name_ = (dir / (prefix + suffix)).string();
            // Registered before it exists, so that a signal at any moment finds it (an EEXIST file has our PID in
            // its name: a stale one of an earlier process, which may go).
            slot_ = registerPending(name_);
            fd_ = ::open(name_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
            const int error = errno;
            if (fd_ < 0) unregisterPending(std::exchange(slot_, -1));
            if (fd_ < 0 && error != EEXIST) {
                errno = error;
                break;
            }
        }
        if (fd_ < 0) fail(path, "cannot create a temporary file in " + dir.string(), errno);
    }
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;
    ~TempFile() {
        if (fd_ >= 0) ::close(fd_);
        if (!committed_) ::unlink(name_.c_str());
        unregisterPending(slot_);
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
    int slot_ = -1;  // in g_pending
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

void removeTemporaryFilesInProgress() noexcept {
    for (PendingSlot& slot : g_pending)
        if (slot.ready.load()) ::unlink(slot.name);
}

void setWriteFaultForTesting(std::optional<WriteFault> fault) {
    FaultState& st = faultState();
    std::lock_guard lock(st.mutex);
    st.set_by_test = true;
    st.fault = fault;
}

void writeFileAtomically(const std::string& path, std::string_view bytes) {
    writeFileAtomically(path, reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
}

namespace {

// The folder a file at `path` is written in; fails if `path` has no file name or names a folder or a special file.
// `old` receives the stat of the file there, if any (exists then says so).
std::filesystem::path checkTarget(const std::string& path, struct stat* old, bool* exists) {
    namespace fs = std::filesystem;
    const fs::path target(path);
    if (!target.has_filename()) fail(path, "not a file name", 0);
    *exists = ::stat(path.c_str(), old) == 0;
    if (*exists && S_ISDIR(old->st_mode)) fail(path, "cannot replace a folder", EISDIR);
    if (*exists && !S_ISREG(old->st_mode))
        fail(path, "not a regular file (a device, FIFO or socket is never replaced)", 0);
    return target.has_parent_path() ? target.parent_path() : fs::path(".");
}

}  // namespace

namespace {

// stat of a path, or of standard input for "-" (`train --data - < FILE` reads FILE).
bool statInput(const std::string& path, struct stat* st) {
    if (path == kStandardInputPath) return ::fstat(STDIN_FILENO, st) == 0 && S_ISREG(st->st_mode);
    return ::stat(path.c_str(), st) == 0;
}

}  // namespace

void createFolders(const std::string& path) {
    std::error_code ec;
    std::filesystem::create_directories(path, ec);
    if (!ec && !std::filesystem::is_directory(path, ec)) ec = std::make_error_code(std::errc::not_a_directory);
    if (ec) throw WriteError(path + ": cannot create the folder: " + ec.message());
}

bool sameFile(const std::string& a, const std::string& b) {
    struct stat x {
    }, y{};
    return statInput(a, &x) && statInput(b, &y) && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

void refuseOverwritingInput(const std::string& path, const std::vector<NamedInput>& inputs) {
    for (const NamedInput& in : inputs)
        if (!in.path.empty() && sameFile(path, in.path))
            fail(path,
                 "it is the same file as " + in.flag + " " + in.path +
                     ", an input of this command; write the output elsewhere",
                 0);
}

void checkWritable(const std::string& path) {
    struct stat old {};
    bool exists = false;
    const std::filesystem::path dir = checkTarget(path, &old, &exists);
    TempFile probe(path, dir);  // created, then removed by its destructor
}

void writeFileAtomically(const std::string& path, const uint8_t* data, size_t size) {
    struct stat old {};
    bool exists = false;
    const std::filesystem::path dir = checkTarget(path, &old, &exists);
    removeStaleTempFiles(dir, std::filesystem::path(path).filename().string());
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
