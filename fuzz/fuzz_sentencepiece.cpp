// libFuzzer target: a SentencePiece model's bytes (a Marian folder's source.spm / target.spm). Any bytes must end in
// a model or a ModelError naming the file; libsentencepiece must never see bytes that crash or abort it (it
// trusts its input: text/sentencepiece_proto.h). A model that loads encodes text into valid UTF-8 pieces and
// decodes them into valid UTF-8 text, whatever its pieces and character maps are.
#include "base/errors.h"
#include "base/utf8.h"
#include "text/sentencepiece_model.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace attnviz;
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    try {
        const SentencePieceModel m = SentencePieceModel::fromBytes(bytes, "fuzz.spm");
        using namespace std::string_view_literals;  // the last text holds a NUL
        for (const std::string_view text : {""sv, "Tom isn't here."sv, "  a  b\tc "sv, "汤姆不在这里。"sv,
                                            "\xEF\xBC\xB4om \xE2\x91\xA0"sv, "a\0b\x1b[2J\x7f"sv}) {
            const auto pieces = m.encode(text);
            for (const auto& p : pieces)
                if (!isValidUtf8(p)) std::abort();
            if (!isValidUtf8(m.decode(pieces))) std::abort();
        }
        m.hasPiece("\xE2\x96\x81");
        m.normalPieces();
    } catch (const ModelError& e) {
        if (std::string_view(e.what()).substr(0, 10) != "fuzz.spm: ") std::abort();
    } catch (const InputError&) {  // a model that loads but cannot encode a text
    }
    return 0;
}
