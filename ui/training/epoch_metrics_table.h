// The training window's table of validation measures, one row per validated epoch: the epoch, its last update, the
// validation loss, and the validation corpus's BLEU and AER (where it has gold links) as core scored them
// (training_history.h's EpochMetrics). It only displays the numbers.
#pragma once
#include "training/training_history.h"

#include <QTableWidget>

namespace attnviz::ui {

class EpochMetricsTable : public QTableWidget {
    Q_OBJECT
public:
    enum Column { Epoch, Update, ValidLoss, Bleu, Aer, ColumnCount };

    explicit EpochMetricsTable(QWidget* parent = nullptr);

    void clearMetrics();
    void addMetrics(const EpochMetrics& metrics);  // a row at the bottom, scrolled into view
    void retranslate();
    // As wide as its columns (and the scroll bar): the curves beside it take the rest.
    QSize sizeHint() const override;

protected:
    void changeEvent(QEvent* event) override;
};

}  // namespace attnviz::ui
