#include "text/display_width.h"

#include "base/utf8.h"

#include <unicode/uchar.h>

#include <algorithm>

namespace attnviz {
namespace {

int codePointWidth(char32_t cp) {
    if (cp == 0) return 0;
    const auto category = u_charType(UChar32(cp));
    if (category == U_NON_SPACING_MARK || category == U_ENCLOSING_MARK || category == U_FORMAT_CHAR) return 0;
    const auto width = UEastAsianWidth(u_getIntPropertyValue(UChar32(cp), UCHAR_EAST_ASIAN_WIDTH));
    return width == U_EA_WIDE || width == U_EA_FULLWIDTH ? 2 : 1;
}

}  // namespace

int displayWidth(std::string_view text) {
    int w = 0;
    for (size_t i = 0; i < text.size();) {
        const Utf8Char ch = decodeUtf8(text, i);
        if (ch.length == 0) {  // not UTF-8: one column for the byte, as a terminal shows a replacement
            ++w;
            ++i;
            continue;
        }
        w += codePointWidth(ch.cp);
        i += ch.length;
    }
    return w;
}

std::string padRight(std::string_view text, int width) {
    return std::string(text) + std::string(size_t(std::max(0, width - displayWidth(text))), ' ');
}

std::string padLeft(std::string_view text, int width) {
    return std::string(size_t(std::max(0, width - displayWidth(text))), ' ') + std::string(text);
}

}  // namespace attnviz
