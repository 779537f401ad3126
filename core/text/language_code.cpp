#include "text/language_code.h"

namespace attnviz {

LanguageCodeSplit splitLanguageCode(std::string_view text) {
    if (text.substr(0, 2) != ">>") return {{}, text};
    const size_t close = text.find("<<");
    if (close == std::string_view::npos) return {{}, text};
    return {text.substr(0, close + 2), text.substr(close + 2)};
}

bool isLanguageCode(std::string_view t) {
    return t.size() > 4 && t.substr(0, 2) == ">>" && t.substr(t.size() - 2) == "<<";
}

}  // namespace attnviz
