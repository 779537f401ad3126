// The window's gold links for the typed reference: a Pharaoh field (`i-j` sure, `i?j` possible; typed or loaded from
// a file), the alignment mode (argmax, threshold τ, shift; <sos>/<eos> included or not) and, while the decode shown is
// the model forced onto the reference, the live AER, precision and recall and the heatmap's cell marks (correct,
// false, missed). Every number and every class comes from core's eval/alignment.h; the links are read by io/corpus's
// parser and checked against the sentence's word counts with its range check (docs/gui.md, docs/diagnostics.md).
#pragma once
#include "eval/alignment.h"
#include "heatmap/heatmap_data.h"

#include <QWidget>
#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QVBoxLayout;

namespace attnviz::ui {

class DecodeState;

class GoldLinksPanel : public QWidget {
    Q_OBJECT
public:
    explicit GoldLinksPanel(DecodeState* state, QWidget* parent = nullptr);

    // Sets the field's text (as typing would) and returns the problem shown, "" when the links are good or empty.
    QString setLinks(const QString& pharaoh);
    QString links() const;
    // Reads the links from a text file (its first non-blank line); false and the reason shown when it cannot.
    bool loadLinks(const QString& path);
    void setAlignOptions(const AlignOptions& options);
    AlignOptions alignOptions() const { return options_; }

    // What the marks and numbers are made from: the parsed links (nullopt: none, or not valid) and the decode's
    // predicted links, counts and cells (empty / nullopt while the decode shown is not on the reference).
    const std::optional<GoldAlignment>& gold() const { return gold_; }
    const std::optional<AerCounts>& counts() const { return counts_; }
    const std::vector<AlignmentCell>& cells() const { return cells_; }
    // The cells as heatmap marks (row = target word, column = source word + 1 for <sos>).
    std::vector<AlignmentMark> marks() const;
    QString problem() const { return problem_; }  // what is wrong with the links, "" if nothing
    QString resultText() const;                   // the line under the field

    QLabel* label() const { return label_; }  // "Gold links:", for the window's form
    QLineEdit* linksEdit() const { return edit_; }
    QPushButton* loadButton() const { return load_; }
    QComboBox* modeBox() const { return mode_box_; }
    QDoubleSpinBox* thresholdBox() const { return threshold_; }
    QCheckBox* specialsBox() const { return specials_; }
    // The options (mode, τ, specials) beside the field, or on a line under it where the panel is narrow.
    bool optionsBesideField() const;

signals:
    void marksChanged();  // marks(), counts() or problem() may have changed

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void buildUi();
    void retranslateUi();
    void chooseFile();
    void optionsEdited();
    void parseLinks();
    void recompute();
    QString wordCountProblem() const;
    bool decodeIsOnReference() const;
    void showResult();

    DecodeState* state_;
    std::optional<GoldAlignment> gold_;
    QString parse_error_;
    QString problem_;
    AlignOptions options_;
    std::optional<AerCounts> counts_;
    std::vector<AlignmentCell> cells_;

    QLabel* label_ = nullptr;
    QLineEdit* edit_ = nullptr;
    QPushButton* load_ = nullptr;
    QComboBox* mode_box_ = nullptr;
    QDoubleSpinBox* threshold_ = nullptr;
    QCheckBox* specials_ = nullptr;
    QLabel* result_ = nullptr;
    QWidget* options_row_ = nullptr;  // the alignment options' widgets
    QHBoxLayout* row_ = nullptr;
    QVBoxLayout* column_ = nullptr;
    static constexpr int kLeastFieldChars = 24;
};

}  // namespace attnviz::ui
