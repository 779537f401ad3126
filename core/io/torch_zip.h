// The zip container of `torch.save` (PyTorch >= 1.6), read through libzip: `<dir>/data.pkl` and one stored
// (uncompressed) entry `<dir>/data/<key>` per storage; other entries (`<dir>/version`, ...) are not read. libzip opens
// the archive with its consistency checks (ZIP_CHECKCONS: every local header agrees with the central directory, no
// entry name twice). The reader reads storages with pread at their offsets in the file, so each entry it uses is
// located once: the offset at which libzip reads the entry's first byte, checked against the bytes at that offset.
// Those offsets are what shows two entries overlapping (an entry whose bytes hold another's), which libzip allows.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace attnviz::torch_pickle {

// Where an entry's bytes are in the file.
struct ZipSpan {
    std::string entry;
    uint64_t offset = 0;
    uint64_t size = 0;
};

class TorchZip {
public:
    // Opens the archive on `fd` (a regular file of `file_size` bytes that the caller keeps open while this lives);
    // finds the one `<dir>/data.pkl`. ModelError "PATH: what" if libzip refuses the archive, data.pkl is missing, or
    // `<dir>/byteorder` (PyTorch >= 2.1) says anything but "little".
    TorchZip(int fd, uint64_t file_size, const std::string& path);
    ~TorchZip();
    TorchZip(const TorchZip&) = delete;
    TorchZip& operator=(const TorchZip&) = delete;

    const std::string& pickleEntry() const { return pickle_entry_; }  // "<dir>/data.pkl"
    // data.pkl's bytes (read through libzip, its CRC checked); `span` receives where they are in the file.
    std::vector<uint8_t> readPickle(ZipSpan& span);
    // Locates `<dir>/data/<key>`; `what_for` names it in messages ("the storage of tensor \"x\""). Refused when the
    // entry is missing, compressed or encrypted.
    ZipSpan locateStorage(const std::string& key, const std::string& what_for);
    // Refuses two spans that share a byte (naming both entries).
    void requireDisjoint(std::vector<ZipSpan> spans) const;

private:
    struct Archive;
    ZipSpan locate(int64_t index, const std::string& entry);
    void requireLittleEndian();
    std::unique_ptr<Archive> archive_;
    std::string path_;
    std::string prefix_;  // "<dir>/"
    std::string pickle_entry_;
    int64_t pickle_index_ = -1;
};

}  // namespace attnviz::torch_pickle
