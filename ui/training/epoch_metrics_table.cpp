#include "training/epoch_metrics_table.h"

#include <QEvent>
#include <QHeaderView>
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
    horizontalHeader()->setStretchLastSection(true);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    retranslate();
}

void EpochMetricsTable::retranslate() {
    setHorizontalHeaderLabels({tr("Epoch"), tr("Update"), tr("Valid. loss"), tr("BLEU"), tr("AER")});
    setToolTip(
        tr("After each epoch: the validation corpus decoded greedily by the model just validated, scored as "
           "attnviz-cli eval scores it (corpus BLEU-4 in %; the AER of the attention's argmax links against "
           "the gold links, where the corpus has them)"));
}

void EpochMetricsTable::changeEvent(QEvent* event) {
    QTableWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) retranslate();
}

void EpochMetricsTable::clearMetrics() { setRowCount(0); }

void EpochMetricsTable::addMetrics(const EpochMetrics& m) {
    const int row = rowCount();
    insertRow(row);
    setItem(row, Epoch, numberItem(QString::number(m.progress.epoch)));
    setItem(row, Update, numberItem(QString::number(m.progress.step)));
    setItem(row, ValidLoss, numberItem(fixed(m.progress.valid_loss, 4)));
    setItem(row, Bleu, numberItem(fixed(m.report.bleu, 2)));
    setItem(row, Aer, numberItem(m.report.aer ? fixed(*m.report.aer, 3) : QStringLiteral("–")));
    scrollToItem(item(row, Epoch));
}

}  // namespace attnviz::ui
