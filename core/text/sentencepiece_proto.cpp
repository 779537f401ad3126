#include "text/sentencepiece_proto.h"

#include "base/errors.h"
#include "base/utf8.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace attnviz {

namespace {

// What is wrong, before the file's name is put in front.
struct Bad {
    std::string what;
};

// Protobuf wire types (protobuf.dev/programming-guides/encoding).
enum WireType : int { kVarint = 0, kFixed64 = 1, kLength = 2, kFixed32 = 5 };

struct Field {
    uint64_t number = 0;
    int type = 0;
    uint64_t varint = 0;        // kVarint, or the bits of a fixed32/fixed64
    std::string_view bytes;     // kLength: the payload
    size_t begin = 0, end = 0;  // the field's bytes (tag included) in the message
};

// Reads one message's fields in order; every length stays inside the message.
class WireReader {
public:
    explicit WireReader(std::string_view data) : data_(data) {}
    bool done() const { return pos_ == data_.size(); }

    Field next() {
        Field f;
        f.begin = pos_;
        const uint64_t tag = varint();
        f.number = tag >> 3;
        f.type = static_cast<int>(tag & 7);
        if (f.number == 0 || f.number > (uint64_t(1) << 29) - 1) throw Bad{"a field number out of range"};
        switch (f.type) {
        case kVarint:
            f.varint = varint();
            break;
        case kFixed64:
            f.varint = fixed(8);
            break;
        case kFixed32:
            f.varint = fixed(4);
            break;
        case kLength: {
            const uint64_t n = varint();
            if (n > data_.size() - pos_) throw Bad{"a length runs past the end of its message"};
            f.bytes = data_.substr(pos_, n);
            pos_ += n;
            break;
        }
        default:
            throw Bad{"wire type " + std::to_string(f.type) + " (protobuf groups are not used in a model)"};
        }
        f.end = pos_;
        return f;
    }

private:
    uint64_t varint() {
        uint64_t value = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            if (pos_ == data_.size()) throw Bad{"a number runs past the end of its message"};
            const auto b = static_cast<unsigned char>(data_[pos_++]);
            if (shift == 63 && b > 1) throw Bad{"a number of more than 64 bits"};
            value |= uint64_t(b & 0x7F) << shift;
            if (!(b & 0x80)) return value;
        }
        throw Bad{"a number of more than 10 bytes"};
    }
    uint64_t fixed(size_t n) {
        if (data_.size() - pos_ < n) throw Bad{"a number runs past the end of its message"};
        uint64_t value = 0;
        for (size_t i = 0; i < n; ++i) value |= uint64_t(static_cast<unsigned char>(data_[pos_ + i])) << (8 * i);
        pos_ += n;
        return value;
    }

    std::string_view data_;
    size_t pos_ = 0;
};

void expectType(const Field& f, int type, const std::string& what) {
    if (f.type != type) throw Bad{what + " has the wrong wire type"};
}

// ModelProto.SentencePiece: 1 piece, 2 score (float), 3 type (NORMAL 1 … BYTE 6).
void checkPiece(std::string_view message, size_t index) {
    const std::string which = "piece " + std::to_string(index);
    std::string_view piece;
    WireReader r(message);
    while (!r.done()) {
        const Field f = r.next();
        if (f.number == 1) {
            expectType(f, kLength, which);
            piece = f.bytes;
        } else if (f.number == 2) {
            expectType(f, kFixed32, which + "'s score");
            float score;
            const auto bits = static_cast<uint32_t>(f.varint);
            std::memcpy(&score, &bits, sizeof score);
            if (!std::isfinite(score)) throw Bad{which + " has a score that is not a finite number"};
        } else if (f.number == 3) {
            expectType(f, kVarint, which + "'s type");
            if (f.varint < 1 || f.varint > 6) throw Bad{which + " has an unknown type " + std::to_string(f.varint)};
        }
    }
    if (piece.empty()) throw Bad{which + " is empty"};
    if (!isValidUtf8(piece)) throw Bad{which + " is not valid UTF-8"};
    if (piece.find('\0') != std::string_view::npos) throw Bad{which + " contains a NUL byte"};
}

// TrainerSpec: the model type (field 3: UNIGRAM 1, BPE 2, WORD 3, CHAR 4) decides what the library builds; the
// unknown surface (field 44, " ⁇ ") is what decoding writes for an unknown piece.
void checkTrainerSpec(std::string_view message) {
    WireReader r(message);
    while (!r.done()) {
        const Field f = r.next();
        if (f.number == 3 && f.type == kVarint && (f.varint < 1 || f.varint > 4))
            throw Bad{"unknown model type " + std::to_string(f.varint) + " (unigram 1, BPE 2, word 3, char 4)"};
        if (f.number == 44 && f.type == kLength && !isValidUtf8(f.bytes))
            throw Bad{"the unknown piece's surface is not valid UTF-8"};
    }
}

uint32_t readU32(std::string_view s, size_t at) {
    uint32_t v = 0;
    for (size_t i = 0; i < 4; ++i) v |= uint32_t(static_cast<unsigned char>(s[at + i])) << (8 * i);
    return v;
}

// valid[p]: the replacement string starting at byte p (up to the next NUL, or the map's end, where the library's
// std::string ends in one) is valid UTF-8. One pass from the end.
std::vector<bool> validReplacements(std::string_view normalized) {
    std::vector<bool> valid(normalized.size() + 1, false);
    valid[normalized.size()] = true;
    for (size_t p = normalized.size(); p-- > 0;) {
        if (normalized[p] == '\0') {
            valid[p] = true;
            continue;
        }
        const Utf8Char ch = decodeUtf8(normalized, p);
        valid[p] = ch.length > 0 && valid[p + ch.length];
    }
    return valid;
}

// Darts-clone's unit (third_party/darts_clone/darts.h): has_leaf bit 8, value the low 31 bits, label the low 8 bits
// and bit 31, offset bits 10… shifted by 8 when bit 9 is set.
bool hasLeaf(uint32_t u) { return (u >> 8) & 1; }
uint32_t labelOf(uint32_t u) { return u & ((1U << 31) | 0xFF); }
uint32_t offsetOf(uint32_t u) { return (u >> 10) << ((u & (1U << 9)) >> 6); }

// The charsmap is <trie bytes, u32 LE><double-array units><replacement strings, NUL-separated>. The library's
// prefix search starts at unit 0 and, for every input byte c, reads unit (base ^ c) before comparing its label; a
// leaf's value is an offset into the strings. So from every base the search can reach, all 256 units it may read
// (base | 0xFF is the farthest), and each value, must be inside the map. Each base is visited once.
void checkCharsMap(std::string_view blob, const std::string& which) {
    if (blob.size() <= 4) throw Bad{which + " is too short"};
    const uint32_t trie_bytes = readU32(blob, 0);
    if (trie_bytes < 4 || trie_bytes % 4 != 0 || trie_bytes > blob.size() - 4)
        throw Bad{which + " has a trie size (" + std::to_string(trie_bytes) + " bytes) that does not fit it"};
    const std::string_view normalized = blob.substr(4 + trie_bytes);
    std::vector<uint32_t> units(trie_bytes / 4);
    for (size_t i = 0; i < units.size(); ++i) units[i] = readU32(blob, 4 + 4 * i);
    const std::vector<bool> valid = validReplacements(normalized);
    const Bad outside{which + " points outside itself"};
    std::vector<bool> seen(units.size(), false);
    std::vector<uint32_t> bases{offsetOf(units[0])};
    while (!bases.empty()) {
        const uint32_t base = bases.back();
        bases.pop_back();
        if ((base | 0xFF) >= units.size()) throw outside;
        if (seen[base]) continue;
        seen[base] = true;
        for (uint32_t c = 0; c < 256; ++c) {
            const uint32_t at = base ^ c;
            const uint32_t u = units[at];
            if (labelOf(u) != c) continue;
            const uint32_t next = at ^ offsetOf(u);
            if (hasLeaf(u)) {
                if (next >= units.size()) throw outside;
                const uint32_t value = units[next] & ((1U << 31) - 1);
                if (value >= normalized.size()) throw outside;
                if (!valid[value]) throw Bad{which + " has a replacement that is not valid UTF-8"};
            }
            bases.push_back(next);
        }
    }
}

// NormalizerSpec: field 2 is the precompiled character map.
void checkNormalizerSpec(std::string_view message, const std::string& which) {
    WireReader r(message);
    while (!r.done()) {
        const Field f = r.next();
        if (f.number == 2) {
            expectType(f, kLength, which);
            if (!f.bytes.empty()) checkCharsMap(f.bytes, which);
        }
    }
}

// ModelProto: 1 pieces, 2 trainer_spec, 3 normalizer_spec, 4 self_test_data (left out), 5 denormalizer_spec.
std::string checkModel(std::string_view bytes) {
    std::string kept;
    kept.reserve(bytes.size());
    size_t pieces = 0;
    WireReader r(bytes);
    while (!r.done()) {
        const Field f = r.next();
        if (f.number == 4) continue;
        kept.append(bytes.substr(f.begin, f.end - f.begin));
        if (f.number == 1) {
            expectType(f, kLength, "piece " + std::to_string(pieces));
            checkPiece(f.bytes, pieces++);
        } else if (f.number == 2) {
            expectType(f, kLength, "the trainer spec");
            checkTrainerSpec(f.bytes);
        } else if (f.number == 3 || f.number == 5) {
            const std::string which = f.number == 3 ? "the normalizer's character map" : "the denormalizer's map";
            expectType(f, kLength, which);
            checkNormalizerSpec(f.bytes, which);
        }
    }
    if (pieces == 0) throw Bad{"it has no pieces"};
    return kept;
}

}  // namespace

std::string checkedSentencePieceProto(std::string_view bytes, const std::string& name) {
    if (bytes.empty()) throw ModelError(name + ": not a SentencePiece model: the file is empty");
    if (bytes.size() > kMaxSentencePieceModelBytes)
        throw ModelError(name + ": not a SentencePiece model: " + std::to_string(bytes.size()) +
                         " bytes, more than the " + std::to_string(kMaxSentencePieceModelBytes) + " a model may have");
    try {
        return checkModel(bytes);
    } catch (const Bad& bad) {
        throw ModelError(name + ": not a SentencePiece model: " + bad.what);
    }
}

}  // namespace attnviz
