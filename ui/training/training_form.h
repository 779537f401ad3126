// The left side of the "Train a model…" window: the corpus (a sample corpus or any TSV), the model (its kind:
// bahdanau, luong or transformer; for the RNN kinds score, span, sizes; for a Transformer its rows in
// transformer_fields.h; tokenizers; or a model file to continue from), the optimizer and schedule (warm-up
// included), guidance (RNN kinds), the probe sentence and where the model is written. It only gathers the choices
// (settings()); choosing a corpus fills in its defaults and choosing the other model family its learning rate and
// warm-up (training_job.h). A new model's config is checked by core's validateConfig as it is typed: problem()
// says what is wrong (shown under the Transformer's nhead), and the window keeps Start off meanwhile.
#pragma once
#include "training/training_job.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace attnviz::ui {

class TransformerFields;

class TrainingForm : public QWidget {
    Q_OBJECT
public:
    explicit TrainingForm(QWidget* parent = nullptr);

    TrainingSettings settings() const;
    void applySettings(const TrainingSettings& s);  // every field from s
    // Adds (if new) and selects a corpus file; its defaults are applied and the probe becomes its first line.
    void setCorpusFile(const QString& path);
    void retranslate();
    // Why the Transformer typed cannot be made (core's validateConfig message, shown under nhead), "" when it can,
    // for the RNN kinds (their settings are checked when a run starts) and when training continues from a file.
    QString problem() const { return problem_; }
    bool transformerChosen() const;  // the kind box's choice (a model file continued from keeps its own kind)

    QComboBox* decoderBox() const { return decoder_; }
    TransformerFields* transformerFields() const { return transformer_; }
    QSpinBox* warmupBox() const { return warmup_; }
    QDoubleSpinBox* learningRateBox() const { return lr_; }
    QDoubleSpinBox* dropoutBox() const { return dropout_; }
    QDoubleSpinBox* guidanceBox() const { return align_; }
    QComboBox* scoreBox() const { return score_; }
    // Whether the row of `field` is shown (the rows of the other model family are hidden).
    bool isRowShown(QWidget* field) const;

    QComboBox* corpusBox() const { return corpus_; }
    QSpinBox* epochsBox() const { return epochs_; }
    QSpinBox* snapshotEveryBox() const { return snapshot_every_; }
    QLineEdit* probeEdit() const { return probe_; }
    QLineEdit* probeReferenceEdit() const { return probe_reference_; }
    QLineEdit* outEdit() const { return out_; }

signals:
    void problemChanged(const QString& problem);
    void modelKindChanged(bool transformer);

private:
    void buildFields();
    void corpusChosen(int index);
    void browseCorpus();
    void updateEnabled();
    void kindChosen();
    void checkConfig();
    ModelConfig modelConfig() const;

    QComboBox* corpus_;
    QPushButton* browse_;
    QLineEdit* valid_;
    QLineEdit* init_;
    QLineEdit* task_;
    QSpinBox* lines_;
    QComboBox* decoder_;
    QComboBox* score_;
    QComboBox* span_;
    QCheckBox* feed_;
    QComboBox* source_tok_;
    QComboBox* target_tok_;
    QCheckBox* lowercase_;
    QSpinBox* emb_;
    QSpinBox* enc_;
    QSpinBox* dec_;
    QSpinBox* min_freq_;
    QComboBox* optimizer_;
    QDoubleSpinBox* lr_;
    QSpinBox* warmup_;
    QSpinBox* batch_;
    QSpinBox* epochs_;
    QDoubleSpinBox* clip_;
    QDoubleSpinBox* dropout_;
    QDoubleSpinBox* align_;
    QSpinBox* seed_;
    QSpinBox* snapshot_every_;
    QLineEdit* probe_;
    QLineEdit* probe_reference_;
    QLineEdit* out_;
    TransformerFields* transformer_ = nullptr;
    int threads_ = 1;
    bool transformer_family_ = false;  // the family of the last kind chosen (lr and warm-up follow a change)
    QString problem_;
    QString default_out_;  // the model file the form proposed, while the user has not typed another
    QFormLayout* form_ = nullptr;
    QLabel* corpus_label_ = nullptr;
};

}  // namespace attnviz::ui
