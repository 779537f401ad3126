#include "state/decode_controller.h"
#include "state/decode_state.h"

namespace attnviz::ui {

DecodeController::DecodeController(DecodeState* state, QObject* parent)
    : QObject(parent), state_(state), worker_(new DecodeWorker(this)) {
    connect(worker_, &DecodeWorker::finished, this, &DecodeController::show);
    connect(state_, &DecodeState::sourceTextChanged, this, &DecodeController::requestChanged);
    connect(state_, &DecodeState::referenceTextChanged, this, &DecodeController::requestChanged);
}

DecodeRequest DecodeController::request() const {
    DecodeRequest r;
    r.model = state_->model();
    r.source = state_->sourceText().toStdString();
    r.reference = state_->referenceText().trimmed().toStdString();
    r.forced_prefix = state_->forcedTokens();
    r.interventions = activeInterventions(state_->interventions());
    return r;
}

bool DecodeController::hasSentence() const { return !state_->sourceText().trimmed().isEmpty(); }

void DecodeController::requestChanged() {
    if (!state_->model()) return;
    state_->setForcedTokens({});
    if (!hasSentence()) {
        worker_->cancelAll();
        clear();
        emit sentenceEmptied();
        return;
    }
    worker_->schedule(request());
}

void DecodeController::decodeNow(int cursor) {
    if (!state_->model()) return;
    if (!hasSentence()) {
        requestChanged();
        return;
    }
    DecodeRequest r = request();
    r.cursor = cursor;
    worker_->submit(std::move(r));
}

void DecodeController::clear() {
    shown_.reset();
    state_->clearDecode();
}

const DecodeOutcome* DecodeController::outcome() const {
    return shown_ && state_->decode() == shown_.get() ? shown_.get() : nullptr;
}

void DecodeController::show(std::shared_ptr<const DecodeOutcome> outcome) {
    if (outcome->request.model != state_->model()) return;  // decoded with a model that is no longer open
    if (!outcome->error.isEmpty()) {
        emit failed(outcome->error);  // the last decode stays; the sentence is the user's to fix
        return;
    }
    shown_ = outcome;
    state_->setDecode(outcome->request.model, outcome, outcome->request.cursor, outcome->plain);
    emit decoded(std::move(outcome));
}

}  // namespace attnviz::ui
