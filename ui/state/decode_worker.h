// Decoding off the UI thread: a request (model, sentence, optional reference / forced prefix) becomes an outcome
// (core's prefixDecode: every step plus the decode object), computed on a private one-thread pool. The worker only
// schedules (state/latest_wins.h: only the newest request is delivered, older ones stop at their next step),
// debounces and cancels: what is decoded is decided in decode/prefix_decode.h.
#pragma once
#include "decode/decoding.h"
#include "decode/limits.h"
#include "decode/prefix_decode.h"

#include <QObject>
#include <QString>
#include <QTimer>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace attnviz::ui {

class LatestWins;

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

    // The synchronous path (benchmarks, tests): decodes `request` on the calling thread. With `stale` given, stops
    // early (stopped = true) as soon as it returns true. With `cache`, a request takes its plain decode from
    // there when it holds the same request (with interventions: the comparison; without: the outcome itself, as after
    // "Plain model"), and every finished decode leaves its plain one there.
    static DecodeOutcome run(const DecodeRequest& request, const std::function<bool()>& stale = {},
                             PlainDecodeCache* cache = nullptr);

    // Starts decoding now on the worker thread.
    void submit(DecodeRequest request);
    // Starts decoding after `debounceMs` of quiet (each call restarts the wait); a running decode stops now.
    void schedule(DecodeRequest request);
    // Drops whatever is pending or running (e.g. the sentence became empty).
    void cancelAll();
    bool isBusy() const;
    void setDebounceMs(int ms) { debounce_.setInterval(ms); }
    int debounceMs() const { return debounce_.interval(); }
    // Blocks until the running job (if any) is done; used on shutdown and by tests.
    void waitForDone();

signals:
    // Only the newest request's outcome arrives; stale ones are dropped.
    void finished(std::shared_ptr<const attnviz::ui::DecodeOutcome> outcome);

private:
    void start(DecodeRequest request);

    LatestWins* runner_;
    QTimer debounce_;
    DecodeRequest scheduled_;
    PlainDecodeCache plain_cache_;  // read and written by the runner's one thread only
};

}  // namespace attnviz::ui
