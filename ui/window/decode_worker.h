// Decoding off the UI thread: a request (model, sentence, optional reference / forced prefix) becomes an outcome
// (core's prefixDecode: every step plus the decode object), computed on a private one-thread pool. The worker only
// schedules, debounces and cancels: what is decoded is decided in decode/prefix_decode.h.
// Each request gets a generation number; only the newest one is delivered, older ones stop at their next step.
#pragma once
#include "decode/decoding.h"
#include "decode/limits.h"
#include "decode/prefix_decode.h"

#include <QObject>
#include <QString>
#include <QThreadPool>
#include <QTimer>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace attnviz::ui {

struct DecodeRequest {
    std::shared_ptr<const Model> model;
    std::string source;              // UTF-8 sentence
    std::string reference;           // not empty: forced decoding of this translation (+ <eos>)
    std::vector<int> forced_prefix;  // "what if": these target ids at steps 0.. (overrides the reference), then greedy
    int cursor = -1;                 // where the window wants its step cursor afterwards (-1: at the end)
    int max_source_tokens = kMaxSourceTokens;  // decode/limits.h: a longer source is cut to this many tokens
    int top_k = 5;
    Interventions interventions;  // knockout, attend, heads off (docs/explain.md): the plain model when empty
};

// What prefixDecode gave (source after the cap, source_tokens_cut, steps, result; `stopped`: a newer request came in
// first) plus where it came from. A request with interventions is decoded twice, plainly first: `plain` is that decode
// (the output line's comparison). When the engine refuses the interventions (checkInterventions), the outcome is the
// plain decode and `intervention_error` says why.
struct DecodeOutcome : PrefixDecoding {
    quint64 generation = 0;
    DecodeRequest request;
    std::shared_ptr<const PrefixDecoding> plain;  // with interventions: the same request without them
    QString intervention_error;                   // not empty: the interventions were refused, the decode is plain
    QString error;                                // not empty: nothing was decoded (e.g. invalid UTF-8)
    double milliseconds = 0;                      // wall time of the decode
};

// The plain decode of a request, kept so that adding an intervention to the same request (the same model, sentence,
// reference, forced tokens and limits) decodes once more, not twice.
struct PlainDecodeCache {
    DecodeRequest request;  // its interventions are ignored
    std::shared_ptr<const PrefixDecoding> decoding;
    bool holds(const DecodeRequest& r) const;
};

class DecodeWorker : public QObject {
    Q_OBJECT
public:
    explicit DecodeWorker(QObject* parent = nullptr);
    ~DecodeWorker() override;

    // The synchronous path (benchmarks, tests): decodes `request` on the calling thread. With `latest` given, stops
    // early (stopped = true) as soon as *latest != generation. With `cache`, a request takes its plain decode from
    // there when it holds the same request (with interventions: the comparison; without: the outcome itself, as after
    // "Plain model"), and every finished decode leaves its plain one there.
    static DecodeOutcome run(const DecodeRequest& request, const std::atomic<quint64>* latest = nullptr,
                             quint64 generation = 0, PlainDecodeCache* cache = nullptr);

    // Starts decoding now on the worker thread; returns the request's generation.
    quint64 submit(DecodeRequest request);
    // Starts decoding after `debounceMs` of quiet (each call restarts the wait); returns the request's generation.
    quint64 schedule(DecodeRequest request);
    // Drops whatever is pending or running (e.g. the sentence became empty).
    void cancelAll();
    bool isBusy() const { return pending_ > 0 || debounce_.isActive(); }
    quint64 generation() const { return latest_->load(); }
    void setDebounceMs(int ms) { debounce_.setInterval(ms); }
    int debounceMs() const { return debounce_.interval(); }
    // Blocks until the running job (if any) is done; used on shutdown and by tests.
    void waitForDone() { pool_.waitForDone(); }

signals:
    // Only the newest request's outcome arrives; stale ones are dropped.
    void finished(std::shared_ptr<const attnviz::ui::DecodeOutcome> outcome);

private:
    void start(quint64 generation, DecodeRequest request);

    QThreadPool pool_;
    QTimer debounce_;
    DecodeRequest scheduled_;
    std::shared_ptr<std::atomic<quint64>> latest_ = std::make_shared<std::atomic<quint64>>(0);
    int pending_ = 0;
    PlainDecodeCache plain_cache_;  // read and written by the pool's one thread only
};

}  // namespace attnviz::ui
