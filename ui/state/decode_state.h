// The window's document: what the user asked for (model, sentence, reference, forced tokens), the decode shown and
// where the user is in it (cursor, selected cell). One object, observed by the views (heatmap, step panel, output
// line; the comparison and the beam tree to come), changed by the window's controller (MainWindow) and by the views'
// own gestures.
//
// Signals follow Qt's model/view habit: decodeChanged is a reset (a new decode and with it a new cursor: observers
// redraw everything, cursorChanged is not sent as well); cursorChanged and selectionChanged are moves within the
// same decode; attentionViewChanged says which of the decode's attentions the main heatmap shows. Each setter emits
// only when the value changes.
#pragma once
#include "decode/attention_views.h"
#include "decode/prefix_decode.h"
#include "explain/explanation.h"
#include "state/intervention_items.h"

#include <QObject>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

namespace attnviz::ui {

// A decode the beam search view chose (views/beam_tree.h): which hypothesis of its search it is. The numbers are
// the search's (BeamResult), copied here for the views that name it.
struct BeamHypothesisInfo {
    int node = 0;               // in the search's tree
    int rank = -1;              // among the finished hypotheses, 0 the best; -1: unfinished (an inner or pruned node)
    int finished = 0;           // finished hypotheses of the search
    int tokens = 0;             // target tokens on the path (<eos> included)
    double total_log_prob = 0;  // along the path
};

class DecodeState : public QObject {
    Q_OBJECT
public:
    explicit DecodeState(QObject* parent = nullptr);

    // ---- the request: what the next decode is made from
    // The open model (the decode shown may still be an older model's: decodedModel()).
    const std::shared_ptr<const Model>& model() const { return model_; }
    const QString& modelPath() const { return model_path_; }
    void setModel(std::shared_ptr<const Model> model, const QString& path);
    // The sentence and the optional reference translation as typed.
    const QString& sourceText() const { return source_text_; }
    void setSourceText(const QString& text);
    const QString& referenceText() const { return reference_text_; }
    void setReferenceText(const QString& text);
    // "What if?": target ids forced at steps 0, 1, ... before greedy decoding (empty: none; a reference is forced
    // without being listed here). Ids of model().
    const std::vector<int>& forcedTokens() const { return forced_; }
    void setForcedTokens(std::vector<int> tokens);
    // Knockouts, attends and heads off (state/intervention_items.h), each with its switch: the enabled ones are the
    // next decode's. A new sentence drops the knockouts and attends (they name its positions) before
    // sourceTextChanged; heads off stay.
    const InterventionList& interventions() const { return interventions_; }
    void setInterventions(InterventionList list);

    // ---- the decode shown (it may lag behind the request while a newer decode is pending)
    bool hasDecode() const { return decode_ != nullptr; }
    const PrefixDecoding* decode() const { return decode_.get(); }  // nullptr: nothing decoded
    const std::shared_ptr<const PrefixDecoding>& decodeShared() const { return decode_; }
    const std::shared_ptr<const Model>& decodedModel() const { return decoded_model_; }  // the model that made it
    int stepCount() const { return decode_ ? int(decode_->steps.size()) : 0; }
    // Shows `decode`, made by `model`, with the cursor at `cursor` (clamped; -1: after the last step). An intervened
    // decode comes with `plain`, the same request decoded without its interventions, which the output line compares.
    void setDecode(std::shared_ptr<const Model> model, std::shared_ptr<const PrefixDecoding> decode, int cursor = -1,
                   std::shared_ptr<const PrefixDecoding> plain = nullptr);
    // The plain model's decode of the request of the decode shown when that one was intervened; nullptr otherwise
    // (also while a beam hypothesis is shown).
    const PrefixDecoding* plainDecode() const { return hypothesis_ ? nullptr : plain_.get(); }
    void clearDecode();
    // Shows a beam hypothesis instead of the window's own decode (the last setDecode's), which is kept: decodeChanged
    // as for any decode, and showMainDecode() returns to it at its cursor. A setDecode forgets the hypothesis.
    void showHypothesis(std::shared_ptr<const Model> model, std::shared_ptr<const PrefixDecoding> decode,
                        const BeamHypothesisInfo& info, int cursor = -1);
    // The hypothesis shown; nullopt while the window's own decode (or nothing) is shown.
    const std::optional<BeamHypothesisInfo>& hypothesis() const { return hypothesis_; }
    // Back from a hypothesis to the window's own decode; nothing when that is shown already.
    void showMainDecode();
    // Counts the window's own decodes (setDecode calls), so that a view can tell its decode come back from a new one.
    int mainDecodeSerial() const { return main_serial_; }

    // ---- where the user is
    // Steps shown, 0..stepCount(): the heatmap shows rows < cursor, the step panel step cursor - 1.
    int cursor() const { return cursor_; }
    void setCursor(int cursor);             // clamped
    const StepRecord* currentStep() const;  // step cursor - 1; nullptr before the first step or without a decode
    // The selected heatmap cell in data indices (row = target position, column = source position; -1, -1: none).
    // Kept across decodes, like the heatmap's own mark: a cell outside the decode shown selects nothing.
    int selectedRow() const { return selected_row_; }
    int selectedColumn() const { return selected_col_; }
    void setSelection(int row, int col);
    // Which attention the main heatmap shows (decode/attention_views.h; the head grid chooses it). Default: the
    // decode's `attention`. A view the decode shown does not have is ignored; kept across decodes while the decode
    // shown has it, else back to the default.
    const AttentionView& attentionView() const { return view_; }
    void setAttentionView(const AttentionView& view);

    // ---- explanation (core/explain, docs/explain.md): which method the main heatmap shows in place of the model's
    // attention, and that method's matrix for the decode shown. Attention needs no computing; any other method is
    // computed off the UI thread (window/explain_worker.h) and arrives through setExplanation.
    ExplainMethod explainMethod() const { return method_; }
    void setExplainMethod(ExplainMethod method);
    // "Why y_t and not c?" (the step panel's candidates): the contrast the methods that read the objective use, or
    // none. Forgotten when another decode is shown. A change is a new request: explainMethodChanged.
    const std::optional<Contrast>& contrast() const { return contrast_; }
    void setContrast(std::optional<Contrast> contrast);
    // The chosen method's matrix for the decode shown; nullptr for attention, or while it is being computed.
    const Explanation* explanation() const { return explanation_.get(); }
    // Keeps `e` if it was computed for the decode shown, the method chosen and its contrast (a late result of an
    // older request is dropped): explanationChanged.
    void setExplanation(const PrefixDecoding* for_decode, std::shared_ptr<const Explanation> e);

    // ---- pieces or words (state/word_view.h): whether the heatmap, the head grid and the explanation shown show a
    // SentencePiece model's decode merged into words. Kept across decodes and models.
    bool showsWords() const { return words_; }
    void setShowsWords(bool on);  // wordsChanged
    // Whether the decode shown is shown in words: words chosen and the decode has them.
    bool wordsShown() const { return merged_ != nullptr; }
    // The decode shown as those views show it: merged on both sides when wordsShown(), else the decode's own result;
    // nullptr without a decode.
    const DecodeResult* shownResult() const;
    // The explanation on the same positions as shownResult() (nullptr as explanation()).
    const Explanation* shownExplanation() const;

signals:
    void modelChanged();
    void sourceTextChanged(const QString& text);
    void referenceTextChanged(const QString& text);
    void forcedTokensChanged();
    void interventionsChanged();
    void decodeChanged();
    void cursorChanged(int cursor);
    void selectionChanged(int row, int col);
    void attentionViewChanged();
    void explainMethodChanged();
    void explanationChanged();
    void wordsChanged();

private:
    // The decode shown, whichever it is: decodeChanged.
    void show(std::shared_ptr<const Model> model, std::shared_ptr<const PrefixDecoding> decode, int cursor);

    std::shared_ptr<const Model> model_;
    QString model_path_;
    QString source_text_;
    QString reference_text_;
    std::vector<int> forced_;
    InterventionList interventions_;
    std::shared_ptr<const PrefixDecoding> plain_;
    std::shared_ptr<const Model> decoded_model_;
    std::shared_ptr<const PrefixDecoding> decode_;
    int cursor_ = 0;
    // The window's own decode while a hypothesis is shown (else the same as decoded_model_, decode_), its cursor.
    std::shared_ptr<const Model> main_model_;
    std::shared_ptr<const PrefixDecoding> main_decode_;
    int main_cursor_ = 0;
    int main_serial_ = 0;
    std::optional<BeamHypothesisInfo> hypothesis_;
    int selected_row_ = -1, selected_col_ = -1;
    AttentionView view_;
    ExplainMethod method_ = ExplainMethod::Attention;
    std::optional<Contrast> contrast_;
    std::shared_ptr<const Explanation> explanation_;
    void mergeShown();  // merged_ and merged_explanation_ for the decode and explanation shown
    bool words_ = false;
    std::shared_ptr<const DecodeResult> merged_;
    std::shared_ptr<const Explanation> merged_explanation_;
};

}  // namespace attnviz::ui
