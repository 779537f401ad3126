#include "heatmap/apng.h"

#include <zlib.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace attnviz::ui {
namespace {

const QByteArray kSignature("\x89PNG\r\n\x1a\n", 8);

struct Chunk {
    QByteArray type, data;
};

// The chunks of a PNG file, each checked against the file's end and its CRC.
std::vector<Chunk> readChunks(const QByteArray& png, size_t frame) {
    const std::string which = "frame " + std::to_string(frame + 1);
    if (!png.startsWith(kSignature)) throw std::runtime_error(which + " is not a PNG");
    std::vector<Chunk> chunks;
    qsizetype at = kSignature.size();
    while (at + 12 <= png.size()) {
        const auto* p = reinterpret_cast<const uchar*>(png.constData() + at);
        const quint32 length = quint32(p[0]) << 24 | quint32(p[1]) << 16 | quint32(p[2]) << 8 | quint32(p[3]);
        if (length > quint32(png.size() - at - 12)) throw std::runtime_error(which + ": a chunk runs past the end");
        Chunk c{png.mid(at + 4, 4), png.mid(at + 8, qsizetype(length))};
        const uLong crc = crc32(crc32(0, p + 4, 4), p + 8, uInt(length));
        const uchar* q = p + 8 + length;
        if (crc != (quint32(q[0]) << 24 | quint32(q[1]) << 16 | quint32(q[2]) << 8 | quint32(q[3])))
            throw std::runtime_error(which + ": chunk " + c.type.toStdString() + " has a bad CRC");
        at += 12 + qsizetype(length);
        const bool end = c.type == "IEND";
        chunks.push_back(std::move(c));
        if (end) return chunks;
    }
    throw std::runtime_error(which + ": the PNG has no IEND chunk");
}

void appendUint(QByteArray& out, quint32 v, int bytes) {
    for (int k = bytes - 1; k >= 0; --k) out.append(char((v >> (8 * k)) & 0xff));
}

void appendChunk(QByteArray& out, const char* type, const QByteArray& data) {
    appendUint(out, quint32(data.size()), 4);
    const qsizetype start = out.size();
    out.append(type, 4);
    out.append(data);
    const auto* bytes = reinterpret_cast<const Bytef*>(out.constData() + start);
    appendUint(out, quint32(crc32(0, bytes, uInt(out.size() - start))), 4);
}

QByteArray frameControl(quint32 sequence, const QByteArray& ihdr, int delay_ms) {
    QByteArray fc;
    appendUint(fc, sequence, 4);
    fc.append(ihdr.left(8));  // width and height, as the IHDR holds them
    appendUint(fc, 0, 4);     // x_offset
    appendUint(fc, 0, 4);     // y_offset
    appendUint(fc, quint32(delay_ms), 2);
    appendUint(fc, 1000, 2);  // delay_den: milliseconds
    fc.append(char(0));       // dispose_op: none
    fc.append(char(0));       // blend_op: source
    return fc;
}

}  // namespace

QByteArray assembleApng(const std::vector<QByteArray>& frames, int delay_ms, int plays) {
    if (frames.empty()) throw std::runtime_error("an animation needs at least one frame");
    if (delay_ms < 1 || delay_ms > 65535)
        throw std::runtime_error("the frame delay must be 1 to 65535 ms (got " + std::to_string(delay_ms) + ")");
    QByteArray out = kSignature, ihdr;
    quint32 sequence = 0;
    for (size_t f = 0; f < frames.size(); ++f) {
        const std::vector<Chunk> chunks = readChunks(frames[f], f);
        if (chunks.front().type != "IHDR" || chunks.front().data.size() != 13)
            throw std::runtime_error("frame " + std::to_string(f + 1) + " does not start with an IHDR chunk");
        if (f == 0) {
            ihdr = chunks.front().data;
            appendChunk(out, "IHDR", ihdr);
            QByteArray actl;
            appendUint(actl, quint32(frames.size()), 4);
            appendUint(actl, quint32(plays), 4);
            appendChunk(out, "acTL", actl);
        } else if (chunks.front().data != ihdr) {
            throw std::runtime_error("frame " + std::to_string(f + 1) +
                                     " differs from the first in size or pixel format");
        }
        appendChunk(out, "fcTL", frameControl(sequence++, ihdr, delay_ms));
        for (const Chunk& c : chunks) {
            if (c.type == "PLTE") throw std::runtime_error("frames with a palette are not supported");
            if (c.type != "IDAT") continue;  // ancillary chunks (text, pHYs) are left out
            if (f == 0) {
                appendChunk(out, "IDAT", c.data);
            } else {
                QByteArray fd;
                appendUint(fd, sequence++, 4);
                appendChunk(out, "fdAT", fd + c.data);
            }
        }
    }
    appendChunk(out, "IEND", {});
    return out;
}

}  // namespace attnviz::ui
