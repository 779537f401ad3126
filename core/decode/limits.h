// Bounds on what a decode is asked to read (docs/robustness.md), shared by the window and attnviz-cli.
#pragma once
#include <cstdint>

namespace attnviz {

// The longest source decoded by default, in tokens without <sos>/<eos>: the window cuts a longer paste to this many
// tokens so that it stays responsive, and decode, render and eval refuse a longer source unless --max-source-len
// says otherwise.
inline constexpr int kMaxSourceTokens = 1000;

// The widest beam search (attnviz-cli's --beam range), and the most its tree may keep of attention rows and scores
// (beamTreeBytes in decode/decoding.h): a wider or longer search is refused with a message saying what to lower.
inline constexpr int kMaxBeamWidth = 1000;
inline constexpr uint64_t kMaxBeamTreeBytes = uint64_t(4) << 30;

}  // namespace attnviz
