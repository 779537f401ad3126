#include "decode/parallel.h"

#include "kernels/thread_pool.h"

namespace attnviz {

void runInParallel(int tasks, const std::function<void(int)>& task) {
    auto run = [&task](int k) { task(k); };
    ThreadPool::engine().run(tasks, run);
}

}  // namespace attnviz
