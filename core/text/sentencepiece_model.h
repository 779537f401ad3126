// A SentencePiece model (a Marian folder's source.spm or target.spm, docs/marian.md) through Debian's
// libsentencepiece: text to pieces and pieces back to text. The spm's own ids are never model ids: a Marian model
// looks each piece up in its vocabulary.
#pragma once
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace sentencepiece {
class SentencePieceProcessor;
}

namespace attnviz {

// Cheap to copy (the loaded model is shared, and only read); encode and decode may run on several threads at once.
class SentencePieceModel {
public:
    // A model from the bytes of a .spm file; `name` (its path) starts every message. The bytes are checked before
    // the library sees them (text/sentencepiece_proto.h). Throws ModelError "NAME: not a SentencePiece model: WHAT"
    // for an empty, oversized, truncated or corrupt file, or one the library refuses.
    static SentencePieceModel fromBytes(std::string_view bytes, const std::string& name);

    // The pieces of `text`, "▁" (U+2581) marking a word start, as the library's EncodeAsPieces gives them (its
    // normalization first: NFKC, whitespace runs as one). Throws InputError "input text: invalid UTF-8 at byte N
    // (...)" as the tokenizers do (text/tokenizer.h).
    std::vector<std::string> encode(std::string_view text) const;
    // The text of `pieces` (the library's DecodePieces: "▁" back to spaces, the leading one dropped; a piece the
    // model does not know is kept as spelled, "<unk>" becomes the unknown surface " ⁇ ", <s> and </s> nothing).
    std::string decode(const std::vector<std::string>& pieces) const;
    // Whether `piece` is one of the model's pieces (<unk>, <s> and </s> included).
    bool hasPiece(std::string_view piece) const;
    // The pieces text can be encoded into, in the model's order: every piece but <unk>, control pieces (<s>, </s>)
    // and unused ones. A Marian vocabulary is made of these (docs/marian.md).
    std::vector<std::string> normalPieces() const;
    // The checked .spm bytes the model was made from (self-test samples left out), for writing a folder.
    const std::string& bytes() const;

private:
    struct Loaded;
    explicit SentencePieceModel(std::shared_ptr<const Loaded> loaded);
    std::shared_ptr<const Loaded> loaded_;
};

}  // namespace attnviz
