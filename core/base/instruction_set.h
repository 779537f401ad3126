// Which instruction set this copy of the engine was compiled for. A package carries the engine once per x86-64 level
// and the dynamic loader picks the best copy the CPU runs (docs/performance.md, "The package's instruction sets"), so
// a program asks the engine, not its own compile flags.
#pragma once

namespace attnviz {

// The highest x86-64 level (psABI: "x86-64", "x86-64-v2", "x86-64-v3" with AVX2 and FMA, "x86-64-v4" with AVX-512)
// whose features the compiler could use in the engine, or "not x86-64".
const char* engineInstructionSet();

}  // namespace attnviz
