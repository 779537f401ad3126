// TrainingForm's Marian (training_form.h): the kind box's items in the reader's language, a Marian's settings from
// the rows (its sizes in the Transformer's rows, its pieces and languages in marian_fields.h), the sizes the
// Transformer's rows hold as the kind moves between a Transformer and a Marian (each keeps its own), and where the
// model is written (a file, or a Marian's folder).
#include "state/model_names.h"
#include "training/marian_fields.h"
#include "training/training_form.h"
#include "training/transformer_fields.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>

namespace attnviz::ui {
bool TrainingForm::marianChosen() const { return decoder_->currentData().toString() == kMarianKind; }

MarianArchitecture TrainingForm::marianArchitecture() const {
    MarianArchitecture a =
        marian_sizes_shown_ ? withTransformerSizes(marian_base_, transformer_->config()) : marian_base_;
    marian_->fill(a);
    return a;
}

void TrainingForm::showMarianSizes(bool marian) {
    if (marian == marian_sizes_shown_) return;
    if (marian_sizes_shown_)
        marian_base_ = withTransformerSizes(marian_base_, transformer_->config());
    else
        transformer_sizes_ = transformer_->config();
    marian_sizes_shown_ = marian;
    transformer_->setMarian(marian);
    transformer_->setConfig(marian ? marian_base_.transformer : transformer_sizes_);
}

QString TrainingForm::defaultOut() const {
    const QString task = task_->text().trimmed();
    return marianChosen() ? defaultMarianFolder(task) : defaultModelPath(task, modelConfig());
}

void TrainingForm::nameKindsAndOut() {
    for (int i = 0; i < decoder_->count(); ++i) {
        const QString data = decoder_->itemData(i).toString();
        decoder_->setItemText(i, data == kMarianKind ? tr("Marian (Hugging Face layout, SentencePiece)")
                                                     : decoderKindName(parseDecoderKind(data.toStdString())));
    }
    const bool folder = marianChosen();
    if (auto* label = qobject_cast<QLabel*>(form_->labelForField(out_)))
        label->setText(folder ? tr("Model folder:") : tr("Model file:"));
    out_->setToolTip(folder ? tr("A Hugging Face Marian folder, written at every pause and when training ends (whole "
                                 "or not at all); a folder that is not empty is replaced only when you agree")
                            : tr("Written at every pause and when training ends (atomically: never half a file)"));
}

}  // namespace attnviz::ui
