// One test executable per test directory (tests/CMakeLists.txt): each test_*.cpp registers its Qt Test class here
// under its file name, and the directory's main (test_main.cpp) runs the class named by its first argument, so that
// CTest still runs every class in a process of its own.
#pragma once
#include <QObject>
#include <QTest>

#include <functional>
#include <string_view>

namespace attnviz::test {

// Runs one test class with Qt Test's arguments (argv[0] is the program); returns its exit code.
using TestRunner = std::function<int(int argc, char** argv)>;

// Registers `run` under the stem of `source_file` ("…/test_gradcheck.cpp" → "test_gradcheck"). Returns true.
bool registerTest(std::string_view source_file, TestRunner run);

}  // namespace attnviz::test

// Replaces QTEST_MAIN / QTEST_GUILESS_MAIN: the QCoreApplication or QApplication is the directory main's.
#define ATTNVIZ_TEST_MAIN(TestClass)                                      \
    static const bool attnviz_test_registered_##TestClass =               \
        attnviz::test::registerTest(__FILE__, [](int argc, char** argv) { \
            TestClass test_object;                                        \
            return QTest::qExec(&test_object, argc, argv);                \
        });
