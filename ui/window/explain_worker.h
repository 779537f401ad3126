// Explanations off the UI thread: the method chosen for the decode shown (core's explainDecode) is computed on a
// private one-thread pool; only the newest request's result is delivered, so a result never belongs to an older
// decode or method than the one asked last. The worker schedules; what is computed is core/explain's.
#pragma once
#include "decode/prefix_decode.h"
#include "explain/explanation.h"

#include <QObject>
#include <QString>
#include <QThreadPool>

#include <atomic>
#include <memory>

namespace attnviz::ui {

class ExplainWorker : public QObject {
    Q_OBJECT
public:
    explicit ExplainWorker(QObject* parent = nullptr);
    ~ExplainWorker() override;
    // Starts computing `method` for `decode` (made by `model`); an older request's result will not arrive.
    void submit(std::shared_ptr<const Model> model, std::shared_ptr<const PrefixDecoding> decode, ExplainMethod method,
                ExplainOptions options = {});
    // Drops what is running (the method became attention, the decode was cleared).
    void cancelAll() { ++*latest_; }
    bool isBusy() const { return pending_ > 0; }
    void waitForDone() { pool_.waitForDone(); }

signals:
    // `explanation` is null and `error` says why when the method could not be computed.
    void finished(std::shared_ptr<const attnviz::PrefixDecoding> decode,
                  std::shared_ptr<const attnviz::Explanation> explanation, QString error);

private:
    QThreadPool pool_;
    std::shared_ptr<std::atomic<quint64>> latest_ = std::make_shared<std::atomic<quint64>>(0);
    int pending_ = 0;
};

}  // namespace attnviz::ui
