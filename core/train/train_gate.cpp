#include "train/train_gate.h"

namespace attnviz {

void TrainGate::pause() {
    std::lock_guard lock(mutex_);
    paused_ = true;
}

void TrainGate::resume() {
    {
        std::lock_guard lock(mutex_);
        paused_ = false;
    }
    changed_.notify_all();
}

void TrainGate::stop() {
    {
        std::lock_guard lock(mutex_);
        stopped_ = true;
    }
    changed_.notify_all();
}

bool TrainGate::paused() const {
    std::lock_guard lock(mutex_);
    return paused_;
}

bool TrainGate::stopped() const {
    std::lock_guard lock(mutex_);
    return stopped_;
}

}  // namespace attnviz
