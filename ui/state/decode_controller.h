// The window's decodes: the state's request (the open model, the sentence, the reference, the forced tokens and the
// enabled interventions) decoded off the UI thread by a DecodeWorker (typing debounced, the latest request wins), and
// the outcome put into the state, which the views observe. The window only puts outcomes into words (its notice line
// and the time), on this controller's signals.
#pragma once
#include "state/decode_worker.h"

#include <QObject>
#include <QString>

#include <memory>

namespace attnviz::ui {

class DecodeState;

class DecodeController : public QObject {
    Q_OBJECT
public:
    // Decodes `state`'s request whenever its sentence or reference is edited.
    explicit DecodeController(DecodeState* state, QObject* parent = nullptr);

    // The request as the state holds it now, for the open model.
    DecodeRequest request() const;
    // The state's request now, skipping the debounce (a model opened, a forcing or an intervention edited); the step
    // cursor goes to `cursor` afterwards (-1: the end). An empty sentence clears the decode instead (sentenceEmptied).
    void decodeNow(int cursor = -1);
    // Forgets the decode shown: the state shows none.
    void clear();

    // The worker's outcome behind the decode the state shows (its request, notes and time); nullptr when the state
    // shows none, or shows another decode (a beam hypothesis).
    const DecodeOutcome* outcome() const;

    DecodeWorker* worker() const { return worker_; }
    bool isBusy() const { return worker_->isBusy(); }
    void waitForDone() { worker_->waitForDone(); }

signals:
    // `outcome` is the state's decode now.
    void decoded(std::shared_ptr<const attnviz::ui::DecodeOutcome> outcome);
    // Nothing could be decoded from the request (e.g. invalid UTF-8); the state keeps the decode it shows.
    void failed(const QString& message);
    // The sentence became empty: the decode was cleared and nothing is pending.
    void sentenceEmptied();

private:
    // The sentence or the reference was edited: a new decode, without the previous "what if", after the debounce.
    void requestChanged();
    void show(std::shared_ptr<const DecodeOutcome> outcome);
    bool hasSentence() const;

    DecodeState* state_;
    DecodeWorker* worker_;
    std::shared_ptr<const DecodeOutcome> shown_;
};

}  // namespace attnviz::ui
