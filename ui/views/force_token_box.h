// "What if?" with any token: a field under the step panel's candidates where any word of the model's output
// vocabulary can be typed (with completion) and forced at the current step. Observes a DecodeState: the decoded
// model's vocabulary, enabled while a step is shown. Says so when the typed word is not in the vocabulary.
#pragma once
#include <QPointer>
#include <QWidget>

#include <memory>

class QAction;
class QCompleter;
class QLabel;
class QLineEdit;
class QStringListModel;
class QToolButton;

namespace attnviz {
struct Model;
}

namespace attnviz::ui {

class DecodeState;

class ForceTokenBox : public QWidget {
    Q_OBJECT
public:
    explicit ForceTokenBox(QWidget* parent = nullptr);
    void setDecodeState(DecodeState* state);
    // A button beside the field for this action (Clear forced tokens).
    void setClearAction(QAction* action);

    QLineEdit* lineEdit() const { return edit_; }
    QCompleter* completer() const { return completer_; }
    QString errorText() const;  // why the last typed word was not forced; empty when it was
    // The id of `text` in the decoded model's output vocabulary (as typed, else lower-cased when the model lower-cases
    // its text); -1 when it has none or nothing is decoded.
    int tokenId(const QString& text) const;

signals:
    void tokenChosen(int token);  // a word of the vocabulary was entered: force it at the current step

protected:
    void changeEvent(QEvent* event) override;  // language: texts again

private:
    void submit(const QString& text);
    void decodeChanged();  // the vocabulary of a new model, then refresh()
    void refresh();        // enabled while there is a current step
    void retranslateUi();

    QLabel* label_;
    QLineEdit* edit_;
    QCompleter* completer_;
    QStringListModel* words_;
    QLabel* error_;
    QToolButton* clear_;
    QPointer<DecodeState> state_;
    std::shared_ptr<const Model> model_;  // whose vocabulary the completer offers
};

}  // namespace attnviz::ui
