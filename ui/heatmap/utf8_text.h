// The engine's strings (UTF-8 std::string) as the window's QString: one conversion for every view.
#pragma once
#include <QString>

#include <string_view>

namespace attnviz::ui {

inline QString qs(std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }

}  // namespace attnviz::ui
