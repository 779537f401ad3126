// A thread pool of one helper, whatever the machine: work shared between it and the calling thread runs on two cores.
#pragma once
#include "kernels/thread_pool.h"

namespace attnviz::testing {

inline ThreadPool& twoCores() {
    static ThreadPool pool(1);
    return pool;
}

}  // namespace attnviz::testing
