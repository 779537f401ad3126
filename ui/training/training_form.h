// The left side of the "Train a model…" window: the corpus (a sample corpus or any TSV), the model (its kind:
// bahdanau, luong, transformer or a Marian in the Hugging Face layout; for the RNN kinds score, span, sizes; for a
// Transformer and a Marian the rows of transformer_fields.h, for a Marian also its SentencePiece sizes and languages
// (marian_fields.h, training_form_marian.cpp); tokenizers; or a model file to continue from), the optimizer and
// schedule (warm-up included), guidance (RNN kinds and Transformer), the probe sentence and where the model is written
// (a file, for a Marian a folder). It only gathers the choices (settings()); choosing a corpus fills in its defaults
// and choosing the other model family its learning rate and warm-up (training_job.h). A new model's config is checked
// by core's validateConfig as it is typed: problem() says what is wrong (shown under the Transformer's nhead), and the
// window keeps Start off meanwhile.
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

class MarianFields;
class TransformerFields;

// The kind box's data for a Marian (the other items' data are the engine's decoder kinds).
inline const QString kMarianKind = QStringLiteral("marian");

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
    bool marianChosen() const;       // the kind box's "Marian (Hugging Face layout, SentencePiece)"

    QComboBox* decoderBox() const { return decoder_; }
    TransformerFields* transformerFields() const { return transformer_; }
    MarianFields* marianFields() const { return marian_; }
    QSpinBox* warmupBox() const { return warmup_; }
    QComboBox* lrDecayBox() const { return lr_decay_; }
    QDoubleSpinBox* smoothingBox() const { return smoothing_; }
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
    bool transformerFamily() const { return transformerChosen() || marianChosen(); }
    // training_form_marian.cpp
    MarianArchitecture marianArchitecture() const;  // the rows' Marian (its other settings those last applied)
    void showMarianSizes(bool marian);  // the Transformer's rows hold the Marian's sizes or the Transformer's
    void applyModel(const TrainingSettings& s);
    QString defaultOut() const;  // the model file (or Marian folder) the form proposes for the kind and task
    void nameKindsAndOut();      // the kind box's items and the model file's label in the reader's language

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
    QComboBox* lr_decay_;
    QDoubleSpinBox* lr_;
    QSpinBox* warmup_;
    QSpinBox* batch_;
    QSpinBox* epochs_;
    QDoubleSpinBox* clip_;
    QDoubleSpinBox* dropout_;
    QDoubleSpinBox* smoothing_;
    QDoubleSpinBox* align_;
    QSpinBox* seed_;
    QSpinBox* snapshot_every_;
    QLineEdit* probe_;
    QLineEdit* probe_reference_;
    QLineEdit* out_;
    TransformerFields* transformer_ = nullptr;
    MarianFields* marian_ = nullptr;
    MarianArchitecture marian_base_;       // the Marian last applied: its sizes while the rows hold the Transformer's
    TransformerConfig transformer_sizes_;  // the Transformer's sizes while the rows hold the Marian's
    bool marian_sizes_shown_ = false;
    int threads_ = 1;
    bool transformer_family_ = false;  // the family of the last kind chosen (lr and warm-up follow a change)
    QString problem_;
    QString default_out_;  // the model file the form proposed, while the user has not typed another
    QFormLayout* form_ = nullptr;
    QLabel* corpus_label_ = nullptr;
};

}  // namespace attnviz::ui
