// A SentencePiece model file (a Marian folder's source.spm / target.spm) read from disk.
#pragma once
#include "text/sentencepiece_model.h"

#include <string>

namespace attnviz {

// Reads `path` (a regular file, symlinks followed, at most kMaxSentencePieceModelBytes) and loads it. Throws
// ModelError "PATH: ...": missing, not a regular file, too large, or not a SentencePiece model.
SentencePieceModel readSentencePieceModel(const std::string& path);

}  // namespace attnviz
