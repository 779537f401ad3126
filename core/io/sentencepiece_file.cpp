#include "io/sentencepiece_file.h"

#include "base/errors.h"
#include "io/input_file.h"
#include "text/sentencepiece_proto.h"

namespace attnviz {

SentencePieceModel readSentencePieceModel(const std::string& path) {
    std::string bytes;
    try {
        bytes = readRegularFile(path, kMaxSentencePieceModelBytes);
    } catch (const InputError& e) {  // "PATH: problem", a model file's problem here
        throw ModelError(e.what());
    }
    return SentencePieceModel::fromBytes(bytes, path);
}

}  // namespace attnviz
