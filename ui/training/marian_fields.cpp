#include "training/marian_fields.h"

#include "heatmap/utf8_text.h"
#include "text/sentencepiece_training.h"
#include "training/transformer_fields.h"

#include <QComboBox>
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

// A side's normalization rule, by the library's name (kSentencePieceNormalizations, the default first). As wide as
// "nmt_nfkc" and "identity" need, so that the row keeps both sides on one line where the pieces' row does (the list
// shows every name whole; "nmt_nfkc_cf", chosen, is elided in the closed box).
QComboBox* normalizationBox(QWidget* parent) {
    auto* c = new QComboBox(parent);
    c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    c->setMinimumContentsLength(8);
    c->setIconSize(QSize(0, 0));  // no icons: no room kept for one
    for (const char* rule : kSentencePieceNormalizations)
        c->addItem(QString::fromLatin1(rule), QString::fromLatin1(rule));
    return c;
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
      source_normalization_(normalizationBox(parent)),
      target_normalization_(normalizationBox(parent)),
      source_lang_(languageEdit(parent)),
      target_lang_(languageEdit(parent)),
      pieces_source_label_(new QLabel(parent)),
      pieces_target_label_(new QLabel(parent)),
      coverage_source_label_(new QLabel(parent)),
      coverage_target_label_(new QLabel(parent)),
      normalization_source_label_(new QLabel(parent)),
      normalization_target_label_(new QLabel(parent)),
      lang_source_label_(new QLabel(parent)),
      lang_target_label_(new QLabel(parent)) {
    pieces_ = sideBySide(parent, pieces_source_label_, source_pieces_, pieces_target_label_, target_pieces_);
    coverages_ = sideBySide(parent, coverage_source_label_, source_coverage_, coverage_target_label_, target_coverage_);
    normalizations_ = sideBySide(parent, normalization_source_label_, source_normalization_,
                                 normalization_target_label_, target_normalization_);
    languages_ = sideBySide(parent, lang_source_label_, source_lang_, lang_target_label_, target_lang_);
    for (QWidget* w : {pieces_, coverages_, normalizations_, languages_})
        form_->addRow(new QLabel(parent), w);  // texts: retranslate()
    setVisible(false);
}

void MarianFields::setArchitecture(const MarianArchitecture& a) {
    source_pieces_->setValue(a.source_pieces);
    target_pieces_->setValue(a.target_pieces);
    source_coverage_->setValue(a.source_coverage);
    target_coverage_->setValue(a.target_coverage);
    source_normalization_->setCurrentIndex(source_normalization_->findData(qs(a.source_normalization)));
    target_normalization_->setCurrentIndex(target_normalization_->findData(qs(a.target_normalization)));
    source_lang_->setText(qs(a.source_lang));
    target_lang_->setText(qs(a.target_lang));
}

void MarianFields::fill(MarianArchitecture& a) const {
    a.source_pieces = source_pieces_->value();
    a.target_pieces = target_pieces_->value();
    a.source_coverage = source_coverage_->value();
    a.target_coverage = target_coverage_->value();
    a.source_normalization = source_normalization_->currentData().toString().toStdString();
    a.target_normalization = target_normalization_->currentData().toString().toStdString();
    a.source_lang = source_lang_->text().trimmed().toStdString();
    a.target_lang = target_lang_->text().trimmed().toStdString();
}

void MarianFields::setVisible(bool visible) {
    for (QWidget* w : {pieces_, coverages_, normalizations_, languages_}) form_->setRowVisible(w, visible);
}

void MarianFields::setEnabled(bool enabled) {
    for (QWidget* w : {pieces_, coverages_, normalizations_, languages_}) w->setEnabled(enabled);
}

void MarianFields::retranslate() {
    const std::pair<QWidget*, QString> rows[] = {{pieces_, tr("SentencePiece pieces:")},
                                                 {coverages_, tr("Character coverage:")},
                                                 {normalizations_, tr("Normalization:")},
                                                 {languages_, tr("Languages:")}};
    for (const auto& [row, text] : rows)
        if (auto* label = qobject_cast<QLabel*>(form_->labelForField(row))) label->setText(text);
    for (QLabel* label :
         {pieces_source_label_, coverage_source_label_, normalization_source_label_, lang_source_label_})
        label->setText(tr("source"));
    for (QLabel* label :
         {pieces_target_label_, coverage_target_label_, normalization_target_label_, lang_target_label_})
        label->setText(tr("target"));
    coverages_->setToolTip(
        tr("The share of each side's characters (by count) that get pieces of their own: 1 keeps every character; "
           "below it the rarest become <unk>, and a side needs fewer pieces. SentencePiece advises 0.9995 for "
           "Chinese or Japanese"));
    normalizations_->setToolTip(
        tr("How each side's SentencePiece model normalizes text, in training and whenever it reads text: nmt_nfkc "
           "(as opus-mt models) and nfkc turn full-width punctuation into ASCII (\"，\" into \",\"); the _cf "
           "rules also fold case; identity changes nothing but spaces, so a Chinese or Japanese target keeps its "
           "own punctuation"));
    pieces_->setToolTip(
        tr("The size of each side's SentencePiece model, trained on the corpus when training starts (its 3 special "
           "pieces included); the two share one vocabulary. A corpus too small for a size is refused with the size "
           "it allows"));
    source_lang_->setPlaceholderText(tr("e.g. en"));
    target_lang_->setPlaceholderText(tr("e.g. zh"));
    languages_->setToolTip(tr("The languages' codes, recorded in the folder's tokenizer_config.json (may be empty)"));
}

}  // namespace attnviz::ui
