#include "window/explain_worker.h"
#include "base/errors.h"

#include "heatmap/utf8_text.h"
#include "state/latest_wins.h"

namespace attnviz::ui {

namespace {
struct Stopped {};  // thrown from the progress hook of a request no longer wanted

struct Outcome {
    std::shared_ptr<const Explanation> explanation;
    QString error;
};
}  // namespace

ExplainWorker::ExplainWorker(QObject* parent) : QObject(parent), runner_(new LatestWins(this)) {}

void ExplainWorker::submit(std::shared_ptr<const Model> model, std::shared_ptr<const PrefixDecoding> decode,
                           ExplainMethod method, ExplainOptions options) {
    runner_->submit(
        [this, model, decode, method, options](const LatestWins::Stale& stale) mutable {
            // After each pass: a stale request stops there (Stopped unwinds the method), a live one reports.
            options.progress = [this, stale](size_t done, size_t all) {
                if (stale()) throw Stopped{};
                QMetaObject::invokeMethod(
                    this, [this, done, all] { emit progressed(int(done), int(all)); }, Qt::QueuedConnection);
            };
            Outcome o;
            try {
                o.explanation =
                    std::make_shared<const Explanation>(explainDecode(*model, decode->result, method, options));
            } catch (const Stopped&) {
                // cancelled or overtaken: the result is not delivered
            } catch (const std::exception& e) {
                o.error = qs(errorMessage(e));
            }
            return o;
        },
        [this, decode](Outcome o) { emit finished(decode, std::move(o.explanation), o.error); });
}

void ExplainWorker::cancelAll() { runner_->cancelAll(); }
bool ExplainWorker::isBusy() const { return runner_->isBusy(); }
void ExplainWorker::waitForDone() { runner_->waitForDone(); }

}  // namespace attnviz::ui
