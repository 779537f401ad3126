#include "text/language_code.h"

namespace attnviz {

LanguageCodeSplit splitLanguageCode(std::string_view text) {
    if (text.substr(0, 2) != ">>") return {{}, text};
    const size_t close = text.find("<<");
    if (close == std::string_view::npos) return {{}, text};
    return {text.substr(0, close + 2), text.substr(close + 2)};
}

}  // namespace attnviz
