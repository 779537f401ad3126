// The Transformer's rows of the training form (docs/transformer.md's config keys): d_model, nhead, encoder and
// decoder layers (one row), dim_feedforward, post-LN or pre-LN (norm_first), relu or gelu, and the place below nhead
// where the form shows why a config cannot be trained, in the reader's language. The fields only read and write a
// TransformerConfig; the rules are core's (model/config.h, model/transformer_params.h), not repeated here.
#pragma once
#include "model/config.h"
#include "model/transformer_params.h"

#include <QObject>
#include <QString>
#include <vector>

class QComboBox;
class QFormLayout;
class QLabel;
class QSpinBox;
class QWidget;

namespace attnviz::ui {

class TransformerFields : public QObject {
    Q_OBJECT
public:
    // Adds the rows to `form` (after its current last row), each with a label.
    TransformerFields(QFormLayout* form, QWidget* parent);

    TransformerConfig config() const;
    void setConfig(const TransformerConfig& c);
    void setVisible(bool visible);         // the rows (the problem row only while there is a problem)
    void setEnabled(bool enabled);         // off while continuing from a model file (its kind is kept)
    void setProblem(const QString& text);  // "" : the config is valid
    // Why `c` (a Transformer's) cannot be trained, in the reader's language; "" when it can. Core's rules
    // (transformerSizeProblem, minimumWeightBytes), core's English text for any other.
    static QString problemText(const ModelConfig& c);
    void retranslate();

    QSpinBox* dModelBox() const { return d_model_; }
    QSpinBox* nheadBox() const { return nhead_; }
    QSpinBox* encoderLayersBox() const { return encoder_layers_; }
    QSpinBox* decoderLayersBox() const { return decoder_layers_; }
    QSpinBox* feedForwardBox() const { return feed_forward_; }
    QComboBox* normBox() const { return norm_; }
    QComboBox* activationBox() const { return activation_; }
    QLabel* problemLabel() const { return problem_; }
    std::vector<QWidget*> inputs() const;  // every spin box and combo box

signals:
    void changed();  // a field was edited

private:
    std::vector<QWidget*> rows() const;  // the form's field of each row (the layers' row holds two spin boxes)

    QFormLayout* form_;
    QSpinBox* d_model_;
    QSpinBox* nhead_;
    QSpinBox* encoder_layers_;
    QSpinBox* decoder_layers_;
    QWidget* layers_;  // encoder_layers_ and decoder_layers_ side by side
    QLabel* encoder_layers_label_;
    QLabel* decoder_layers_label_;
    QSpinBox* feed_forward_;
    QComboBox* norm_;
    QComboBox* activation_;
    QLabel* problem_;
    bool visible_ = false;
};

}  // namespace attnviz::ui
