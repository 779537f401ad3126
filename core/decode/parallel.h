// Independent work side by side on the engine's threads (decoding a file's sentences at once). Each decode run this
// way should set DecodeOptions::parallel_steps = false: every core is busy with a sentence of its own already.
#pragma once
#include <functional>

namespace attnviz {

// task(k) for k in [0, tasks): task 0 on this thread, the others on the engine's helper threads. Returns when all are
// done, then rethrows the exception of the lowest task that threw, if any.
void runInParallel(int tasks, const std::function<void(int)>& task);

}  // namespace attnviz
