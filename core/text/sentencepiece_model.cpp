#include "text/sentencepiece_model.h"

#include "base/errors.h"
#include "base/utf8.h"
#include "text/sentencepiece_proto.h"
#include "text/tokenizer.h"

#include <sentencepiece_processor.h>

#include <new>

namespace attnviz {

struct SentencePieceModel::Loaded {
    std::string bytes;
    sentencepiece::SentencePieceProcessor processor;
};

SentencePieceModel::SentencePieceModel(std::shared_ptr<const Loaded> loaded) : loaded_(std::move(loaded)) {}

SentencePieceModel SentencePieceModel::fromBytes(std::string_view bytes, const std::string& name) {
    auto loaded = std::make_shared<Loaded>();
    loaded->bytes = checkedSentencePieceProto(bytes, name);
    sentencepiece::util::Status status;
    try {
        status = loaded->processor.LoadFromSerializedProto(loaded->bytes);
    } catch (const std::bad_alloc&) {
        throw;
    } catch (const std::exception& e) {  // darts-clone throws when it cannot build the pieces' trie
        throw ModelError(name + ": not a SentencePiece model: " + printable(e.what()));
    }
    if (!status.ok()) throw ModelError(name + ": not a SentencePiece model: " + printable(status.error_message()));
    return SentencePieceModel(std::move(loaded));
}

std::vector<std::string> SentencePieceModel::encode(std::string_view text) const {
    checkInputText(text);
    std::vector<std::string> pieces;
    const auto status = loaded_->processor.Encode(text, &pieces);
    if (!status.ok()) throw InputError("input text: cannot be encoded: " + printable(status.error_message()));
    return pieces;
}

std::string SentencePieceModel::decode(const std::vector<std::string>& pieces) const {
    std::string text;
    const auto status = loaded_->processor.Decode(pieces, &text);
    if (!status.ok()) throw InputError("pieces cannot be decoded: " + printable(status.error_message()));
    return text;
}

bool SentencePieceModel::hasPiece(std::string_view piece) const {
    const auto& p = loaded_->processor;
    const int id = p.PieceToId(piece);
    return id != p.unk_id() || p.IdToPiece(id) == piece;
}

std::vector<std::string> SentencePieceModel::normalPieces() const {
    const auto& p = loaded_->processor;
    std::vector<std::string> out;
    for (int id = 0; id < p.GetPieceSize(); ++id)
        if (!p.IsUnknown(id) && !p.IsControl(id) && !p.IsUnused(id)) out.push_back(p.IdToPiece(id));
    return out;
}

const std::string& SentencePieceModel::bytes() const { return loaded_->bytes; }

}  // namespace attnviz
