// "Which explanation is right?" for the decode shown (docs/explain.md, "Corpus measures", on one sentence): for each
// method of the model, AER, precision and recall of the links it gives against the gold links (when a reference is
// decoded and its links are typed), AOPC (how much log p of each row's token falls when the words the method ranks
// first are replaced by <unk>) beside a random order's, and the rank correlation with occlusion. The numbers are
// core's measureLine, computed off the UI thread while the panel is visible; the latest request wins.
#pragma once
#include "explain/measures.h"

#include <QPointer>
#include <QWidget>

#include <optional>
#include <vector>

class QLabel;
class QTableWidget;

namespace attnviz::ui {

class DecodeState;
class GoldLinksPanel;
class LatestWins;

class ExplainScoresPanel : public QWidget {
    Q_OBJECT
public:
    ExplainScoresPanel(DecodeState* state, GoldLinksPanel* gold, QWidget* parent = nullptr);

    QTableWidget* table() const { return table_; }
    QString statusText() const;
    // The measures shown (nullopt: none yet, or being computed) and the methods of their rows.
    const std::optional<LineMeasures>& measures() const { return measures_; }
    const std::vector<ExplainMethod>& methods() const { return methods_; }
    bool isBusy() const;
    void waitForDone();

    static constexpr uint64_t kRandomSeed = 1;  // the random order's seed (the CLI's `eval --seed` default)

signals:
    void measured();  // measures() changed

protected:
    void changeEvent(QEvent* event) override;  // language: the texts again
    void showEvent(QShowEvent* event) override;

private:
    void retranslateUi();
    void request();   // measures the decode shown, if visible
    void fill();      // the table from measures_, as tall as its rows
    void fillRows();  // the status line and the rows

    QPointer<DecodeState> state_;
    QPointer<GoldLinksPanel> gold_;
    LatestWins* runner_;
    QLabel* status_;
    QTableWidget* table_;
    std::optional<LineMeasures> measures_;
    std::vector<ExplainMethod> methods_;
    bool with_gold_ = false;
    QString error_;
};

}  // namespace attnviz::ui
