// The output sentence above the heatmap: every token of the decode shown, the steps up to the cursor in black, the
// current one underlined, the rest grey, forced tokens in italics. Observes a DecodeState.
#pragma once
#include <QLabel>
#include <QPointer>

namespace attnviz::ui {

class DecodeState;

class OutputLine : public QLabel {
    Q_OBJECT
public:
    explicit OutputLine(QWidget* parent = nullptr);
    // Shows `state` now and after each change of its decode or cursor.
    void setDecodeState(DecodeState* state);

protected:
    void changeEvent(QEvent* event) override;  // language or palette: written again

private:
    void refresh();

    QPointer<DecodeState> state_;
};

}  // namespace attnviz::ui
