// The "Interventions" dock (docs/gui.md): every knockout, attend and head off of the window in one list, each with its
// on/off switch and a remove button, "Plain model" (all of them away, one undoable step), how the output changed
// against the plain model's (kept, changed, added, dropped: state/output_diff.h), and a line for what could not be
// done. Edits go through InterventionEdits (the undo stack shared with "what if?"); the view observes the state.
#pragma once
#include <QWidget>

class QCheckBox;
class QLabel;
class QPushButton;
class QVBoxLayout;

namespace attnviz::ui {

class DecodeState;
class InterventionEdits;

class InterventionListView : public QWidget {
    Q_OBJECT
public:
    InterventionListView(DecodeState* state, InterventionEdits* edits, QWidget* parent = nullptr);

    QPushButton* plainModelButton() const { return plain_; }
    QString changeText() const;   // "Output: 2 tokens changed, 1 dropped (5 kept)" or the hint
    QString messageText() const;  // the last refusal or dropped interventions; "" when none
    // Shows why an intervention could not be made or was dropped (warning colours) until the list changes.
    void setMessage(const QString& text);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    void rebuildRows();
    void showChange();

    DecodeState* state_;
    InterventionEdits* edits_;
    QLabel* change_;
    QLabel* message_;
    QVBoxLayout* rows_;
    QPushButton* plain_;
};

}  // namespace attnviz::ui
