// The message of the exception a call throws, for tests of error messages.
#pragma once
#include <QString>

#include <exception>

namespace attnviz::testing {

// What f() throws (any std::exception), as text; empty when it does not throw.
template <typename F>
QString errorOf(F&& f) {
    try {
        f();
    } catch (const std::exception& e) {
        return QString::fromUtf8(e.what());
    }
    return QString();
}

}  // namespace attnviz::testing
