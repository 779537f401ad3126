// torch.save's zip container through libzip (torch_zip.h). libzip reads the file through a source of ours (a
// zip_source_function over the descriptor) that notes where each read starts: that is how an entry's data offset
// is learnt without parsing any zip structure here.
#include "io/torch_zip.h"
#include "base/errors.h"
#include "base/utf8.h"
#include "io/safetensors.h"

#include <zip.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <unordered_set>

#include <unistd.h>

namespace attnviz::torch_pickle {

namespace {

constexpr uint64_t kNoRead = ~uint64_t(0);
constexpr uint64_t kMaxPickleBytes = uint64_t(1) << 30;

// The file as a libzip source: pread at a position of our own, and the start of the first read since `arm`.
struct FileSource {
    int fd = -1;
    uint64_t size = 0;
    uint64_t pos = 0;
    uint64_t first_read = kNoRead;
    zip_error_t error;
};

zip_int64_t fileSource(void* user, void* data, zip_uint64_t len, zip_source_cmd_t cmd) {
    auto* s = static_cast<FileSource*>(user);
    switch (cmd) {
    case ZIP_SOURCE_OPEN:
        s->pos = 0;
        return 0;
    case ZIP_SOURCE_READ: {
        const uint64_t n = std::min<uint64_t>(len, s->pos < s->size ? s->size - s->pos : 0);
        uint64_t got = 0;
        while (got < n) {
            const ssize_t r = ::pread(s->fd, static_cast<uint8_t*>(data) + got, size_t(n - got), off_t(s->pos + got));
            if (r < 0 && errno == EINTR) continue;
            if (r < 0) {
                zip_error_set(&s->error, ZIP_ER_READ, errno);
                return -1;
            }
            if (r == 0) break;
            got += uint64_t(r);
        }
        if (s->first_read == kNoRead && got > 0) s->first_read = s->pos;
        s->pos += got;
        return zip_int64_t(got);
    }
    case ZIP_SOURCE_CLOSE:
    case ZIP_SOURCE_FREE:
        return 0;
    case ZIP_SOURCE_STAT: {
        auto* st = static_cast<zip_stat_t*>(data);
        zip_stat_init(st);
        st->size = s->size;
        st->valid |= ZIP_STAT_SIZE;
        return sizeof(zip_stat_t);
    }
    case ZIP_SOURCE_ERROR:
        return zip_error_to_data(&s->error, data, len);
    case ZIP_SOURCE_SEEK: {
        const zip_int64_t p = zip_source_seek_compute_offset(s->pos, s->size, data, len, &s->error);
        if (p < 0) return -1;
        s->pos = uint64_t(p);
        return 0;
    }
    case ZIP_SOURCE_TELL:
        return zip_int64_t(s->pos);
    case ZIP_SOURCE_SUPPORTS:
        return zip_source_make_command_bitmap(ZIP_SOURCE_OPEN, ZIP_SOURCE_READ, ZIP_SOURCE_CLOSE, ZIP_SOURCE_STAT,
                                              ZIP_SOURCE_ERROR, ZIP_SOURCE_FREE, ZIP_SOURCE_SEEK, ZIP_SOURCE_TELL, -1);
    default:
        zip_error_set(&s->error, ZIP_ER_OPNOTSUPP, 0);
        return -1;
    }
}

// Opens the archive over `source` with `flags`; null and `code` set on failure.
zip_t* openWith(FileSource& source, int flags, int& code, std::string& text) {
    zip_error_t err;
    zip_error_init(&err);
    zip_source_t* src = zip_source_function_create(fileSource, &source, &err);
    zip_t* za = src ? zip_open_from_source(src, flags, &err) : nullptr;
    if (!za) {
        if (src) zip_source_free(src);
        code = zip_error_code_zip(&err);
        text = zip_error_strerror(&err);
    }
    zip_error_fini(&err);
    return za;
}

}  // namespace

struct TorchZip::Archive {
    FileSource source;
    zip_t* za = nullptr;
    ~Archive() {
        if (za) zip_discard(za);
        zip_error_fini(&source.error);
    }
};

TorchZip::TorchZip(int fd, uint64_t file_size, const std::string& path)
    : archive_(std::make_unique<Archive>()), path_(path) {
    Archive& a = *archive_;
    a.source.fd = fd;
    a.source.size = file_size;
    zip_error_init(&a.source.error);
    int code = 0;
    std::string text;
    a.za = openWith(a.source, ZIP_RDONLY | ZIP_CHECKCONS, code, text);
    if (!a.za && code == ZIP_ER_EXISTS) {  // two entries of one name: open leniently to say which
        FileSource lenient;
        lenient.fd = fd;
        lenient.size = file_size;
        zip_error_init(&lenient.error);
        int c2 = 0;
        std::string t2;
        if (zip_t* za = openWith(lenient, ZIP_RDONLY, c2, t2)) {
            std::unordered_set<std::string> seen;
            std::string twice;
            for (zip_int64_t i = 0; i < zip_get_num_entries(za, 0) && twice.empty(); ++i)
                if (const char* n = zip_get_name(za, zip_uint64_t(i), ZIP_FL_ENC_RAW); n && !seen.insert(n).second)
                    twice = n;
            zip_discard(za);
            if (!twice.empty())
                safetensors::fail(path, "the archive has two entries named \"" + printable(twice) +
                                            "\" (which one is meant is unclear)");
        }
        zip_error_fini(&lenient.error);
    }
    if (!a.za) safetensors::fail(path, "not a zip archive libzip can read: " + text);

    const zip_int64_t n = zip_get_num_entries(a.za, 0);
    for (zip_int64_t i = 0; i < n; ++i) {
        const char* c = zip_get_name(a.za, zip_uint64_t(i), ZIP_FL_ENC_RAW);
        const std::string name = c ? c : "";
        const size_t slash = name.find('/');
        if (slash == std::string::npos || name.substr(slash) != "/data.pkl") continue;
        if (pickle_index_ >= 0)
            safetensors::fail(path, "the archive has two pickles, \"" + printable(pickle_entry_) + "\" and \"" +
                                        printable(name) + "\"");
        pickle_index_ = i;
        pickle_entry_ = name;
        prefix_ = name.substr(0, slash + 1);
    }
    if (pickle_index_ < 0)
        safetensors::fail(path, "the zip archive has no <dir>/data.pkl entry: not a PyTorch checkpoint");
    requireLittleEndian();
}

// PyTorch 2.1 and later write <dir>/byteorder, "little" or "big"; files without it are little-endian.
void TorchZip::requireLittleEndian() {
    const std::string entry = prefix_ + "byteorder";
    const zip_int64_t index = zip_name_locate(archive_->za, entry.c_str(), ZIP_FL_ENC_RAW);
    if (index < 0) return;
    char text[16] = {};
    zip_file_t* f = zip_fopen_index(archive_->za, zip_uint64_t(index), 0);
    const zip_int64_t got = f ? zip_fread(f, text, sizeof text - 1) : -1;
    if (f) zip_fclose(f);
    const std::string order(text, size_t(std::max<zip_int64_t>(got, 0)));
    if (order != "little")
        safetensors::fail(path_, "the entry \"" + printable(entry) + "\" says \"" + printable(order) +
                                     "\"; only little-endian storages are read");
}

TorchZip::~TorchZip() = default;

ZipSpan TorchZip::locate(int64_t index, const std::string& entry) {
    Archive& a = *archive_;
    zip_stat_t st;
    if (zip_stat_index(a.za, zip_uint64_t(index), 0, &st) != 0)
        safetensors::fail(path_, "cannot read the entry \"" + printable(entry) + "\": " + zip_strerror(a.za));
    if (st.encryption_method != ZIP_EM_NONE)
        safetensors::fail(path_, "the entry \"" + printable(entry) + "\" is encrypted");
    if (st.comp_method != ZIP_CM_STORE || st.comp_size != st.size)
        safetensors::fail(
            path_, "the entry \"" + printable(entry) + "\" is compressed; torch.save stores its entries uncompressed");
    ZipSpan span{entry, 0, st.size};
    if (st.size == 0) return span;
    zip_file_t* f = zip_fopen_index(a.za, zip_uint64_t(index), 0);
    if (!f) safetensors::fail(path_, "cannot open the entry \"" + printable(entry) + "\": " + zip_strerror(a.za));
    uint8_t probe[64], again[64];
    const size_t k = size_t(std::min<uint64_t>(st.size, sizeof probe));
    a.source.first_read = kNoRead;
    const zip_int64_t got = zip_fread(f, probe, k);
    zip_fclose(f);
    span.offset = a.source.first_read;
    // The bytes at the noted offset must be the entry's first bytes, and the entry must end inside the file.
    if (got != zip_int64_t(k) || span.offset == kNoRead || span.offset > a.source.size ||
        st.size > a.source.size - span.offset || ::pread(a.source.fd, again, k, off_t(span.offset)) != ssize_t(k) ||
        std::memcmp(probe, again, k) != 0)
        safetensors::fail(path_, "cannot locate the bytes of the entry \"" + printable(entry) + "\"");
    return span;
}

std::vector<uint8_t> TorchZip::readPickle(ZipSpan& span) {
    span = locate(pickle_index_, pickle_entry_);
    if (span.size > kMaxPickleBytes)
        safetensors::fail(path_, "the entry \"" + printable(pickle_entry_) + "\" is " + std::to_string(span.size) +
                                     " bytes; a state dict's pickle is far smaller");
    std::vector<uint8_t> bytes(span.size);
    zip_file_t* f = zip_fopen_index(archive_->za, zip_uint64_t(pickle_index_), 0);
    const zip_int64_t got = f ? zip_fread(f, bytes.data(), bytes.size()) : -1;
    const std::string problem = f ? zip_file_strerror(f) : zip_strerror(archive_->za);
    if (f) zip_fclose(f);
    if (got != zip_int64_t(bytes.size()))
        safetensors::fail(path_, "cannot read the entry \"" + printable(pickle_entry_) + "\": " + problem);
    return bytes;
}

ZipSpan TorchZip::locateStorage(const std::string& key, const std::string& what_for) {
    const std::string entry = prefix_ + "data/" + key;
    const zip_int64_t index = zip_name_locate(archive_->za, entry.c_str(), ZIP_FL_ENC_RAW);
    if (index < 0) safetensors::fail(path_, "the archive has no entry \"" + printable(entry) + "\", " + what_for);
    return locate(index, entry);
}

void TorchZip::requireDisjoint(std::vector<ZipSpan> spans) const {
    std::erase_if(spans, [](const ZipSpan& s) { return s.size == 0; });
    std::sort(spans.begin(), spans.end(), [](const ZipSpan& x, const ZipSpan& y) { return x.offset < y.offset; });
    const ZipSpan* far = nullptr;  // the span reaching furthest so far
    for (const ZipSpan& q : spans) {
        if (far && q.offset < far->offset + far->size) {
            const ZipSpan& p = *far;
            safetensors::fail(path_, "the entries \"" + printable(p.entry) + "\" (bytes " + std::to_string(p.offset) +
                                         " to " + std::to_string(p.offset + p.size) + ") and \"" + printable(q.entry) +
                                         "\" (bytes " + std::to_string(q.offset) + " to " +
                                         std::to_string(q.offset + q.size) + ") overlap: a damaged or crafted archive");
        }
        if (!far || q.offset + q.size > far->offset + far->size) far = &q;
    }
}

}  // namespace attnviz::torch_pickle
