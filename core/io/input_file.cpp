#include "io/input_file.h"

#include "base/errors.h"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace attnviz {
namespace {

std::string kindOf(mode_t mode) {
    if (S_ISDIR(mode)) return "is a directory, not a file";
    if (S_ISFIFO(mode)) return "is a FIFO (named pipe), not a regular file";
    if (S_ISCHR(mode)) return "is a character device, not a regular file";
    if (S_ISBLK(mode)) return "is a block device, not a regular file";
    if (S_ISSOCK(mode)) return "is a socket, not a regular file";
    return "is not a regular file";
}

std::string openProblem(int error) {
    std::string text = std::string("cannot open: ") + std::strerror(error);
    if (error == ELOOP) text += " (a symlink loop?)";
    return text;
}

}  // namespace

std::string inputName(const std::string& path) {
    return path == kStandardInputPath ? std::string(kStandardInputName) : path;
}

int openRegularFile(const std::string& path, uint64_t* size, std::string* problem) {
    if (path == kStandardInputPath) {
        *problem = "standard input cannot be read here; give a file (a file named \"-\" is ./-)";
        return -1;
    }
    // stat first: a directory or device is named as such even where open() would succeed or fail differently.
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        *problem = openProblem(errno);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        *problem = kindOf(st.st_mode);
        return -1;
    }
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        *problem = openProblem(errno);
        return -1;
    }
    // The path may have been replaced between stat and open: check what was opened.
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        *problem = kindOf(st.st_mode);
        ::close(fd);
        return -1;
    }
    const int flags = ::fcntl(fd, F_GETFL);
    if (flags >= 0) (void)::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
    if (size) *size = uint64_t(st.st_size);
    return fd;
}

std::string readStandardInput(uint64_t max_bytes, size_t max_line_bytes) {
    const std::string name(kStandardInputName);
    std::string text;
    size_t line_start = 0;  // where the line being read begins in `text`
    int line = 1;
    char buf[65536];
    for (;;) {
        const ssize_t r = ::read(STDIN_FILENO, buf, sizeof buf);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) throw InputError(name + ": read error: " + std::strerror(errno));
        if (r == 0) break;
        if (text.size() + size_t(r) > max_bytes)
            throw InputError(name + ": more than " + std::to_string(max_bytes >> 20) +
                             " MiB on standard input; give the data as a file");
        const size_t scan_from = text.size();
        text.append(buf, size_t(r));
        for (size_t i = scan_from; i < text.size(); ++i)
            if (text[i] == '\n') {
                line_start = i + 1;
                ++line;
            }
        // +1: a CR before the LF is not counted (the corpus reader checks the exact length of complete lines).
        if (text.size() - line_start > max_line_bytes + 1)
            throw InputError(name + ":" + std::to_string(line) + ": the line is more than " +
                             std::to_string(max_line_bytes) + " bytes long; lines of at most " +
                             std::to_string(max_line_bytes) + " bytes are read");
    }
    return text;
}

std::string readRegularFile(const std::string& path, uint64_t max_bytes) {
    uint64_t size = 0;
    std::string problem;
    const int fd = openRegularFile(path, &size, &problem);
    if (fd < 0) throw InputError(path + ": " + problem);
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }
    } closer{fd};
    if (size > max_bytes)
        throw InputError(path + ": the file is " + std::to_string(size) + " bytes; at most " +
                         std::to_string(max_bytes) + " are read");
    std::string text(size_t(size), '\0');
    size_t got = 0;
    while (got < text.size()) {
        const ssize_t r = ::read(fd, text.data() + got, text.size() - got);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) throw InputError(path + ": read error: " + std::strerror(errno));
        if (r == 0) break;  // the file shrank while we read it
        got += size_t(r);
    }
    text.resize(got);
    return text;
}

}  // namespace attnviz
