// Beside the heatmap: the current decoder step. A bar chart of its attention over the source tokens (or, while an
// explanation method is chosen and computed, that method's row: signed methods in the heatmap's diverging colours,
// integrated gradients with the row's completeness gap), the most probable next tokens with their probabilities
// (click one to force it: "what if?"; right-click: "why this token and not that one?") and the row's entropy. The
// bars' labels follow the heatmap's rules (heatmap/token_labels.h); the tooltip of a bar gives its whole token.
// Observes a DecodeState (setDecodeState): it shows the state's step at cursor - 1.
#pragma once
#include "decode/decoding.h"

#include <QPointer>
#include <QStringList>
#include <QWidget>

class QCustomPlot;
class QCPBars;
class QLabel;
class QMenu;
class QTreeWidget;
class QTreeWidgetItem;

namespace attnviz::ui {

class DecodeState;

class StepPanel : public QWidget {
    Q_OBJECT
public:
    explicit StepPanel(QWidget* parent = nullptr);

    // Shows the current step of `state` now and after each change of its decode or cursor.
    void setDecodeState(DecodeState* state);
    // Shown in the title while the state holds no decode (e.g. why there is none).
    void setEmptyHint(const QString& hint);

    // Shows step `index` (0-based) of `total`; `shown` is the token as the heatmap spells it.
    void setStep(const StepRecord& step, int index, int total, const QStringList& source_tokens,
                 const Vocabulary& target_vocab, const QString& shown);
    // Like the heatmap: without bars for <sos>/<eos> (the weights are the engine's, not renormalised). Redraws the
    // state's step; without a state, takes effect at the next setStep().
    void setHideSpecials(bool hide);
    bool hideSpecials() const { return hide_specials_; }
    // No current step (cursor before the first step, or nothing decoded): empty chart, `hint` in the title.
    void clear(const QString& hint);

    QCustomPlot* barChart() const { return plot_; }
    QTreeWidget* candidateList() const { return candidates_; }
    QString entropyText() const;
    // What the bars show: "attention" or the explanation method's title; and the IG row's completeness gap (empty
    // for the other methods).
    QString barsLabel() const;
    QString gapText() const;
    // The y axis' title as written: barsLabel() elided to the chart's height; the line above the chart (rich text).
    QString axisTitle() const;
    QString titleText() const;
    // The bars' values, one per bar shown.
    QVector<double> barValues() const;
    // The right-click menu of a candidate (popped up, not run: a test can trigger its actions); nullptr for none.
    QMenu* showCandidateMenu(QTreeWidgetItem* item, const QPoint& global_pos);
    QSize sizeHint() const override { return {340, 520}; }

signals:
    void candidateChosen(int token);  // a candidate other than the current token was clicked
    void contrastChosen(int token);   // "why the step's token and not this one?"
    void contrastCleared();

protected:
    void changeEvent(QEvent* event) override;                    // language: texts again; palette: the chart's colours
    bool eventFilter(QObject* watched, QEvent* event) override;  // the chart's resizes

private:
    void onItemClicked(QTreeWidgetItem* item);
    void refresh();        // the state's current step
    void decodeChanged();  // caches the source labels, then refresh()
    void retranslateUi();  // the fixed texts (the step's own are written by refresh())
    void updateTicks();    // the bars' labels for the chart's present width
    void reserveRoomForLastLabel(const QString& label, double rotation, double slot);
    void setScaleShown(bool on);  // the value axis's ticks, numbers and grid: off while there are no bars
    void showBarTip(const QPoint& pos);
    // The current row's values to draw: the explanation's when the state has one, else the attention.
    std::vector<double> rowValues(const StepRecord& step, int index) const;
    void setBars(const std::vector<double>& values, const QStringList& source_tokens);
    void showGap(int index);
    QString computingNote() const;  // the title's line while the method chosen is computed
    void fitAxisTitle();

    QLabel* title_;
    QCustomPlot* plot_;
    QCPBars* bars_;      // attention, an unsigned method, or a signed method's values ≥ 0
    QCPBars* neg_bars_;  // a signed method's values < 0
    QTreeWidget* candidates_;
    QLabel* entropy_;
    QLabel* gap_;
    QLabel* candidates_label_;
    int current_token_ = -1;
    bool hide_specials_ = false;
    QPointer<DecodeState> state_;
    QStringList source_labels_;   // the state's source tokens
    QStringList bar_tokens_;      // the token of each bar shown, in full
    QVector<double> bar_values_;  // and its value
    QString empty_hint_;
};

}  // namespace attnviz::ui
