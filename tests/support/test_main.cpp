// The main of a test directory's executable (tests/CMakeLists.txt): `PROGRAM NAME [Qt Test options]` runs the test
// class registered as NAME (its file's stem), `PROGRAM --list` names them all. ATTNVIZ_TEST_GUI selects a
// QApplication (widget tests, as QTEST_MAIN) over a QCoreApplication (QTEST_GUILESS_MAIN).
#include "test_registry.h"

#ifdef ATTNVIZ_TEST_GUI
#include <QApplication>
#else
#include <QCoreApplication>
#endif

#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace attnviz::test {
namespace {

std::map<std::string, TestRunner, std::less<>>& registry() {
    static std::map<std::string, TestRunner, std::less<>> tests;
    return tests;
}

int usage(const char* program) {
    std::fprintf(stderr, "usage: %s TEST [Qt Test options]\ntests:", program);
    for (const auto& entry : registry()) std::fprintf(stderr, " %s", entry.first.c_str());
    std::fprintf(stderr, "\n");
    return 2;
}

}  // namespace

bool registerTest(std::string_view source_file, TestRunner run) {
    registry().emplace(std::filesystem::path(source_file).stem().string(), std::move(run));
    return true;
}

}  // namespace attnviz::test

int main(int argc, char** argv) {
    using attnviz::test::registry;
    if (argc >= 2 && std::string_view(argv[1]) == "--list") {
        for (const auto& entry : registry()) std::printf("%s\n", entry.first.c_str());
        return 0;
    }
    const auto test = argc >= 2 ? registry().find(std::string_view(argv[1])) : registry().end();
    if (test == registry().end()) return attnviz::test::usage(argv[0]);
    // Qt Test sees the program and the options after the test's name.
    std::vector<char*> qt_args{argv[0]};
    qt_args.insert(qt_args.end(), argv + 2, argv + argc);
    int qt_argc = int(qt_args.size());
#ifdef ATTNVIZ_TEST_GUI
    QApplication app(qt_argc, qt_args.data());
    app.setAttribute(Qt::AA_Use96Dpi, true);
#else
    QCoreApplication app(qt_argc, qt_args.data());
#endif
    return test->second(qt_argc, qt_args.data());
}
