// libFuzzer target: JSON Lines of decode objects (cli.md's decode object, read back by decodeFromJson for the GUI's
// import and the tests). Every line must end in a DecodeResult or in a parse error / InputError; a result that was
// read must write back (decodeToJsonText, io/json_text.h's piece-by-piece writer) and read again to the same shapes,
// with no raw control character in the text (C0 and C1 written as \u escapes), and the same text pretty-printed
// must read back equal.
#include "base/errors.h"
#include "io/decode_json.h"

#include <cstdint>
#include <cstdlib>
#include <string_view>

namespace {

void oneLine(std::string_view line) {
    using namespace attnviz;
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(line);
    } catch (const nlohmann::json::exception&) {
        return;
    }
    ModelConfig config;
    DecodeResult r;
    try {
        r = decodeFromJson(j, &config);
    } catch (const InputError&) {
        return;
    }
    const std::string text = decodeToJsonText(r, config);
    for (size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x20 || (c == 0xC2 && i + 1 < text.size() && static_cast<unsigned char>(text[i + 1]) < 0xA0))
            std::abort();
    }
    if (nlohmann::json::parse(decodeToJsonText(r, config, 2)) != nlohmann::json::parse(text)) std::abort();
    const DecodeResult again = decodeFromJson(nlohmann::json::parse(text), &config);
    if (again.source_tokens != r.source_tokens || again.target_ids != r.target_ids ||
        again.attention.size() != r.attention.size() || again.log_probs.size() != r.log_probs.size())
        std::abort();
    (void)decodeToCsv(r);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    size_t pos = 0;
    while (pos <= text.size()) {
        size_t eol = text.find('\n', pos);
        if (eol == std::string_view::npos) eol = text.size();
        oneLine(text.substr(pos, eol - pos));
        pos = eol + 1;
    }
    return 0;
}
