#include "window/decode_worker.h"

#include "base/errors.h"

#include <QMetaObject>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <chrono>

namespace attnviz::ui {

DecodeWorker::DecodeWorker(QObject* parent) : QObject(parent) {
    pool_.setMaxThreadCount(1);  // one decode at a time; a stale one stops at its next step
    debounce_.setSingleShot(true);
    debounce_.setInterval(100);
    connect(&debounce_, &QTimer::timeout, this, [this] { start(latest_->load(), std::move(scheduled_)); });
}

DecodeWorker::~DecodeWorker() {
    debounce_.stop();
    ++*latest_;  // makes the running job stop early
    pool_.waitForDone();
}

DecodeOutcome DecodeWorker::run(const DecodeRequest& request, const std::atomic<quint64>* latest, quint64 generation) {
    const auto t0 = std::chrono::steady_clock::now();
    DecodeOutcome out;
    out.generation = generation;
    out.request = request;
    const auto stale = [&] { return latest && latest->load() != generation; };
    try {
        const Model& model = *request.model;
        out.source = tokenizeSource(model, request.source);
        const int words = int(out.source.tokens.size()) - 2;
        if (request.max_source_tokens > 0 && words > request.max_source_tokens) {
            // Keep <sos> + the first max tokens, then <eos>.
            out.source_tokens_cut = words - request.max_source_tokens;
            out.source.tokens.resize(size_t(request.max_source_tokens) + 1);
            out.source.ids.resize(size_t(request.max_source_tokens) + 1);
            out.source.tokens.push_back(kSpecialTokens[kEos]);
            out.source.ids.push_back(kEos);
        }
        TokenizedText reference;
        std::vector<int> prefix = request.forced_prefix;
        if (!request.reference.empty()) {
            reference = tokenizeTarget(model, request.reference);
            if (prefix.empty()) prefix = reference.ids;
        }
        DecodeOptions options;
        options.top_k = request.top_k;
        const int S = int(out.source.tokens.size());
        options.max_len = std::max(defaultMaxLength(S), int(prefix.size()));

        DecodingSession session(request.model, out.source, options);
        for (size_t i = 0; i < prefix.size(); ++i) {
            if (stale()) {
                out.cancelled = true;
                return out;
            }
            session.force(int(i), prefix[i]);
            if (prefix[i] == kEos) break;
        }
        // Greedy from there (nothing to do when the prefix ended in <eos>).
        while (session.forward())
            if (stale()) {
                out.cancelled = true;
                return out;
            }
        session.seek(int(session.steps().size()));
        out.steps = session.steps();
        out.result = resultFromSession(session);
        // Forced reference words keep the reference's spelling (an unknown word stays readable).
        for (size_t i = 0; i < out.steps.size() && i < reference.ids.size(); ++i)
            if (out.steps[i].token == reference.ids[i]) out.result.target_tokens[i] = reference.tokens[i];
    } catch (const std::exception& e) {  // InputError (invalid UTF-8, bad id) or anything the engine throws
        out.error = QString::fromStdString(e.what());
        out.steps.clear();
        out.result = {};
    }
    out.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return out;
}

quint64 DecodeWorker::submit(DecodeRequest request) {
    debounce_.stop();
    const quint64 g = ++*latest_;
    start(g, std::move(request));
    return g;
}

quint64 DecodeWorker::schedule(DecodeRequest request) {
    const quint64 g = ++*latest_;  // a running job for an older text stops now
    scheduled_ = std::move(request);
    debounce_.start();
    return g;
}

void DecodeWorker::cancelAll() {
    debounce_.stop();
    ++*latest_;
}

void DecodeWorker::start(quint64 generation, DecodeRequest request) {
    if (!request.model) return;
    ++pending_;
    auto latest = latest_;
    (void)QtConcurrent::run(&pool_, [this, latest, generation, request = std::move(request)] {
        auto outcome = std::make_shared<const DecodeOutcome>(run(request, latest.get(), generation));
        // Back on the UI thread; Qt drops the call if the worker is gone by then.
        QMetaObject::invokeMethod(
            this,
            [this, outcome] {
                --pending_;
                if (outcome->cancelled || outcome->generation != latest_->load()) return;  // stale
                emit finished(outcome);
            },
            Qt::QueuedConnection);
    });
}

}  // namespace attnviz::ui
