// How wide text is in a terminal's columns, for the CLI's tables: East Asian wide and fullwidth characters take two
// columns, combining marks and format characters none (Unicode's East_Asian_Width and General_Category, from ICU).
#pragma once
#include <string>
#include <string_view>

namespace attnviz {

// Columns `text` (UTF-8) takes; a byte that is not UTF-8 counts one column.
int displayWidth(std::string_view text);
// `text` padded with spaces to `width` columns, on the right (left-aligned) or on the left; never cut.
std::string padRight(std::string_view text, int width);
std::string padLeft(std::string_view text, int width);

}  // namespace attnviz
