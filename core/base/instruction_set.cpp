#include "base/instruction_set.h"

namespace attnviz {

const char* engineInstructionSet() {
#if !defined(__x86_64__)
    return "not x86-64";
#elif defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512CD__) && defined(__AVX512DQ__) && \
    defined(__AVX512VL__)
    return "x86-64-v4";
#elif defined(__AVX2__) && defined(__FMA__) && defined(__BMI2__) && defined(__F16C__)
    return "x86-64-v3";
#elif defined(__SSE4_2__) && defined(__POPCNT__) && defined(__SSSE3__)
    return "x86-64-v2";
#else
    return "x86-64";
#endif
}

}  // namespace attnviz
