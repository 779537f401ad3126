// Writing a file so that its readers see the old file or the whole new one, never a part: every output of attnviz
// (model files, the heatmap's PNG, SVG, PDF, CSV and JSON, batch renders, the window's exports) goes through here.
//
// The bytes go to a hidden temporary file in the target's folder (".NAME.tmp-PID-XXXXXXXX", PID the writing
// process); every write and the close are checked, the file is fsync'ed, then renamed over the target (atomic on
// POSIX file systems) and the folder fsync'ed. On any failure the temporary file is removed, an existing file at the
// path is left as it was, and WriteError says "PATH: cannot save: what: OS reason" (e.g. "No space left on device").
//
// A process killed while it writes (SIGKILL, a crash, a power cut) leaves its temporary file behind; the next write
// of the same target removes such files whose process no longer runs. A process that handles SIGTERM / SIGINT /
// SIGHUP calls removeTemporaryFilesInProgress() in the handler (attnviz-cli does) and leaves none.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace attnviz {

struct WriteError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

void writeFileAtomically(const std::string& path, const uint8_t* data, size_t size);
void writeFileAtomically(const std::string& path, std::string_view bytes);

// Fails as writeFileAtomically would before writing anything (WriteError: a missing or read-only folder, a folder or
// special file at the path), by creating and removing a temporary file next to `path`; `path` is not touched. For a
// command that works for minutes before it writes (train).
void checkWritable(const std::string& path);

// Creates the folder `path` and the folders above it that are missing (an existing folder is fine). Throws
// WriteError "PATH: cannot create the folder: OS reason" ("Read-only file system", "Not a directory"), as the
// writer names its own failures.
void createFolders(const std::string& path);

// Whether two paths name the same file: the same device and inode, so that hard links and symlinks count. False
// when either cannot be stat'ed (an output that does not exist yet). "-" is standard input when it is a file.
bool sameFile(const std::string& a, const std::string& b);

// An input of a command, named as its flag names it ("--model").
struct NamedInput {
    std::string flag;
    std::string path;
};
// Throws WriteError "PATH: cannot save: it is the same file as --model MODEL, an input of this command; write the
// output elsewhere" when the file at `path` is one of `inputs` (sameFile). For a command to call before it works: a
// write over its own input would replace the model or the data it read (atomically, so never half-written, but gone).
void refuseOverwritingInput(const std::string& path, const std::vector<NamedInput>& inputs);

// Removes the temporary files of the writes this process has in progress. Async-signal-safe (unlink only): for a
// handler of a terminating signal, which then ends the process. The interrupted write leaves the target as it was.
void removeTemporaryFilesInProgress() noexcept;

// Test-only seam: a disk that fails. When set, the writes of a file succeed for `after_bytes` bytes in total and
// then fail with `error` (an errno value: ENOSPC, EIO, EDQUOT, ...), as a full disk does. Processes started by tests
// get the same through the environment: ATTNVIZ_TEST_WRITE_FAULT=ENOSPC:4096 (errno name, colon, bytes; bytes
// default to 0). nullopt turns it off (and overrides the environment).
struct WriteFault {
    int error = 0;
    uint64_t after_bytes = 0;
};
void setWriteFaultForTesting(std::optional<WriteFault> fault);

}  // namespace attnviz
