// The compare view's chooser of which cross-attention one side compares (eval/compare_heads.h): the model's own
// `attention` (for a Transformer the last layer's average over heads, the default), or one decoder layer's average
// over heads, or one layer's head. Enabled for a Transformer only: an RNN model's one attention has nothing to choose.
#pragma once
#include "decode/attention_views.h"
#include "model/config.h"

#include <QComboBox>

namespace attnviz::ui {

class HeadChoiceBox : public QComboBox {
    Q_OBJECT
public:
    explicit HeadChoiceBox(QWidget* parent = nullptr);

    // The side's model (nullptr: none yet). A choice the new model also has stays; otherwise the default is chosen
    // (and choiceChanged emitted).
    void setModelConfig(const ModelConfig* config);
    AttentionView choice() const { return choice_; }
    // Chooses `view` as a user would (choiceChanged when it changes); false, and nothing changes, when the model has
    // no such layer or head.
    bool setChoice(const AttentionView& view);
    // The entry of `view`, -1 when there is none.
    int indexOf(const AttentionView& view) const;

signals:
    void choiceChanged();

protected:
    void changeEvent(QEvent* event) override;

private:
    void fill();
    void chooseIndex(int index);

    bool has_model_ = false;
    bool transformer_ = false;
    int layers_ = 0, heads_ = 0;
    AttentionView choice_;
};

}  // namespace attnviz::ui
