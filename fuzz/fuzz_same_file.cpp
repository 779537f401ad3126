// libFuzzer target: the check that an output is not one of a command's inputs (io/atomic_file.h: sameFile,
// refuseOverwritingInput) on any path, in a folder holding a file, a hard link and a symlink to it, a symlink loop,
// a dangling symlink and a folder. The input is a path (bytes up to a NUL) taken from that folder. sameFile must be
// symmetric and agree with stat's device and inode; refuseOverwritingInput must refuse exactly the paths that are
// the same file as the input, naming the path; neither may crash, whatever the bytes (long names, "..", ELOOP).
#include "io/atomic_file.h"

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

namespace {

// The fuzzer's folder, made once: file, hard, sym -> file, loop -> loop, dangling -> missing, dir/.
const std::string& folder() {
    static const std::string dir = [] {
        char name[] = "/tmp/attnviz-fuzz-same-file-XXXXXX";
        if (!::mkdtemp(name)) std::abort();
        const std::string d = name;
        std::FILE* f = std::fopen((d + "/file").c_str(), "w");
        if (!f) std::abort();
        std::fclose(f);
        if (::link((d + "/file").c_str(), (d + "/hard").c_str()) != 0) std::abort();
        (void)::symlink("file", (d + "/sym").c_str());
        (void)::symlink("loop", (d + "/loop").c_str());
        (void)::symlink("missing", (d + "/dangling").c_str());
        std::filesystem::create_directory(d + "/dir");
        return d;
    }();
    // Registered after `dir` is made, so that it runs before `dir` is destroyed.
    static const bool removed_at_exit = std::atexit([] {
                                            std::error_code ec;
                                            std::filesystem::remove_all(folder(), ec);
                                        }) == 0;
    (void)removed_at_exit;
    return dir;
}

bool statSame(const std::string& a, const std::string& b) {
    struct stat x {
    }, y{};
    return ::stat(a.c_str(), &x) == 0 && ::stat(b.c_str(), &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace attnviz;
    std::string rel(reinterpret_cast<const char*>(data), size);
    rel = rel.substr(0, rel.find('\0'));
    if (rel.empty() || rel == "-") return 0;  // "-" is standard input, not a path of the folder
    const std::string path = folder() + "/" + rel, input = folder() + "/file";
    const bool same = sameFile(path, input);
    if (same != sameFile(input, path) || same != statSame(path, input)) std::abort();
    try {
        refuseOverwritingInput(path, {{"--model", input}});
        if (same) std::abort();  // the input itself, a hard link or a symlink to it: must be refused
    } catch (const WriteError& e) {
        if (!same || std::string(e.what()).rfind(path + ": ", 0) != 0) std::abort();
    }
    return 0;
}
