// The corpus browser's table: one row per corpus line with the scores core's eval/corpus_scores.h computed for it
// (the model only formats them), and when an explanation method is chosen its AER and AOPC per line (core's
// explain/measures.h explainCorpus). Numeric columns sort by number through SortRole; lines not yet scored (or not
// scorable) sort after every number. While the scores belong to another model (stale), every row is greyed.
#pragma once
#include "eval/corpus_scores.h"
#include "explain/measures.h"
#include "io/corpus.h"

#include <QAbstractTableModel>

#include <vector>

namespace attnviz::ui {

class CorpusTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Line,
        Source,
        Reference,
        Output,
        LogProb,
        LogProbPerToken,
        Entropy,
        Confidence,
        Bleu,
        Exact,
        Aer,
        MethodAer,   // the chosen explanation method's AER (forced on the reference, against the gold links)
        MethodAopc,  // and its AOPC
        ColumnCount
    };
    // The value a column sorts by: a double for the numeric columns (invalid when the line has no value), else the
    // text.
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit CorpusTableModel(QObject* parent = nullptr);

    // A reset: the lines of a new corpus, none scored yet.
    void setCorpus(std::vector<CorpusExample> examples);
    // The scores of every line (scores[i] for examples()[i]); clears the stale mark.
    void setScores(std::vector<LineScores> scores);
    // The explanation method's scores of every line (scores[i] for examples()[i]), or none (nullopt, empty).
    void setExplainScores(std::optional<ExplainMethod> method, std::vector<LineExplainScores> scores);
    const std::optional<ExplainMethod>& explainMethod() const { return method_; }
    const std::vector<LineExplainScores>& explainScores() const { return explain_; }
    // Greys the rows: the scores shown are not the open model's.
    void setStale(bool stale);
    bool isStale() const { return stale_; }

    const std::vector<CorpusExample>& examples() const { return examples_; }
    const std::vector<LineScores>& scores() const { return scores_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant display(const CorpusExample& ex, const LineScores& s, int column) const;
    QVariant sortValue(const CorpusExample& ex, const LineScores& s, int column) const;
    QVariant toolTip(const CorpusExample& ex, const LineScores& s, int column) const;
    QVariant explainData(size_t row, int column, int role) const;  // the MethodAer / MethodAopc cells

    std::vector<CorpusExample> examples_;
    std::vector<LineScores> scores_;  // same size as examples_
    std::optional<ExplainMethod> method_;
    std::vector<LineExplainScores> explain_;  // same size as examples_, or empty
    bool stale_ = false;
};

}  // namespace attnviz::ui
