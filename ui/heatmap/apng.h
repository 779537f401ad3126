// Animated PNG (APNG 1.0, https://wiki.mozilla.org/APNG_Specification) assembled from ordinary PNG files, as Qt
// writes them: lossless frames of any number of colours that every current browser and slide program plays, and
// that a viewer without APNG support shows as a still (the first frame).
//
// A PNG is an 8-byte signature, then chunks: length (4 bytes, big-endian, of the data only), type (4 ASCII
// letters), data, CRC-32 (zlib's crc32) of type and data. An APNG adds three chunk types to a PNG's IHDR ... IDAT ...
// IEND:
//   acTL (8 bytes, after IHDR):  num_frames (4), num_plays (4; 0: loop forever)
//   fcTL (26 bytes, one before each frame's data):  sequence_number (4), width (4), height (4), x_offset (4),
//        y_offset (4), delay_num (2), delay_den (2) (the frame shows delay_num / delay_den seconds),
//        dispose_op (1; 0 = none), blend_op (1; 0 = source: the frame replaces the canvas)
//   fdAT (frames after the first):  sequence_number (4), then the bytes an IDAT of that frame would hold
// The first frame's data stays in IDAT chunks (it is also the still image). Sequence numbers count the fcTL and
// fdAT chunks together from 0, in file order.
#pragma once
#include <QByteArray>
#include <vector>

namespace attnviz::ui {

// The frames (each a whole PNG file; all with the same IHDR: size, bit depth, colour type; no palette) as an APNG
// where each frame shows `delay_ms` milliseconds (1 … 65535) and the animation plays `plays` times (0: forever).
// Throws std::runtime_error saying what is wrong (no frames, a frame that is not a PNG, frames that differ).
QByteArray assembleApng(const std::vector<QByteArray>& frames, int delay_ms, int plays = 0);

}  // namespace attnviz::ui
