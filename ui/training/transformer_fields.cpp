#include "training/transformer_fields.h"
#include "base/errors.h"
#include "heatmap/utf8_text.h"

#include "heatmap/plot_palette.h"
#include "training/flow_layout.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>

namespace attnviz::ui {
namespace {

QSpinBox* spin(QWidget* parent, int lo, int hi, int step) {
    auto* s = new QSpinBox(parent);
    s->setRange(lo, hi);
    s->setSingleStep(step);
    return s;
}

}  // namespace

// Each label with its field, the second pair under the first where the form is too narrow for both on a line.
QWidget* sideBySide(QWidget* parent, QLabel* first_label, QWidget* first, QLabel* second_label, QWidget* second) {
    auto* row = new QWidget(parent);
    auto* flow = new FlowLayout(row);
    for (auto [label, field] : {std::pair{first_label, first}, std::pair{second_label, second}}) {
        auto* pair = new QWidget(row);
        auto* layout = new QHBoxLayout(pair);
        layout->setContentsMargins(0, 0, 0, 0);
        label->setParent(pair);
        field->setParent(pair);
        layout->addWidget(label);
        layout->addWidget(field);
        label->setBuddy(field);
        flow->addWidget(pair);
    }
    return row;
}

TransformerFields::TransformerFields(QFormLayout* form, QWidget* parent)
    : QObject(parent),
      form_(form),
      d_model_(spin(parent, 1, 4096, 2)),
      nhead_(spin(parent, 1, 256, 1)),
      encoder_layers_(spin(parent, 1, 32, 1)),
      decoder_layers_(spin(parent, 1, 32, 1)),
      encoder_layers_label_(new QLabel(parent)),
      decoder_layers_label_(new QLabel(parent)),
      // "Layers: encoder [2] decoder [2]", one row
      layers_(sideBySide(parent, encoder_layers_label_, encoder_layers_, decoder_layers_label_, decoder_layers_)),
      feed_forward_(spin(parent, 1, 65536, 64)),
      norm_(new QComboBox(parent)),
      activation_(new QComboBox(parent)),
      problem_(new QLabel(parent)) {
    norm_->addItem(QString(), false);  // texts: retranslate()
    norm_->addItem(QString(), true);
    setActivations({Activation::Relu, Activation::Gelu});
    // One line, never wider than the form (the whole text is also the tooltip): a word-wrapped label (height for
    // width) makes QFormLayout squeeze other rows to nothing.
    problem_->setMinimumWidth(1);
    problem_->setStyleSheet(warningStyleSheet(parent->palette()));
    for (QWidget* w : rows()) {
        form_->addRow(new QLabel(parent), w);
        if (w == nhead_) form_->addRow(problem_);  // the message sits right under d_model and nhead
    }
    for (QSpinBox* s : {d_model_, nhead_, encoder_layers_, decoder_layers_, feed_forward_})
        connect(s, &QSpinBox::valueChanged, this, &TransformerFields::changed);
    for (QComboBox* b : {norm_, activation_})
        connect(b, &QComboBox::currentIndexChanged, this, &TransformerFields::changed);
    setVisible(false);
}

std::vector<QWidget*> TransformerFields::rows() const {
    return {d_model_, nhead_, layers_, feed_forward_, norm_, activation_};
}

std::vector<QWidget*> TransformerFields::inputs() const {
    return {d_model_, nhead_, encoder_layers_, decoder_layers_, feed_forward_, norm_, activation_};
}

TransformerConfig TransformerFields::config() const {
    TransformerConfig c;
    c.d_model = d_model_->value();
    c.setHeads(nhead_->value());  // the form trains one head count and one width for both sides
    c.num_encoder_layers = encoder_layers_->value();
    c.num_decoder_layers = decoder_layers_->value();
    c.setFeedForward(feed_forward_->value());
    c.norm_first = norm_->currentData().toBool();
    c.activation = parseActivation(activation_->currentData().toString().toStdString());
    return c;
}

void TransformerFields::setConfig(const TransformerConfig& c) {
    d_model_->setValue(c.d_model);
    nhead_->setValue(c.encoder_nhead);
    encoder_layers_->setValue(c.num_encoder_layers);
    decoder_layers_->setValue(c.num_decoder_layers);
    feed_forward_->setValue(c.encoder_dim_feedforward);
    norm_->setCurrentIndex(c.norm_first ? 1 : 0);
    activation_->setCurrentIndex(std::max(0, activation_->findData(QString::fromUtf8(toString(c.activation).data()))));
}

void TransformerFields::setVisible(bool visible) {
    visible_ = visible;
    for (QWidget* w : rows()) form_->setRowVisible(w, visible && !(marian_ && w == norm_));
    form_->setRowVisible(problem_, visible && !problem_->text().isEmpty());
}

void TransformerFields::setMarian(bool marian) {
    if (marian == marian_) return;
    marian_ = marian;
    const QSignalBlocker quiet(activation_);  // a kind change, not an edit
    if (marian)
        setActivations({Activation::Swish, Activation::Relu, Activation::Gelu, Activation::GeluTanh});
    else
        setActivations({Activation::Relu, Activation::Gelu});
    setVisible(visible_);
}

void TransformerFields::setActivations(std::initializer_list<Activation> activations) {
    const QString chosen = activation_->currentData().toString();
    activation_->clear();
    for (Activation a : activations)
        activation_->addItem(QString::fromUtf8(toString(a).data()), QString::fromUtf8(toString(a).data()));
    activation_->setCurrentIndex(std::max(0, activation_->findData(chosen)));
}

void TransformerFields::setEnabled(bool enabled) {
    for (QWidget* w : inputs()) w->setEnabled(enabled);
}

void TransformerFields::setProblem(const QString& text) {
    problem_->setText(text);
    problem_->setToolTip(text);
    form_->setRowVisible(problem_, visible_ && !text.isEmpty());
}

QString TransformerFields::problemText(const ModelConfig& c) {
    using Rule = TransformerSizeProblem::Rule;
    QString why;
    if (const std::optional<TransformerSizeProblem> p = transformerSizeProblem(c.transformer)) {
        if (p->rule == Rule::EvenModelSize)
            why = tr("the model size (d_model) must be even: %1 is odd (the positions pair a sine and a cosine)")
                      .arg(p->value);
        else if (p->rule == Rule::HeadsDivideModelSize)
            why = tr("%1 heads do not divide the model size %2 (each head takes d_model / heads numbers)")
                      .arg(p->value)
                      .arg(c.transformer.d_model);
        else
            why = tr("%1 is %2; it must be at least 1").arg(QString::fromUtf8(p->key)).arg(p->value);
    } else if (const uint64_t bytes = minimumWeightBytes(c); bytes > kMaxWeightBytes) {
        const auto gib = [](uint64_t b) { return QString::number(double(b) / double(uint64_t(1) << 30), 'f', 1); };
        why = tr("these sizes need at least %1 GiB for the weights alone; the limit is %2 GiB")
                  .arg(gib(bytes), gib(kMaxWeightBytes));
    } else {
        try {
            validateConfig(c);
            return {};
        } catch (const std::exception& e) {
            why = qs(errorMessage(e));
            if (why.startsWith(QLatin1String("config: "))) why = why.mid(8);
        }
    }
    return tr("Cannot train this Transformer: %1").arg(why);
}

void TransformerFields::retranslate() {
    const std::pair<QWidget*, QString> labels[] = {
        {d_model_, tr("Model size (d_model):")},   {nhead_, tr("Attention heads:")}, {layers_, tr("Layers:")},
        {feed_forward_, tr("Feed-forward size:")}, {norm_, tr("Layer norm:")},       {activation_, tr("Activation:")},
    };
    for (const auto& [w, text] : labels)
        if (auto* label = qobject_cast<QLabel*>(form_->labelForField(w))) label->setText(text);
    d_model_->setToolTip(
        tr("The width of every token's vector, embeddings included (even: positions pair sin and cos)"));
    nhead_->setToolTip(
        tr("Each layer's attention is split into this many heads of d_model / heads each; it must "
           "divide d_model"));
    encoder_layers_label_->setText(tr("encoder"));
    decoder_layers_label_->setText(tr("decoder"));
    layers_->setToolTip(
        tr("How many layers the encoder and the decoder stack (num_encoder_layers, "
           "num_decoder_layers)"));
    feed_forward_->setToolTip(tr("The hidden width of each layer's feed-forward block (dim_feedforward)"));
    norm_->setItemText(0, tr("post-LN"));
    norm_->setItemText(1, tr("pre-LN"));
    norm_->setItemData(0, tr("LayerNorm after each block's residual sum (PyTorch's default)"), Qt::ToolTipRole);
    norm_->setItemData(1, tr("LayerNorm before each block, inside the residual branch (trains more easily)"),
                       Qt::ToolTipRole);
    norm_->setToolTip(tr("Where each layer normalizes (norm_first): post-LN after each block, pre-LN before it"));
    activation_->setToolTip(tr("The feed-forward block's activation"));
}

}  // namespace attnviz::ui
