// Restores the process-wide two-core switch (core/row_split.h) whatever a test does with it.
#pragma once
#include "kernels/row_split.h"

namespace attnviz::testing {

struct SplittingGuard {
    bool was = rowSplitting();
    ~SplittingGuard() { setRowSplitting(was); }
};

}  // namespace attnviz::testing
