// Writing a file so that its readers see the old file or the whole new one, never a part: every output of attnviz
// (model files, the heatmap's PNG, SVG, PDF, CSV and JSON, batch renders, the window's exports) goes through here.
//
// The bytes go to a hidden temporary file in the target's folder (".NAME.tmp-XXXX"); every write and the close are
// checked, the file is fsync'ed, then renamed over the target (atomic on POSIX file systems) and the folder fsync'ed.
// On any failure the temporary file is removed, an existing file at the path is left as it was, and WriteError says
// "PATH: cannot save: what: OS reason" (e.g. "No space left on device").
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace attnviz {

struct WriteError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

void writeFileAtomically(const std::string& path, const uint8_t* data, size_t size);
void writeFileAtomically(const std::string& path, std::string_view bytes);

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
