// A number as a person reads it in a message or a CSV cell: up to 9 significant digits, no trailing zeros
// (0.98, not 0.980000), enough to give a float back exactly.
#pragma once
#include <cstdio>
#include <string>

namespace attnviz {

inline std::string numberText(double x) {
    char text[32];
    std::snprintf(text, sizeof text, "%.9g", x);
    return text;
}

}  // namespace attnviz
