#include "state/decode_worker.h"
#include "heatmap/utf8_text.h"
#include "state/latest_wins.h"

#include "base/errors.h"

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

DecodeWorker::DecodeWorker(QObject* parent) : QObject(parent), runner_(new LatestWins(this)) {
    debounce_.setSingleShot(true);
    debounce_.setInterval(100);
    connect(&debounce_, &QTimer::timeout, this, [this] { start(std::move(scheduled_)); });
}

DecodeWorker::~DecodeWorker() {
    debounce_.stop();
    runner_->cancelAll();  // makes the running job stop early
    runner_->waitForDone();
}

DecodeOutcome DecodeWorker::run(const DecodeRequest& request, const std::function<bool()>& stale,
                                PlainDecodeCache* cache) {
    const auto t0 = std::chrono::steady_clock::now();
    DecodeOutcome out;
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

void DecodeWorker::submit(DecodeRequest request) {
    debounce_.stop();
    start(std::move(request));
}

void DecodeWorker::schedule(DecodeRequest request) {
    runner_->cancelAll();  // a running job for an older text stops now
    scheduled_ = std::move(request);
    debounce_.start();
}

void DecodeWorker::cancelAll() {
    debounce_.stop();
    runner_->cancelAll();
}

bool DecodeWorker::isBusy() const { return runner_->isBusy() || debounce_.isActive(); }
void DecodeWorker::waitForDone() { runner_->waitForDone(); }

void DecodeWorker::start(DecodeRequest request) {
    if (!request.model) return;
    runner_->submit(
        [this, request = std::move(request)](const LatestWins::Stale& stale) {
            return std::make_shared<const DecodeOutcome>(run(request, stale, &plain_cache_));
        },
        [this](std::shared_ptr<const DecodeOutcome> outcome) {
            if (!outcome->stopped) emit finished(std::move(outcome));
        });
}

}  // namespace attnviz::ui
