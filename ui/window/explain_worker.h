// Explanations off the UI thread: the method chosen for the decode shown (core's explainDecode) is computed through
// a LatestWins runner, so a result never belongs to an older decode or method than the one asked last. The worker
// schedules; what is computed is core/explain's.
#pragma once
#include "decode/prefix_decode.h"
#include "explain/explanation.h"

#include <QObject>
#include <QString>

#include <memory>

namespace attnviz::ui {

class LatestWins;

class ExplainWorker : public QObject {
    Q_OBJECT
public:
    explicit ExplainWorker(QObject* parent = nullptr);
    // Starts computing `method` for `decode` (made by `model`); an older request's result will not arrive.
    void submit(std::shared_ptr<const Model> model, std::shared_ptr<const PrefixDecoding> decode, ExplainMethod method,
                ExplainOptions options = {});
    // Drops what is running (the method became attention, the decode was cleared): it stops at its next pass.
    void cancelAll();
    bool isBusy() const;
    void waitForDone();

signals:
    // `explanation` is null and `error` says why when the method could not be computed.
    void finished(std::shared_ptr<const attnviz::PrefixDecoding> decode,
                  std::shared_ptr<const attnviz::Explanation> explanation, QString error);
    // The running request's model passes: `done` of `total` (core's ExplainOptions::progress). A request that is
    // cancelled or overtaken stops at its next pass.
    void progressed(int done, int total);

private:
    LatestWins* runner_;
};

}  // namespace attnviz::ui
