// A size in bytes as people read it in messages: "1.5 GiB" (one decimal, binary gigabytes), so that every limit and
// estimate the programs print is written the same way.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>

namespace attnviz {

inline std::string gibText(double bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f GiB", bytes / double(uint64_t(1) << 30));
    return text;
}

}  // namespace attnviz
