#include "window/explain_worker.h"

#include <QMetaObject>
#include <QPointer>

namespace attnviz::ui {

ExplainWorker::ExplainWorker(QObject* parent) : QObject(parent) { pool_.setMaxThreadCount(1); }

ExplainWorker::~ExplainWorker() {
    cancelAll();
    pool_.waitForDone();
}

void ExplainWorker::submit(std::shared_ptr<const Model> model, std::shared_ptr<const PrefixDecoding> decode,
                           ExplainMethod method, ExplainOptions options) {
    const quint64 generation = ++*latest_;
    ++pending_;
    QPointer<ExplainWorker> self(this);
    auto latest = latest_;
    pool_.start([self, latest, generation, model = std::move(model), decode = std::move(decode), method, options] {
        std::shared_ptr<const Explanation> result;
        QString error;
        if (latest->load() == generation) {  // else a newer request came in while this one waited
            try {
                result = std::make_shared<const Explanation>(explainDecode(*model, decode->result, method, options));
            } catch (const std::exception& e) {
                error = QString::fromUtf8(e.what());
            }
        }
        QMetaObject::invokeMethod(
            self.data(),
            [self, latest, generation, decode, result, error] {
                if (!self) return;
                --self->pending_;
                if (latest->load() == generation) emit self->finished(decode, result, error);
            },
            Qt::QueuedConnection);
    });
}

}  // namespace attnviz::ui
