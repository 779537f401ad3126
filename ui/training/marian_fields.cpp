#include "training/marian_fields.h"

#include "heatmap/utf8_text.h"
#include "text/sentencepiece_training.h"
#include "training/transformer_fields.h"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpressionValidator>
#include <QSpinBox>

#include <utility>

namespace attnviz::ui {
namespace {

QSpinBox* piecesBox(QWidget* parent) {
    auto* s = new QSpinBox(parent);
    s->setRange(kMinSentencePieceVocab, kMaxSentencePieceVocab);
    s->setSingleStep(100);
    s->setGroupSeparatorShown(true);
    // As wide as its largest value (1,000,000) needs; the row puts the target's under the source's where the form
    // is narrow (sideBySide).
    return s;
}

// A side's character coverage: 1 keeps every character; SentencePiece advises 0.9995 for Chinese or Japanese.
QDoubleSpinBox* coverageBox(QWidget* parent) {
    auto* s = new QDoubleSpinBox(parent);
    s->setRange(kMinCharacterCoverage, 1.0);
    s->setDecimals(4);
    s->setSingleStep(0.0005);
    s->setValue(1.0);
    return s;
}

// A language code as tokenizer_config.json records it ("en", "zh", "pt_BR", "zho_Hans"); empty for none.
QLineEdit* languageEdit(QWidget* parent) {
    auto* e = new QLineEdit(parent);
    static const QRegularExpression code(QStringLiteral("[A-Za-z0-9_-]{0,16}"));
    e->setValidator(new QRegularExpressionValidator(code, e));
    // A code is short: room for "zho_Hans" (a line edit's own width would set two of them on two lines).
    e->setFixedWidth(e->minimumSizeHint().width() + e->fontMetrics().horizontalAdvance(QStringLiteral("zho_Hans")));
    return e;
}

}  // namespace

MarianFields::MarianFields(QFormLayout* form, QWidget* parent)
    : QObject(parent),
      form_(form),
      source_pieces_(piecesBox(parent)),
      target_pieces_(piecesBox(parent)),
      source_coverage_(coverageBox(parent)),
      target_coverage_(coverageBox(parent)),
      source_lang_(languageEdit(parent)),
      target_lang_(languageEdit(parent)),
      pieces_source_label_(new QLabel(parent)),
      pieces_target_label_(new QLabel(parent)),
      coverage_source_label_(new QLabel(parent)),
      coverage_target_label_(new QLabel(parent)),
      lang_source_label_(new QLabel(parent)),
      lang_target_label_(new QLabel(parent)) {
    pieces_ = sideBySide(parent, pieces_source_label_, source_pieces_, pieces_target_label_, target_pieces_);
    coverages_ = sideBySide(parent, coverage_source_label_, source_coverage_, coverage_target_label_, target_coverage_);
    languages_ = sideBySide(parent, lang_source_label_, source_lang_, lang_target_label_, target_lang_);
    for (QWidget* w : {pieces_, coverages_, languages_}) form_->addRow(new QLabel(parent), w);  // texts: retranslate()
    setVisible(false);
}

void MarianFields::setArchitecture(const MarianArchitecture& a) {
    source_pieces_->setValue(a.source_pieces);
    target_pieces_->setValue(a.target_pieces);
    source_coverage_->setValue(a.source_coverage);
    target_coverage_->setValue(a.target_coverage);
    source_lang_->setText(qs(a.source_lang));
    target_lang_->setText(qs(a.target_lang));
}

void MarianFields::fill(MarianArchitecture& a) const {
    a.source_pieces = source_pieces_->value();
    a.target_pieces = target_pieces_->value();
    a.source_coverage = source_coverage_->value();
    a.target_coverage = target_coverage_->value();
    a.source_lang = source_lang_->text().trimmed().toStdString();
    a.target_lang = target_lang_->text().trimmed().toStdString();
}

void MarianFields::setVisible(bool visible) {
    for (QWidget* w : {pieces_, coverages_, languages_}) form_->setRowVisible(w, visible);
}

void MarianFields::setEnabled(bool enabled) {
    for (QWidget* w : {pieces_, coverages_, languages_}) w->setEnabled(enabled);
}

void MarianFields::retranslate() {
    const std::pair<QWidget*, QString> rows[] = {{pieces_, tr("SentencePiece pieces:")},
                                                 {coverages_, tr("Character coverage:")},
                                                 {languages_, tr("Languages:")}};
    for (const auto& [row, text] : rows)
        if (auto* label = qobject_cast<QLabel*>(form_->labelForField(row))) label->setText(text);
    for (QLabel* label : {pieces_source_label_, coverage_source_label_, lang_source_label_})
        label->setText(tr("source"));
    for (QLabel* label : {pieces_target_label_, coverage_target_label_, lang_target_label_})
        label->setText(tr("target"));
    coverages_->setToolTip(
        tr("The share of each side's characters (by count) that get pieces of their own: 1 keeps every character; "
           "below it the rarest become <unk>, and a side needs fewer pieces. SentencePiece advises 0.9995 for "
           "Chinese or Japanese"));
    pieces_->setToolTip(
        tr("The size of each side's SentencePiece model, trained on the corpus when training starts (its 3 special "
           "pieces included); the two share one vocabulary. A corpus too small for a size is refused with the size "
           "it allows"));
    source_lang_->setPlaceholderText(tr("e.g. en"));
    target_lang_->setPlaceholderText(tr("e.g. zh"));
    languages_->setToolTip(tr("The languages' codes, recorded in the folder's tokenizer_config.json (may be empty)"));
}

}  // namespace attnviz::ui
