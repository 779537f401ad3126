#include "views/compare_rows_model.h"

#include <QBrush>
#include <QColor>
#include <QGuiApplication>
#include <QPalette>

#include <cmath>

namespace attnviz::ui {

CompareRowsModel::CompareRowsModel(QObject* parent) : QAbstractTableModel(parent) {}

void CompareRowsModel::setRows(std::vector<RowComparison> rows, const QStringList& target, const QStringList& source,
                               std::vector<double> rank_correlation) {
    beginResetModel();
    rows_ = std::move(rows);
    rho_ = std::move(rank_correlation);
    target_ = target;
    source_ = source;
    endResetModel();
}

void CompareRowsModel::setVisibleRows(int n) {
    if (n == visible_rows_) return;
    visible_rows_ = n;
    if (!rows_.empty()) emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1), {Qt::ForegroundRole});
}

int CompareRowsModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(rows_.size()); }
int CompareRowsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant CompareRowsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= int(rows_.size())) return {};
    const RowComparison& r = rows_[size_t(index.row())];
    const auto token = [&](int col) { return col >= 0 && col < source_.size() ? source_[col] : QString(); };
    const double rho = size_t(index.row()) < rho_.size() ? rho_[size_t(index.row())] : NAN;
    if (role == ValueRole) {
        switch (index.column()) {
        case TotalVariation:
            return r.tv;
        case JensenShannon:
            return r.js;
        case ArgmaxA:
            return r.argmax_a;
        case ArgmaxB:
            return r.argmax_b;
        case RankCorrelation:
            return rho;
        default:
            return {};
        }
    }
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Target:
            return index.row() < target_.size() ? target_[index.row()] : QString();
        case TotalVariation:
            return QString::number(r.tv, 'f', 3);
        case JensenShannon:
            return QString::number(r.js, 'f', 3);
        case ArgmaxA:
            return token(r.argmax_a);
        case ArgmaxB:
            return r.agree() ? QStringLiteral("= ") + token(r.argmax_b) : token(r.argmax_b);
        case RankCorrelation:
            return std::isnan(rho) ? QStringLiteral("—") : QString::number(rho, 'f', 3);
        default:
            return {};
        }
    }
    if (role == Qt::TextAlignmentRole &&
        (index.column() == TotalVariation || index.column() == JensenShannon || index.column() == RankCorrelation))
        return int(Qt::AlignRight) | int(Qt::AlignVCenter);
    if (role == Qt::ForegroundRole && visible_rows_ >= 0 && index.row() >= visible_rows_)
        return QBrush(QGuiApplication::palette().color(QPalette::Disabled, QPalette::Text));
    if (role == Qt::ToolTipRole && index.column() == ArgmaxB)
        return r.agree() ? tr("A and B look most at the same source token")
                         : tr("A and B look most at different tokens");
    return {};
}

QVariant CompareRowsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Target:
            return tr("Target");
        case TotalVariation:
            return tr("TV");
        case JensenShannon:
            return tr("JS");
        case ArgmaxA:
            return tr("Argmax A");
        case ArgmaxB:
            return tr("Argmax B");
        case RankCorrelation:
            return tr("ρ");
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case TotalVariation:
            return tr("Total variation distance between the two rows: ½ Σ|a − b|, 0 to 1");
        case JensenShannon:
            return tr("Jensen–Shannon divergence between the two rows, in nats (0 to ln 2)");
        case ArgmaxA:
            return tr("The source token model A looks at most");
        case ArgmaxB:
            return tr("The source token model B looks at most (= when it is A's)");
        case RankCorrelation:
            return tr(
                "Spearman's rank correlation of the row's source words: the attention against the method's "
                "own values (1: the same order; — when a row has fewer than two words or is constant)");
        default:
            return {};
        }
    }
    return {};
}

}  // namespace attnviz::ui
