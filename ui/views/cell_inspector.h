// The cell inspector: how the selected heatmap cell's weight was made. It observes a DecodeState's selection (a click
// on the heatmap selects a cell) and shows, for the model's scoring, the raw score e_tj and its parts, the softmax
// weight a_tj, its rank in the row, its share of the context vector, a local span's centre, window and Gaussian
// factor, and the row's entropy. The numbers are the engine's (eval/cell_explanation.h; docs/diagnostics.md).
#pragma once
#include "eval/cell_explanation.h"

#include <QPointer>
#include <QWidget>

#include <optional>

class QTextBrowser;

namespace attnviz::ui {

class DecodeState;

class CellInspector : public QWidget {
    Q_OBJECT
public:
    explicit CellInspector(QWidget* parent = nullptr);

    // Explains the state's selected cell now and after each change of its selection or decode.
    void setDecodeState(DecodeState* state);
    // The cell shown; nullopt when no cell of the decode shown is selected or it could not be explained (text()
    // then says why).
    const std::optional<CellExplanation>& explanation() const { return explanation_; }
    QString text() const;  // what the panel shows, as plain text
    QSize sizeHint() const override { return {340, 420}; }

protected:
    void changeEvent(QEvent* event) override;  // language: the texts again

private:
    void refresh();
    QString goldLinkOf(const CellExplanation& x, const DecodeResult& r) const;
    QString describe(const CellExplanation& x) const;  // the panel's HTML for one cell
    QString scoreHtml(const CellExplanation& x) const;
    QString spanHtml(const CellExplanation& x) const;
    QString methodHtml(
        const CellExplanation& x) const;  // the explanation method's number for the cell, if one is shown

    QTextBrowser* view_;
    QPointer<DecodeState> state_;
    std::optional<CellExplanation> explanation_;
};

}  // namespace attnviz::ui
