// Opening a path for reading without surprises: it must be a regular file (symlinks followed). A FIFO with no
// writer, /dev/zero, a directory or a socket is refused with its kind named, before anything is read and without
// blocking; a symlink loop is reported as one (ELOOP), not as a missing file.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace attnviz {

// On the command line, "-" names standard input where a text file may be given (decode/render --input, eval/train
// --data, train --valid and --config); in messages it is called "<stdin>". A file really named "-" is "./-".
inline constexpr std::string_view kStandardInputPath = "-";
inline constexpr std::string_view kStandardInputName = "<stdin>";
// The most standard input may hold: it has no size to check beforehand, so it is bounded while it is read.
inline constexpr uint64_t kMaxStandardInputBytes = uint64_t(256) << 20;

// "<stdin>" for "-", else the path itself: the name messages give to what `path` reads.
std::string inputName(const std::string& path);

// Opens `path` read-only (O_NONBLOCK while checking, so a FIFO cannot block the open) and checks that it is a
// regular file ("-" is refused: standard input is read by readStandardInput where a command accepts it). Returns the descriptor (blocking mode restored; the caller closes it) and its size, or -1 with
// *problem set to "cannot open: No such file or directory", "is a directory, not a file", "is a FIFO (named pipe),
// not a regular file", "cannot open: Too many levels of symbolic links (a symlink loop?)", ...
int openRegularFile(const std::string& path, uint64_t* size, std::string* problem);

// Reads standard input to its end (a pipe, a terminal, a redirected file). Stops as soon as a line (CR and LF not
// counted) passes `max_line_bytes` ("<stdin>:LINE: the line is more than M bytes long; ...") or the input passes
// `max_bytes`, so that /dev/zero or an endless producer cannot make it allocate more. Throws InputError.
std::string readStandardInput(uint64_t max_bytes, size_t max_line_bytes);

// Reads the whole of a regular file; throws InputError "PATH: problem" (the problems above, or a read error).
// At most `max_bytes` are accepted ("PATH: the file is N bytes; at most M are read").
std::string readRegularFile(const std::string& path, uint64_t max_bytes = uint64_t(1) << 32);

}  // namespace attnviz
