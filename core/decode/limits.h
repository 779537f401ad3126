// Bounds on what a decode is asked to read (docs/robustness.md), shared by the window and attnviz-cli.
#pragma once
#include <cstdint>

namespace attnviz {

// The longest source decoded by default, in tokens without <sos>/<eos>: the window cuts a longer paste to this many
// tokens so that it stays responsive, and decode, render and eval refuse a longer source unless --max-source-len
// says otherwise.
inline constexpr int kMaxSourceTokens = 1000;

// The widest beam search (attnviz-cli's --beam range), and the most its tree may keep of attention rows, scores and
// nodes (beamTreeBytes in decode/decoding.h): a wider or longer search is refused with a message saying what to
// lower. The tree keeps one attention row (and one row of scores) per expansion, so the rows grow as K·T·S and the
// nodes as K²·T: at the window's widths (≤ 32) on a 1,000-word source both stay far below the limit (32 × 2,014 ×
// 1,002 × 8 bytes ≈ 0.5 GB of rows at most), and what the limit catches is attnviz-cli's --beam up to 1000, where
// the K² nodes of ~60 bytes dominate (1000 × 1000 × 214 steps ≈ 12 GiB on a 100-word source).
inline constexpr int kMaxBeamWidth = 1000;
inline constexpr uint64_t kMaxBeamTreeBytes = uint64_t(4) << 30;

}  // namespace attnviz
