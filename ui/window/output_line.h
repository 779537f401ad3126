// The output sentence above the heatmap: every token of the decode shown, the steps up to the cursor in black, the
// current one underlined, the rest grey, forced tokens in italics; a SentencePiece model's translation as text
// (DecodeResult::text, detokenized). Observes a DecodeState.
// An intervened decode is shown against the plain model's (state/output_diff.h), each change with a colour of Okabe
// & Ito's colour-blind-safe palette and a cue without colour: a changed token overlined in blue with the plain one
// after it in brackets, an added one in bluish green after a "+", a dropped one struck through in vermillion.
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
    QString tokenHtml(int i, const QString& text) const;  // token i of the decode shown: forced, cursor, dimmed

    QPointer<DecodeState> state_;
};

}  // namespace attnviz::ui
