// The left side of the "Train a model…" window: the corpus (a sample corpus or any TSV), the model (decoder, score,
// span, tokenizers, sizes, or a model file to continue from), the optimizer and schedule, guidance, the probe
// sentence and where the model is written. It only gathers the choices (settings()); choosing a corpus fills in
// its defaults (training_job.h).
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

class TrainingForm : public QWidget {
    Q_OBJECT
public:
    explicit TrainingForm(QWidget* parent = nullptr);

    TrainingSettings settings() const;
    void applySettings(const TrainingSettings& s);  // every field from s
    // Adds (if new) and selects a corpus file; its defaults are applied and the probe becomes its first line.
    void setCorpusFile(const QString& path);
    void retranslate();

    QComboBox* corpusBox() const { return corpus_; }
    QSpinBox* epochsBox() const { return epochs_; }
    QSpinBox* snapshotEveryBox() const { return snapshot_every_; }
    QLineEdit* probeEdit() const { return probe_; }
    QLineEdit* probeReferenceEdit() const { return probe_reference_; }
    QLineEdit* outEdit() const { return out_; }

private:
    void buildFields();
    void corpusChosen(int index);
    void browseCorpus();
    void updateEnabled();

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
    int threads_ = 1;
    QFormLayout* form_ = nullptr;
    QLabel* corpus_label_ = nullptr;
};

}  // namespace attnviz::ui
