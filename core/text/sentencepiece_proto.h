// The checks a SentencePiece model file (`.spm`, a serialized sentencepiece.ModelProto) passes before the library
// sees it. libsentencepiece trusts its input: an unknown model type is a null pointer it then calls, and the
// normalizer's character map is a double-array trie whose offsets and values index memory unchecked. So the
// protobuf wire format is walked here, and what the library would follow blindly is checked first.
#pragma once
#include <string>
#include <string_view>

namespace attnviz {

// The largest .spm read (an opus-mt model's is about 0.8 MB; 64k pieces with the NFKC map about 1.5 MB).
inline constexpr size_t kMaxSentencePieceModelBytes = size_t(64) << 20;

// Checks `bytes` as a ModelProto and returns it without its self-test samples (the library would re-encode them on
// load and log mismatches with the file's text, unescaped, to stderr). Throws ModelError "NAME: not a SentencePiece
// model: WHAT" (WHAT names the field: "piece 12 is not valid UTF-8", "the normalizer's character map points outside
// itself", ...). Checked: the wire format of the model and of each message in it the library reads (field tags,
// varints, lengths inside their message); the model type (unigram, BPE, word, char) and the unknown piece's surface
// (UTF-8); each piece non-empty, valid UTF-8 without NUL, its type known, its score finite; each character map
// (normalizer and denormalizer) a trie whose every reachable transition and value stays inside the map, and whose
// replacement strings are valid UTF-8. Time linear in the size of the file.
std::string checkedSentencePieceProto(std::string_view bytes, const std::string& name);

}  // namespace attnviz
