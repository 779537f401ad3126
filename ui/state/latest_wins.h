// "The latest request wins, off the UI thread": each request's work runs on a private one-thread pool and its
// result is delivered on the UI thread only if no newer request came in meanwhile; a request already stale when its
// turn comes is skipped, and a running one may stop early. What is computed is the caller's; this only schedules.
// The window's decodes (DecodeWorker), the compare view's model B, the explanations and their scores all run here.
#pragma once
#include <QMetaObject>
#include <QObject>
#include <QPointer>
#include <QThreadPool>

#include <atomic>
#include <functional>
#include <memory>
#include <type_traits>
#include <utility>

namespace attnviz::ui {

class LatestWins : public QObject {
public:
    explicit LatestWins(QObject* parent = nullptr) : QObject(parent) { pool_.setMaxThreadCount(1); }
    ~LatestWins() override {
        cancelAll();
        pool_.waitForDone();
    }
    // Whether a request is stale: true once a newer request or cancelAll() came in.
    using Stale = std::function<bool()>;

    // work() runs off the UI thread and returns a value (it must not throw); a work(stale) that takes a Stale may stop
    // early once it is stale, its result then dropped. deliver(value) runs on the UI thread, unless a newer request or
    // cancelAll() came in meanwhile.
    template <class Work, class Deliver>
    void submit(Work work, Deliver deliver) {
        const quint64 generation = ++*latest_;
        ++pending_;
        QPointer<LatestWins> self(this);
        auto latest = latest_;
        pool_.start([self, latest, generation, work = std::move(work), deliver = std::move(deliver)]() mutable {
            const Stale stale = [latest, generation] { return latest->load() != generation; };
            auto result = stale() ? nullptr : std::make_shared<decltype(run(work, stale))>(run(work, stale));
            QMetaObject::invokeMethod(
                self.data(),
                [self, latest, generation, result, deliver = std::move(deliver)]() mutable {
                    if (!self) return;
                    --self->pending_;
                    if (result && latest->load() == generation) deliver(std::move(*result));
                },
                Qt::QueuedConnection);
        });
    }
    // Drops what is running or waiting: its result will not be delivered.
    void cancelAll() { ++*latest_; }
    bool isBusy() const { return pending_ > 0; }
    void waitForDone() { pool_.waitForDone(); }

private:
    template <class Work>
    static auto run(Work& work, const Stale& stale) {
        if constexpr (std::is_invocable_v<Work&, const Stale&>)
            return work(stale);
        else
            return work();
    }

    QThreadPool pool_;
    std::shared_ptr<std::atomic<quint64>> latest_ = std::make_shared<std::atomic<quint64>>(0);
    int pending_ = 0;
};

}  // namespace attnviz::ui
