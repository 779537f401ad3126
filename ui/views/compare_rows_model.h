// The compare view's table: one line per target token with the distances between A's and B's attention rows (core's
// eval/compare.h: total variation, Jensen–Shannon in nats), where each looks most (the argmax source token) and
// whether those agree; when B is an explanation method of A's model, each row's rank correlation between the
// attention and the method's own values. Rows after the window's cursor are listed but greyed, like the undecoded
// heatmap rows.
#pragma once
#include "eval/compare.h"

#include <QAbstractTableModel>
#include <QStringList>

#include <vector>

namespace attnviz::ui {

class CompareRowsModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Target, TotalVariation, JensenShannon, ArgmaxA, ArgmaxB, RankCorrelation, ColumnCount };
    // The role giving a cell's number (TV, JS as double; argmax columns as the source column index).
    static constexpr int ValueRole = Qt::UserRole + 1;

    explicit CompareRowsModel(QObject* parent = nullptr);

    // A reset: the rows of a new pair (row t: target token t of A's output; argmaxes index `source`).
    // `rank_correlation`: per row, Spearman's ρ of the two rows' words (NaN: undefined), or empty (no such column).
    void setRows(std::vector<RowComparison> rows, const QStringList& target, const QStringList& source,
                 std::vector<double> rank_correlation = {});
    // Rows at or after `n` are greyed (-1: none).
    void setVisibleRows(int n);
    const std::vector<RowComparison>& rows() const { return rows_; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    std::vector<RowComparison> rows_;
    std::vector<double> rho_;
    QStringList target_, source_;
    int visible_rows_ = -1;
};

}  // namespace attnviz::ui
