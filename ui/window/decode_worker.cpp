#include "window/decode_worker.h"
#include "heatmap/utf8_text.h"

#include "base/errors.h"

#include <QMetaObject>
#include <QtConcurrent/QtConcurrentRun>

#include <chrono>
#include <functional>

namespace attnviz::ui {

namespace {

// The plain decode (the cache's when it holds this request), then the intervened one; an intervention the engine
// refuses leaves the plain decode and says why.
void decodeIntervened(DecodeOutcome& out, const DecodeRequest& request, PrefixDecodeInput input,
                      const std::function<bool()>& stale, const PlainDecodeCache* cache) {
    std::shared_ptr<const PrefixDecoding> plain;
    if (cache && cache->holds(request)) {
        plain = cache->decoding;
    } else {
        plain = std::make_shared<const PrefixDecoding>(prefixDecode(request.model, input, stale));
    }
    if (plain->stopped) {
        out.stopped = true;
        return;
    }
    input.options.interventions = request.interventions;
    try {
        static_cast<PrefixDecoding&>(out) = prefixDecode(request.model, std::move(input), stale);
        out.plain = std::move(plain);
    } catch (const InputError& e) {
        static_cast<PrefixDecoding&>(out) = *plain;
        out.intervention_error = qs(errorMessage(e));
    }
}

// What a finished decode leaves for the next request: its plain decode.
void keepPlain(const DecodeOutcome& out, PlainDecodeCache& cache) {
    if (out.stopped || !out.error.isEmpty()) return;
    if (out.request.interventions.empty()) {
        cache = {out.request, std::make_shared<const PrefixDecoding>(out)};
    } else if (out.plain) {
        cache = {out.request, out.plain};
    }
}

}  // namespace

bool PlainDecodeCache::holds(const DecodeRequest& r) const {
    return decoding && request.model == r.model && request.source == r.source && request.reference == r.reference &&
           request.forced_prefix == r.forced_prefix && request.max_source_tokens == r.max_source_tokens &&
           request.top_k == r.top_k;
}

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

DecodeOutcome DecodeWorker::run(const DecodeRequest& request, const std::atomic<quint64>* latest, quint64 generation,
                                PlainDecodeCache* cache) {
    const auto t0 = std::chrono::steady_clock::now();
    DecodeOutcome out;
    out.generation = generation;
    out.request = request;
    try {
        const Model& model = *request.model;
        PrefixDecodeInput input;
        input.source = tokenizeSource(model, request.source);
        if (!request.reference.empty()) input.reference = tokenizeTarget(model, request.reference);
        input.forced = request.forced_prefix;
        input.max_source_tokens = request.max_source_tokens;
        DecodeOptions options;
        options.top_k = request.top_k;
        input.options = options;
        const auto stale = [&] { return latest && latest->load() != generation; };
        if (request.interventions.empty() && cache && cache->holds(request)) {  // back to the plain model: kept
            static_cast<PrefixDecoding&>(out) = *cache->decoding;
        } else if (request.interventions.empty()) {
            static_cast<PrefixDecoding&>(out) = prefixDecode(request.model, std::move(input), stale);
        } else {
            decodeIntervened(out, request, std::move(input), stale, cache);
        }
    } catch (const std::exception& e) {  // InputError (invalid UTF-8, bad id) or anything the engine throws
        out.error = qs(errorMessage(e));
        out.steps.clear();
        out.result = {};
    }
    out.milliseconds = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (cache) keepPlain(out, *cache);
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
        auto outcome = std::make_shared<const DecodeOutcome>(run(request, latest.get(), generation, &plain_cache_));
        // Back on the UI thread; Qt drops the call if the worker is gone by then.
        QMetaObject::invokeMethod(
            this,
            [this, outcome] {
                --pending_;
                if (outcome->stopped || outcome->generation != latest_->load()) return;  // stale
                emit finished(outcome);
            },
            Qt::QueuedConnection);
    });
}

}  // namespace attnviz::ui
