// Pause, resume and stop for a training run driven from another thread (the window's Pause / Resume / Stop). The
// training thread asks the gate between two updates; while paused it sleeps on a condition variable (no polling)
// until resumed or stopped.
#pragma once
#include <condition_variable>
#include <mutex>

namespace attnviz {

class TrainGate {
public:
    // Any thread.
    void pause();
    void resume();
    void stop();  // also ends a pause; the training stops before its next update
    bool paused() const;
    bool stopped() const;

    // The training thread, between two updates: returns at once unless paused; while paused, calls `onPause` once
    // (before sleeping) and sleeps until resume() or stop(). Returns false when the run must stop.
    template <typename OnPause>
    bool passOrWait(OnPause&& onPause) {
        std::unique_lock lock(mutex_);
        if (paused_ && !stopped_) {
            lock.unlock();
            onPause();
            lock.lock();
            changed_.wait(lock, [this] { return !paused_ || stopped_; });
        }
        return !stopped_;
    }

private:
    mutable std::mutex mutex_;
    std::condition_variable changed_;
    bool paused_ = false, stopped_ = false;
};

}  // namespace attnviz
