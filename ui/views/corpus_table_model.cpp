#include "views/corpus_table_model.h"

#include "heatmap/explanation_data.h"
#include "heatmap/utf8_text.h"

#include <QBrush>
#include <QGuiApplication>
#include <QPalette>

#include <optional>

namespace attnviz::ui {

namespace {

bool isNumeric(int column) { return column == CorpusTableModel::Line || column >= CorpusTableModel::LogProb; }

// The number a numeric column shows for a scored line; nullopt when the line has none (AER without gold links).
std::optional<double> numberOf(const LineScores& s, int column) {
    switch (column) {
    case CorpusTableModel::LogProb:
        return s.log_prob;
    case CorpusTableModel::LogProbPerToken:
        return s.log_prob_per_token;
    case CorpusTableModel::Entropy:
        return s.mean_entropy;
    case CorpusTableModel::Confidence:
        return s.confidence.confidence;
    case CorpusTableModel::Bleu:
        return s.bleu_plus_one;
    case CorpusTableModel::Exact:
        return s.counts.exact ? 1.0 : 0.0;
    case CorpusTableModel::Aer:
        return s.aer;
    default:
        return std::nullopt;
    }
}

int decimals(int column) {
    switch (column) {
    case CorpusTableModel::LogProb:
    case CorpusTableModel::Bleu:
        return 2;
    default:
        return 3;
    }
}

}  // namespace

CorpusTableModel::CorpusTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void CorpusTableModel::setCorpus(std::vector<CorpusExample> examples) {
    beginResetModel();
    examples_ = std::move(examples);
    scores_.assign(examples_.size(), LineScores{});
    explain_.clear();
    for (size_t i = 0; i < examples_.size(); ++i) scores_[i].line = examples_[i].line;
    stale_ = false;
    endResetModel();
}

void CorpusTableModel::setScores(std::vector<LineScores> scores) {
    if (scores.size() != examples_.size()) return;  // scores of another corpus
    scores_ = std::move(scores);
    stale_ = false;
    if (!examples_.empty()) emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

void CorpusTableModel::setExplainScores(std::optional<ExplainMethod> method, std::vector<LineExplainScores> scores) {
    if (!scores.empty() && scores.size() != examples_.size()) return;  // scores of another corpus
    method_ = method;
    explain_ = std::move(scores);
    if (!examples_.empty()) emit dataChanged(index(0, MethodAer), index(rowCount() - 1, MethodAopc));
    emit headerDataChanged(Qt::Horizontal, MethodAer, MethodAopc);
}

void CorpusTableModel::setStale(bool stale) {
    if (stale == stale_) return;
    stale_ = stale;
    if (!examples_.empty()) emit dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1), {Qt::ForegroundRole});
    emit headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

int CorpusTableModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(examples_.size()); }
int CorpusTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant CorpusTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= int(examples_.size())) return {};
    if (index.column() == MethodAer || index.column() == MethodAopc)
        return explainData(size_t(index.row()), index.column(), role);
    const CorpusExample& ex = examples_[size_t(index.row())];
    const LineScores& s = scores_[size_t(index.row())];
    switch (role) {
    case Qt::DisplayRole:
        return display(ex, s, index.column());
    case SortRole:
        return sortValue(ex, s, index.column());
    case Qt::ToolTipRole:
        return toolTip(ex, s, index.column());
    case Qt::TextAlignmentRole:
        return isNumeric(index.column()) ? QVariant(int(Qt::AlignRight) | int(Qt::AlignVCenter)) : QVariant();
    case Qt::ForegroundRole:
        if (stale_ || !s.error.empty())
            return QBrush(QGuiApplication::palette().color(QPalette::Disabled, QPalette::Text));
        return {};
    default:
        return {};
    }
}

QVariant CorpusTableModel::display(const CorpusExample& ex, const LineScores& s, int column) const {
    switch (column) {
    case Line:
        return ex.line;
    case Source:
        return qs(ex.source);
    case Reference:
        return qs(ex.target);
    case Output:
        if (!s.error.empty()) return tr("(not scored)");
        return s.scored ? qs(s.output) : QString();
    case Exact:
        if (!s.scored) return {};
        return s.counts.exact ? tr("yes") : tr("no");
    default:
        break;
    }
    if (!s.scored) return {};
    const std::optional<double> v = numberOf(s, column);
    return v ? QString::number(*v, 'f', decimals(column)) : QString();
}

QVariant CorpusTableModel::explainData(size_t row, int column, int role) const {
    const LineExplainScores* x = row < explain_.size() ? &explain_[row] : nullptr;
    std::optional<double> value;
    if (x && x->scored) value = column == MethodAer ? x->aer : std::optional<double>(x->aopc);
    switch (role) {
    case Qt::DisplayRole:
        return value ? QString::number(*value, 'f', 3) : QString();
    case SortRole:
        return value ? QVariant(*value) : QVariant();
    case Qt::TextAlignmentRole:
        return int(Qt::AlignRight) | int(Qt::AlignVCenter);
    case Qt::ToolTipRole:
        if (x && !x->scored && !x->error.empty())
            return tr("Line %1 was not explained: %2").arg(examples_[row].line).arg(qs(x->error));
        if (x && x->scored && column == MethodAer && !x->aer) return tr("This line has no gold links");
        return {};
    default:
        return {};
    }
}

QVariant CorpusTableModel::sortValue(const CorpusExample& ex, const LineScores& s, int column) const {
    if (column == Line) return double(ex.line);
    if (!isNumeric(column)) return display(ex, s, column);
    if (!s.scored) return {};
    const std::optional<double> v = numberOf(s, column);
    return v ? QVariant(*v) : QVariant();
}

QVariant CorpusTableModel::toolTip(const CorpusExample& ex, const LineScores& s, int column) const {
    if (!s.error.empty()) return tr("Line %1 was not scored: %2").arg(ex.line).arg(qs(s.error));
    switch (column) {
    case Source:
        return qs(ex.source);
    case Reference:
        return ex.has_alignment ? tr("%1\nGold links: %2 links").arg(qs(ex.target)).arg(ex.alignment.all().size())
                                : qs(ex.target);
    case Output:
        return s.scored ? qs(s.output) : QVariant();
    case Confidence:
        if (!s.scored) return {};
        return tr("Attention confidence %1 (0 is best): coverage deviation %2, absentmindedness of the output %3, "
                  "of the input %4")
            .arg(s.confidence.confidence, 0, 'f', 3)
            .arg(s.confidence.coverage_deviation, 0, 'f', 3)
            .arg(s.confidence.absentminded_out, 0, 'f', 3)
            .arg(s.confidence.absentminded_in, 0, 'f', 3);
    case Aer:
        return ex.has_alignment ? QVariant() : tr("This line has no gold links");
    default:
        return {};
    }
}

QVariant CorpusTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Line:
            return tr("Line");
        case Source:
            return tr("Source");
        case Reference:
            return tr("Reference");
        case Output:
            return stale_ ? tr("Output (stale)") : tr("Output");
        case LogProb:
            return tr("Log-prob");
        case LogProbPerToken:
            return tr("Per token");
        case Entropy:
            return tr("Entropy");
        case Confidence:
            return tr("Confidence");
        case Bleu:
            return tr("BLEU+1");
        case Exact:
            return tr("Exact");
        case Aer:
            return tr("AER");
        case MethodAer:
            return method_ ? tr("AER (%1)").arg(explainMethodTitle(*method_)) : tr("AER (method)");
        case MethodAopc:
            return method_ ? tr("AOPC (%1)").arg(explainMethodTitle(*method_)) : tr("AOPC (method)");
        default:
            return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Line:
            return tr("The line's number in the file");
        case Output:
            return tr("The model's greedy output");
        case LogProb:
            return tr("Log-probability of the greedy output, <eos> included (natural log)");
        case LogProbPerToken:
            return tr("Log-probability per output token");
        case Entropy:
            return tr("Mean entropy of the attention rows, in nats (higher: more spread out)");
        case Confidence:
            return tr("Attention confidence: coverage deviation plus absentmindedness penalties (0 is best)");
        case Bleu:
            return tr(
                "Sentence BLEU+1 against the reference, in % (BLEU-4 with one added to the 2- to 4-gram "
                "counts, so that short sentences do not all score 0; the CSV has the unsmoothed BLEU too)");
        case Exact:
            return tr("Whether the output equals the reference");
        case Aer:
            return tr("Alignment error rate of the attention forced onto the reference, against the line's gold links");
        case MethodAer:
            return tr("Alignment error rate of the links the chosen explanation method gives on the reference");
        case MethodAopc:
            return tr(
                "AOPC of the chosen explanation method on the reference: the mean fall of log p when its "
                "first 1–5 words are replaced by <unk> (higher: it found what the model used)");
        default:
            return {};
        }
    }
    return {};
}

}  // namespace attnviz::ui
