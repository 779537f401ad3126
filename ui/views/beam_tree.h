// The beam search view: a beam width (1 = the greedy decode the window shows), the search's tree step by step
// (BeamTreeCanvas: kept and pruned hypotheses with their log-probs) and the final n-best list with scores.
//
// Observes a DecodeState: each new decode the window shows is searched again (the decode's model and source, after
// the window's cut), while the view is visible. A click on a node (or an n-best entry) shows that hypothesis in the
// state (DecodeState::showHypothesis), so the heatmap draws its attention history, the step panel its steps (with
// the siblings the search made as candidates) and, for a Transformer, the head grid every layer and head of it (the
// engine's forced decode of its tokens: decode/beam_hypothesis.h); the view does not search again for a hypothesis
// it showed, nor when the state goes back to the window's decode it searched. "Force a token here…" on a node
// searches again from that node's tokens plus the chosen token (beamSearch with a prefix). "Export…" (a button and
// the tree's context menu) writes the tree as drawn (PNG, SVG, PDF) or its numbers (CSV, JSON):
// views/beam_tree_export.h.
#pragma once
#include "decode/decoding.h"
#include "heatmap/heatmap_export.h"

#include <QPointer>
#include <QWidget>

#include <memory>
#include <vector>

class QCheckBox;
class QLabel;
class QListWidget;
class QPushButton;
class QScrollArea;
class QSpinBox;
class QDoubleSpinBox;

namespace attnviz {
struct PrefixDecoding;
}

namespace attnviz::ui {

class BeamTreeCanvas;
class DecodeState;
struct BeamHypothesisInfo;

// The length penalty box's range, −kMaxLengthPenalty to kMaxLengthPenalty (the window's --length-penalty too).
constexpr double kMaxLengthPenalty = 3;

class BeamTreeView : public QWidget {
    Q_OBJECT
public:
    // The widest search the spin box offers: a tree of kMaxViewWidth² nodes per step is already hard to read.
    static constexpr int kMaxViewWidth = 32;

    explicit BeamTreeView(QWidget* parent = nullptr);
    ~BeamTreeView() override;

    // Searches each decode of `state` from now on and shows the chosen hypotheses in it.
    void setDecodeState(DecodeState* state);

    int beamWidth() const;
    void setBeamWidth(int width);  // searches again at once (clamped to 1..kMaxViewWidth)

    // The search shown (nullptr: none), its model and the forced prefix it was asked for.
    const BeamResult* result() const { return result_.get(); }
    const std::shared_ptr<const Model>& model() const { return model_; }
    const std::vector<int>& prefix() const { return prefix_; }

    // Shows hypothesis `node` (its path from the root) in the state: the heatmap draws its rows.
    void showNode(int node);
    // Searches again with the tokens of `node` and then `token` forced; shows the new best hypothesis. False (and a
    // message in the view) when the token cannot follow there.
    bool forceAt(int node, int token);
    // Searches the state's decode again from scratch (no forced prefix).
    void research();
    // Writes the tree shown to `path` (the format from options.format or the extension; views/beam_tree_export.h).
    // False and *error ("PATH: what") when nothing is shown or the file cannot be written.
    bool exportTo(const QString& path, const ExportOptions& options, QString* error) const;
    // Asks for a file, writes it, and shows an error in the view's message line.
    void exportInteractively();

    BeamTreeCanvas* canvas() const { return canvas_; }
    QSpinBox* widthBox() const { return width_; }
    QDoubleSpinBox* lengthPenaltyBox() const { return length_penalty_; }
    QListWidget* nbestList() const { return nbest_; }
    QCheckBox* prunedBox() const { return pruned_; }
    QPushButton* exportButton() const { return export_; }
    QString messageText() const;

signals:
    void searched();  // a new tree is shown (or cleared)

protected:
    void showEvent(QShowEvent* event) override;
    void changeEvent(QEvent* event) override;  // language: the fixed texts again

private:
    void decodeChanged();
    void search();  // model_, source_, prefix_ at width(); shows the tree, the n-best list and the best hypothesis
    void fillNbest();
    void showMenu(int node, const QPoint& global_pos);
    void askForceToken(int node);
    void retranslateUi();
    std::shared_ptr<PrefixDecoding> hypothesisDecoding(int node) const;
    void addLayers(int node, DecodeResult& r) const;
    BeamHypothesisInfo hypothesisInfo(int node) const;

    QPointer<DecodeState> state_;
    QSpinBox* width_;
    QDoubleSpinBox* length_penalty_;  // DecodeOptions::length_penalty (attnviz-cli --length-penalty)
    QLabel* length_penalty_label_;
    QCheckBox* pruned_;
    QPushButton* export_;
    QLabel* width_label_;
    QLabel* message_;
    QScrollArea* scroll_;
    BeamTreeCanvas* canvas_;
    QLabel* nbest_label_;
    QListWidget* nbest_;

    std::shared_ptr<const Model> model_;  // of the search shown
    int eos() const { return model_->target_vocab.specials().eos; }
    TokenizedText source_;         // <sos> … <eos>, as the state's decode had it
    std::vector<int> prefix_;      // forced target ids before the search
    Interventions interventions_;  // the state's decode's: the search and the hypotheses are made with them
    std::unique_ptr<BeamResult> result_;
    int searched_serial_ = -1;  // the state's mainDecodeSerial of the decode searched
    bool stale_ = false;        // a decode came while hidden: search when shown
    QString last_export_;       // the last export's path (the next one suggests it)
};

}  // namespace attnviz::ui
