// The shipped sample models: where they are, what each one is (read from the file header only, no weights), the
// default one the app opens, and a dialog that lists them by task.
#pragma once
#include "model/config.h"
#include "model/model.h"

#include <QDialog>
#include <QString>
#include <QStringList>

#include <vector>

class QTreeWidget;
class QLabel;
class QDialogButtonBox;

namespace attnviz::ui {

struct ModelInfo {
    QString path;
    QString task;  // "" when the file has none
    QString description;
    QString example;  // "example" metadata: a sentence to start with ("" when absent)
    ModelConfig config;
    int source_vocab_size = 0;
    int target_vocab_size = 0;
    QString error;  // not empty: the header could not be read (the other fields are unset)
};

// Reads a model file's header (metadata, no weights); `error` is set on failure.
ModelInfo readModelInfo(const QString& path);
// The folders searched for sample models, in order, that exist: $ATTNVIZ_SAMPLE_MODELS,
// <exe dir>/../share/attnviz/sample_models, the source tree's sample_models/.
QStringList sampleModelDirs();
// Every *.safetensors in `dir`, sorted by task then file name (files without a task last).
std::vector<ModelInfo> scanModelDir(const QString& dir);
// The first model of the first task in the first folder that has any; "" when there is none.
QString defaultSampleModel();
// A sentence to decode first: the model's "example" metadata, else a built-in one for its task.
QString exampleSentence(const QString& task, const QString& metadataExample);
// The sentence a model is first shown with: its exampleSentence, else the first few words of its vocabulary.
QString firstSentence(const Model& model);

class ModelLibraryDialog : public QDialog {
    Q_OBJECT
public:
    explicit ModelLibraryDialog(QWidget* parent = nullptr);
    // Fills the tree: folder → task → models (decoder, score, sizes), then the Marian folders of the Hugging Face
    // cache `hub_cache` (dialogs/hub_cache.h) by repository and languages. Other folders may be given (tests).
    void populate(const QStringList& dirs, const QString& hub_cache);
    void populate(const QStringList& dirs);  // with hubCacheDir()
    QTreeWidget* tree() const { return tree_; }
    QString selectedPath() const;

signals:
    void modelChosen(const QString& path);

private:
    void addHubModels(const QString& hub_cache);

    QTreeWidget* tree_;
    QLabel* details_;
    QDialogButtonBox* buttons_;
};

}  // namespace attnviz::ui
