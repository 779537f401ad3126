#include "views/head_choice_box.h"
#include "model/model_kind.h"

#include "eval/compare_heads.h"

#include <QEvent>
#include <QPoint>

#include <algorithm>

namespace attnviz::ui {

namespace {

// An entry's data: (layer, head) from 0, -1 for "the default" and "the mean over the layer's heads".
QPoint pointOf(const AttentionView& view) { return {view.layer, view.head}; }

}  // namespace

HeadChoiceBox::HeadChoiceBox(QWidget* parent) : QComboBox(parent) {
    setSizeAdjustPolicy(QComboBox::AdjustToContents);
    connect(this, &QComboBox::activated, this, &HeadChoiceBox::chooseIndex);
    fill();
}

void HeadChoiceBox::setModelConfig(const ModelConfig* config) {
    has_model_ = config != nullptr;
    transformer_ = config && kindOffers(*config).attention_heads;
    layers_ = transformer_ ? config->transformer.num_decoder_layers : 0;
    heads_ = transformer_ ? config->transformer.decoder_nhead : 0;  // the cross-attention's
    const bool keeps = config && headChoiceProblem(*config, choice_).empty();
    const bool changed = !keeps && !choice_.isDefault();
    if (!keeps) choice_ = {};
    fill();
    if (changed) emit choiceChanged();
}

bool HeadChoiceBox::setChoice(const AttentionView& view) {
    const int index = indexOf(view);
    if (index < 0) return false;
    setCurrentIndex(index);
    chooseIndex(index);
    return true;
}

int HeadChoiceBox::indexOf(const AttentionView& view) const {
    if (view.kind != AttentionKind::Cross) return -1;
    for (int i = 0; i < count(); ++i)
        if (itemData(i).toPoint() == pointOf(view)) return i;
    return -1;
}

void HeadChoiceBox::chooseIndex(int index) {
    const QPoint at = itemData(index).toPoint();
    const AttentionView view{AttentionKind::Cross, at.x(), at.y()};
    if (view == choice_) return;
    choice_ = view;
    emit choiceChanged();
}

void HeadChoiceBox::fill() {
    const QSignalBlocker block(this);
    clear();
    if (!transformer_) {
        addItem(has_model_ ? tr("The model's attention (an RNN has no heads)") : tr("(no model)"), pointOf({}));
        setEnabled(false);
        setToolTip(tr("Only a Transformer's cross-attention has layers and heads to choose from"));
        return;
    }
    addItem(tr("Average of heads, last layer (the model's attention)"), pointOf({}));
    for (int layer = 0; layer < layers_; ++layer) {
        addItem(tr("Layer %1 · average of heads").arg(layer + 1), pointOf({AttentionKind::Cross, layer, -1}));
        for (int head = 0; head < heads_; ++head)
            addItem(tr("Layer %1 · head %2").arg(layer + 1).arg(head + 1),
                    pointOf({AttentionKind::Cross, layer, head}));
    }
    setEnabled(true);
    setToolTip(
        tr("Which cross-attention of this Transformer is compared: the model's attention (the last decoder layer's "
           "average over heads), one layer's average, or one head. The maps, distances and AER use it."));
    setCurrentIndex(std::max(0, indexOf(choice_)));
}

void HeadChoiceBox::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) fill();
    QComboBox::changeEvent(event);
}

}  // namespace attnviz::ui
