// The Transformer's rows of the training form (docs/transformer.md's config keys): d_model, nhead, encoder and
// decoder layers (one row), dim_feedforward, post-LN or pre-LN (norm_first), relu or gelu (a Marian model's sizes
// are these rows too, without the layer norm, with Marian's activations), and the place below nhead
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

// One row of two labelled fields, "first [a] second [b]", each label the buddy of its field (the form's rows that
// hold an encoder's and a decoder's, or a source's and a target's, value).
QWidget* sideBySide(QWidget* parent, QLabel* first_label, QWidget* first, QLabel* second_label, QWidget* second);

class TransformerFields : public QObject {
    Q_OBJECT
public:
    // Adds the rows to `form` (after its current last row), each with a label.
    TransformerFields(QFormLayout* form, QWidget* parent);

    TransformerConfig config() const;
    void setConfig(const TransformerConfig& c);
    void setVisible(bool visible);  // the rows (the problem row only while there is a problem)
    // The rows of a Marian model (marian_fields.h): no layer-norm row (Marian is post-LN) and Marian's activations
    // (swish, relu, gelu, gelu_new) instead of the tutorial Transformer's (relu, gelu). The activation chosen stays
    // when the other list has it, else the list's first.
    void setMarian(bool marian);
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
    void setActivations(std::initializer_list<Activation> activations);

    QFormLayout* form_;
    QSpinBox* d_model_;
    QSpinBox* nhead_;
    QSpinBox* encoder_layers_;
    QSpinBox* decoder_layers_;
    QLabel* encoder_layers_label_;
    QLabel* decoder_layers_label_;
    QWidget* layers_;  // encoder_layers_ and decoder_layers_ side by side
    QSpinBox* feed_forward_;
    QComboBox* norm_;
    QComboBox* activation_;
    QLabel* problem_;
    bool visible_ = false;
    bool marian_ = false;
};

}  // namespace attnviz::ui
