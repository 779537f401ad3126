// Opening a path for reading without surprises: it must be a regular file (symlinks followed). A FIFO with no
// writer, /dev/zero, a directory or a socket is refused with its kind named, before anything is read and without
// blocking; a symlink loop is reported as one (ELOOP), not as a missing file.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace attnviz {

// Opens `path` read-only (O_NONBLOCK while checking, so a FIFO cannot block the open) and checks that it is a
// regular file. Returns the descriptor (blocking mode restored; the caller closes it) and its size, or -1 with
// *problem set to "cannot open: No such file or directory", "is a directory, not a file", "is a FIFO (named pipe),
// not a regular file", "cannot open: Too many levels of symbolic links (a symlink loop?)", ...
int openRegularFile(const std::string& path, uint64_t* size, std::string* problem);

// Reads the whole of a regular file; throws InputError "PATH: problem" (the problems above, or a read error).
// At most `max_bytes` are accepted ("PATH: the file is N bytes; at most M are read").
std::string readRegularFile(const std::string& path, uint64_t max_bytes = uint64_t(1) << 32);

}  // namespace attnviz
