// The compare view: two models side by side on the window's sentence. A is the window's model and decode (its
// DecodeState); B, picked among A's siblings (io/siblings.h) or any model file with the same vocabularies ("Open…"),
// is forced onto A's output. With a reference typed, A's output is that reference, so both are then forced onto it.
//
// B may also be an explanation method of A's own model (docs/explain.md): the model box lists "This model: METHOD".
// B's rows are then the method's matrix for A's decode as shares of each row's magnitude (|R_tj| / Σ_j |R_tj|, so
// that they read as a distribution like the attention), the difference map is those shares − the attention, and
// the table adds each row's rank correlation between the attention and the method's own values.
//
// For a Transformer side, a chooser (views/head_choice_box.h) says which of its cross-attentions is compared: the
// model's `attention` (the default), one layer's average over heads or one head; maps, titles, distances, AER and
// exports then use those rows (eval/compare_heads.h), taken from the decode as the head grid shows them.
//
// Shown: A's and B's heatmaps and the difference B − A (a diverging colour map centred on 0 with its own scale),
// each drawn by the same scene as every export and exportable alone or together (heatmap/comparison_export.h), and
// a table of per-row distances with their means (core's eval/compare.h: total variation, Jensen–Shannon, argmax
// agreement, entropies) and, when gold links are given for a typed reference, each model's AER. Stepping the window
// (the state's cursor) moves all three maps and the table.
//
// B is decoded off the UI thread, once per new decode of A or new B; the three maps and the table change together
// when B's decode arrives (comparisonChanged).
#pragma once
#include "decode/decoding.h"
#include "eval/compare.h"
#include "explain/explanation.h"
#include "heatmap/comparison_export.h"
#include "io/siblings.h"

#include <QPointer>
#include <QWidget>

#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QLabel;
class QLineEdit;
class QSplitter;
class QTableView;
class QToolButton;

namespace attnviz::ui {

class CompareRowsModel;
class DecodeState;
class HeadChoiceBox;
class HeatmapLegendStrip;
class LatestWins;
class HeatmapView;

class CompareView : public QWidget {
    Q_OBJECT
public:
    enum class Part { A, B, Difference, Comparison };

    explicit CompareView(DecodeState* state, QWidget* parent = nullptr);
    ~CompareView() override;

    // Model B from a file; false, with the reason in errorText(), when it cannot be read or compared with A (then
    // the previous B stays).
    bool setModelB(const QString& path);
    QString modelBPath() const { return b_path_; }
    // B as an explanation method of A's model (see above); false when A's model has no such method.
    bool setMethodB(ExplainMethod method);
    const std::optional<ExplainMethod>& methodB() const { return b_method_; }
    // With a method as B: per row, Spearman's ρ of the attention and the method's values over the source words.
    const std::vector<double>& rankCorrelation() const { return rho_; }
    const std::shared_ptr<const Model>& modelB() const { return b_model_; }
    // The choices: A's siblings but A ("FILE — what differs"), then "Open…".
    QComboBox* modelBox() const { return model_box_; }

    // The window's colour map and toggles (the title and marks are the view's own).
    void setBaseStyle(const HeatmapStyle& style);
    // The AER hook: gold links (Pharaoh "i-j" sure, "i?j" possible, 0-based source and target words) of the typed reference. Returns ""
    // or what is wrong with them; empty text clears them.
    QString setGoldLinks(const QString& pharaoh);
    QLineEdit* goldEdit() const { return gold_edit_; }

    // Which cross-attention of A and of B is compared (enabled for a Transformer only).
    HeadChoiceBox* headBoxA() const { return head_a_box_; }
    HeadChoiceBox* headBoxB() const { return head_b_box_; }

    // The pair shown, as decoded with every head (nullptr while there is none), and its numbers (on the chosen
    // heads' rows: comparison()).
    const DecodeResult* decodeA() const { return shown_a_.get(); }
    const DecodeResult* decodeB() const { return shown_b_.get(); }
    const std::vector<RowComparison>& rows() const;
    AttentionComparison summary() const { return summary_; }
    QString summaryText() const;
    QString errorText() const { return error_; }
    HeatmapView* viewA() const { return view_a_; }
    HeatmapView* viewB() const { return view_b_; }
    HeatmapView* viewDifference() const { return view_diff_; }
    QTableView* distanceTable() const { return table_; }
    HeatmapLegendStrip* legend() const { return legend_; }  // the three maps' one legend
    static constexpr int kLeastMapRows = 8;       // each map's least height keeps this many rows (or all) readable
    static constexpr int kSideBySideWidth = 900;  // narrower, the maps stand one under the other

    // B forced onto `a`'s output (its source and target tokens) with `iv`, the part of A's interventions B can take
    // (interventionsModelTakes): what the view decodes, synchronously.
    static DecodeResult decodeB(const Model& b, const DecodeResult& a, const Interventions& iv);
    // What the summary says of B's interventions: the ones A's decode has and B took, and those B could not take.
    static QString interventionsNote(const Interventions& taken, const std::vector<std::string>& refused);
    // Shows a pair now, as when B's decode arrives (benchmarks): maps, table and summary.
    void showPair(std::shared_ptr<const DecodeResult> a, std::shared_ptr<const DecodeResult> b);
    // The shown pair as a comparison (the chosen cross-attentions, names, gold links): what the maps, the table and
    // the exports show.
    ModelComparison comparison() const;
    // Writes a part: A or B (heatmap_export.h), the difference map (images; csv/json: the comparison's numbers) or
    // the whole comparison (comparison_export.h). False with *error when nothing is shown or writing fails.
    bool exportPart(Part part, const QString& path, const ExportOptions& options, QString* error) const;

    // An inactive view (its dock hidden) decodes nothing; activating it decodes B for the decode shown. Default: on.
    void setActive(bool on);
    bool isActive() const { return active_; }
    bool isBusy() const;
    void waitForDone();

signals:
    void comparisonChanged();  // a new pair is shown, or none
    void modelBChanged(const QString& path);

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;  // the maps side by side, or one under the other

private:
    void buildUi();
    QSplitter* buildMaps();
    void retranslateUi();
    void modelAChanged();
    void fillModelBox();
    void modelBoxActivated(int index);
    void exportInteractively(Part part);
    void requestB();        // decodes B for the state's decode of A
    void requestMethodB();  // B = the method's matrix for the state's decode of A
    void clearPair(const QString& why);
    void showCursor();
    void updateSummary();
    void updateGoldEnabled();
    void headChoiceChanged();

    QPointer<DecodeState> state_;
    std::shared_ptr<const Model> b_model_;
    std::optional<ExplainMethod> b_method_;  // B is A's model explained by this method
    std::vector<double> rho_;                // with b_method_: the shown pair's per-row rank correlation
    QString b_path_;
    std::vector<Sibling> siblings_;  // A's siblings but A (the combo's entries before "Open…")
    HeatmapStyle base_;
    std::optional<GoldAlignment> gold_;
    QString gold_error_;

    std::shared_ptr<const DecodeResult> shown_a_, shown_b_;
    AttentionComparison summary_;
    QString error_;
    QString b_interventions_note_;  // interventionsNote of the B shown

    LatestWins* runner_ = nullptr;  // B's decode or explanation for the latest decode of A
    bool active_ = true;

    QLabel* model_label_ = nullptr;
    QComboBox* model_box_ = nullptr;
    QLabel* gold_label_ = nullptr;
    QLineEdit* gold_edit_ = nullptr;
    QToolButton* export_button_ = nullptr;
    QLabel* head_a_label_ = nullptr;
    HeadChoiceBox* head_a_box_ = nullptr;
    QLabel* head_b_label_ = nullptr;
    HeadChoiceBox* head_b_box_ = nullptr;
    HeatmapView* view_a_ = nullptr;
    HeatmapView* view_b_ = nullptr;
    HeatmapView* view_diff_ = nullptr;
    QLabel* summary_label_ = nullptr;
    QTableView* table_ = nullptr;
    HeatmapLegendStrip* legend_ = nullptr;
    std::vector<QSplitter*> rows_;  // A | B and B − A | table  // the maps' one legend (coverage, H / ln S), under them
    CompareRowsModel* rows_model_ = nullptr;
};

}  // namespace attnviz::ui
