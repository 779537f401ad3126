#include "training/epoch_metrics_table.h"

#include <QEvent>
#include <QHeaderView>
#include <QScrollBar>
#include <QStyle>
#include <algorithm>
#include <cmath>

namespace attnviz::ui {
namespace {

QTableWidgetItem* numberItem(const QString& text) {
    auto* item = new QTableWidgetItem(text);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    return item;
}

QString fixed(double v, int decimals) {
    return std::isfinite(v) ? QString::number(v, 'f', decimals) : QStringLiteral("–");
}

}  // namespace

EpochMetricsTable::EpochMetricsTable(QWidget* parent) : QTableWidget(0, ColumnCount, parent) {
    setObjectName(QStringLiteral("EpochMetricsTable"));
    verticalHeader()->setVisible(false);
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Expanding);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    retranslate();
}

void EpochMetricsTable::retranslate() {
    setHorizontalHeaderLabels({tr("Epoch"), tr("Update"), tr("Valid. loss"), tr("BLEU"), tr("AER")});
    setMinimumWidth(sizeHint().width());
    setToolTip(
        tr("After each epoch: the validation corpus decoded greedily by the model just validated, scored as "
           "attnviz-cli eval scores it (corpus BLEU-4 in %; the AER of the attention's argmax links against "
           "the gold links, where the corpus has them)"));
}

// Each column as wide as its header or its widest likely number, whichever is wider.
QSize EpochMetricsTable::sizeHint() const {
    static const char* const kWidest[ColumnCount] = {"9999", "9999999", "00.0000", "100.00", "0.000"};
    const int padding = 2 * style()->pixelMetric(QStyle::PM_HeaderMargin) + 8;
    int width = 2 * frameWidth() + verticalScrollBar()->sizeHint().width();
    for (int c = 0; c < ColumnCount; ++c) {
        const QString header = horizontalHeaderItem(c) ? horizontalHeaderItem(c)->text() : QString();
        width += std::max(horizontalHeader()->fontMetrics().horizontalAdvance(header),
                          fontMetrics().horizontalAdvance(QLatin1String(kWidest[c]))) +
                 padding;
    }
    return {width, QTableWidget::sizeHint().height()};
}

void EpochMetricsTable::changeEvent(QEvent* event) {
    QTableWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) retranslate();
}

void EpochMetricsTable::clearMetrics() { setRowCount(0); }

void EpochMetricsTable::addMetrics(const EpochMetrics& m) {
    const int row = rowCount();
    insertRow(row);
    setItem(row, Epoch,
            numberItem(m.part_epoch ? tr("%1 (part)").arg(m.progress.epoch) : QString::number(m.progress.epoch)));
    setItem(row, Update, numberItem(QString::number(m.progress.step)));
    setItem(row, ValidLoss, numberItem(fixed(m.progress.valid_loss, 4)));
    setItem(row, Bleu, numberItem(fixed(m.report.bleu, 2)));
    setItem(row, Aer, numberItem(m.report.aer ? fixed(*m.report.aer, 3) : QStringLiteral("–")));
    scrollToItem(item(row, Epoch));
}

}  // namespace attnviz::ui
