#include "state/decode_state.h"
#include "decode/subword_words.h"
#include "state/word_view.h"

#include <algorithm>
#include <utility>

namespace attnviz::ui {

DecodeState::DecodeState(QObject* parent) : QObject(parent) {}

void DecodeState::setModel(std::shared_ptr<const Model> model, const QString& path) {
    if (model == model_ && path == model_path_) return;
    model_ = std::move(model);
    model_path_ = path;
    emit modelChanged();
}

void DecodeState::setSourceText(const QString& text) {
    if (text == source_text_) return;
    source_text_ = text;
    InterventionList kept;
    for (const InterventionItem& item : interventions_)
        if (!item.belongsToSentence()) kept.push_back(item);
    setInterventions(std::move(kept));
    emit sourceTextChanged(text);
}

void DecodeState::setReferenceText(const QString& text) {
    if (text == reference_text_) return;
    reference_text_ = text;
    emit referenceTextChanged(text);
}

void DecodeState::setForcedTokens(std::vector<int> tokens) {
    if (tokens == forced_) return;
    forced_ = std::move(tokens);
    emit forcedTokensChanged();
}

void DecodeState::setInterventions(InterventionList list) {
    if (list == interventions_) return;
    interventions_ = std::move(list);
    emit interventionsChanged();
}

void DecodeState::setDecode(std::shared_ptr<const Model> model, std::shared_ptr<const PrefixDecoding> decode,
                            int cursor, std::shared_ptr<const PrefixDecoding> plain) {
    hypothesis_.reset();
    plain_ = decode ? std::move(plain) : nullptr;
    main_model_ = decode ? model : nullptr;
    main_decode_ = decode;
    ++main_serial_;
    show(std::move(model), std::move(decode), cursor);
}

void DecodeState::showHypothesis(std::shared_ptr<const Model> model, std::shared_ptr<const PrefixDecoding> decode,
                                 const BeamHypothesisInfo& info, int cursor) {
    if (!decode) return;
    if (!hypothesis_) main_cursor_ = cursor_;
    hypothesis_ = info;
    show(std::move(model), std::move(decode), cursor);
}

void DecodeState::showMainDecode() {
    if (!hypothesis_) return;
    hypothesis_.reset();
    show(main_model_, main_decode_, main_cursor_);
}

void DecodeState::show(std::shared_ptr<const Model> model, std::shared_ptr<const PrefixDecoding> decode, int cursor) {
    decoded_model_ = decode ? std::move(model) : nullptr;
    decode_ = std::move(decode);
    explanation_.reset();  // it explained the decode before
    contrast_.reset();     // a row and token of the decode before
    const int T = stepCount();
    cursor_ = cursor < 0 ? T : std::min(cursor, T);
    const bool view_lost = decode_ && !isValidView(decode_->result, view_);
    if (view_lost) view_ = AttentionView{};  // another model: a layer or head it does not have
    mergeShown();
    emit decodeChanged();
    if (view_lost) emit attentionViewChanged();
}

void DecodeState::setExplainMethod(ExplainMethod method) {
    if (method == method_) return;
    method_ = method;
    explanation_.reset();
    emit explainMethodChanged();
}

void DecodeState::setContrast(std::optional<Contrast> contrast) {
    if (contrast == contrast_) return;
    contrast_ = contrast;
    explanation_.reset();
    emit explainMethodChanged();
}

void DecodeState::setExplanation(const PrefixDecoding* for_decode, std::shared_ptr<const Explanation> e) {
    if (for_decode != decode_.get() || !e || e->method != method_) return;
    if (methodInfo(method_).reads_objective && e->contrast != contrast_) return;
    explanation_ = std::move(e);
    mergeShown();
    emit explanationChanged();
}

void DecodeState::setShowsWords(bool on) {
    if (on == words_) return;
    words_ = on;
    mergeShown();
    emit wordsChanged();
}

void DecodeState::mergeShown() {
    const bool merge = words_ && decode_ && hasWords(decode_->result);
    merged_ = merge ? std::make_shared<const DecodeResult>(mergeWords(decode_->result, MergeSides::Both)) : nullptr;
    merged_explanation_ = merge && explanation_
                              ? std::make_shared<const Explanation>(mergedExplanation(decode_->result, *explanation_))
                              : nullptr;
}

const DecodeResult* DecodeState::shownResult() const {
    if (merged_) return merged_.get();
    return decode_ ? &decode_->result : nullptr;
}

const Explanation* DecodeState::shownExplanation() const {
    if (!explanation_) return nullptr;
    return merged_explanation_ ? merged_explanation_.get() : explanation_.get();
}

void DecodeState::clearDecode() { setDecode(nullptr, nullptr, 0); }

void DecodeState::setCursor(int cursor) {
    cursor = std::clamp(cursor, 0, stepCount());
    if (cursor == cursor_) return;
    cursor_ = cursor;
    emit cursorChanged(cursor_);
}

const StepRecord* DecodeState::currentStep() const {
    return decode_ && cursor_ > 0 ? &decode_->steps[size_t(cursor_ - 1)] : nullptr;
}

void DecodeState::setSelection(int row, int col) {
    if (row < 0 || col < 0) row = col = -1;
    if (row == selected_row_ && col == selected_col_) return;
    selected_row_ = row;
    selected_col_ = col;
    emit selectionChanged(row, col);
}

void DecodeState::setAttentionView(const AttentionView& view) {
    if (view == view_ || (decode_ && !isValidView(decode_->result, view))) return;
    view_ = view;
    emit attentionViewChanged();
}

}  // namespace attnviz::ui
