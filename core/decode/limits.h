// Bounds on what a decode is asked to read (docs/robustness.md), shared by the window and attnviz-cli.
#pragma once

namespace attnviz {

// The longest source decoded by default, in tokens without <sos>/<eos>: the window cuts a longer paste to this many
// tokens so that it stays responsive, and decode, render and eval refuse a longer source unless --max-source-len
// says otherwise.
inline constexpr int kMaxSourceTokens = 1000;

}  // namespace attnviz
