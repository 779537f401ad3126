// The Marian rows of the training form (docs/marian.md "Training a Marian-layout model of your own"): the sizes of
// the two SentencePiece models trained on the corpus (source and target pieces, their 3 specials included, in one
// row), their character coverages (one row), their normalization rules (one row) and the two language codes recorded
// in the folder (one row). The model's sizes are the Transformer's rows (transformer_fields.h). The fields only read
// and write a MarianArchitecture; the pieces' range is core's (kMinSentencePieceVocab to kMaxSentencePieceVocab), and
// whether the corpus allows them is core's word at Start.
#pragma once
#include "train/marian_start.h"

#include <QObject>

class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QSpinBox;
class QWidget;

namespace attnviz::ui {

class MarianFields : public QObject {
    Q_OBJECT
public:
    // Adds the four rows to `form` (after its current last row), each with a label.
    MarianFields(QFormLayout* form, QWidget* parent);

    // The pieces, coverages, normalizations and languages of `a` into the fields, and back into `a` (its other
    // members kept).
    void setArchitecture(const MarianArchitecture& a);
    void fill(MarianArchitecture& a) const;
    void setVisible(bool visible);
    void setEnabled(bool enabled);
    void retranslate();

    QSpinBox* sourcePiecesBox() const { return source_pieces_; }
    QSpinBox* targetPiecesBox() const { return target_pieces_; }
    QDoubleSpinBox* sourceCoverageBox() const { return source_coverage_; }
    QDoubleSpinBox* targetCoverageBox() const { return target_coverage_; }
    QComboBox* sourceNormalizationBox() const { return source_normalization_; }
    QComboBox* targetNormalizationBox() const { return target_normalization_; }
    QLineEdit* sourceLangEdit() const { return source_lang_; }
    QLineEdit* targetLangEdit() const { return target_lang_; }
    QWidget* piecesRow() const { return pieces_; }

private:
    QFormLayout* form_;
    QSpinBox* source_pieces_;
    QSpinBox* target_pieces_;
    QDoubleSpinBox* source_coverage_;
    QDoubleSpinBox* target_coverage_;
    QComboBox* source_normalization_;
    QComboBox* target_normalization_;
    QLineEdit* source_lang_;
    QLineEdit* target_lang_;
    QWidget* pieces_;          // "source [ ] target [ ]"
    QWidget* coverages_;       // the same for the character coverages
    QWidget* normalizations_;  // the same for the normalization rules
    QWidget* languages_;       // the same for the language codes
    QLabel* pieces_source_label_;
    QLabel* pieces_target_label_;
    QLabel* coverage_source_label_;
    QLabel* coverage_target_label_;
    QLabel* normalization_source_label_;
    QLabel* normalization_target_label_;
    QLabel* lang_source_label_;
    QLabel* lang_target_label_;
};

}  // namespace attnviz::ui
