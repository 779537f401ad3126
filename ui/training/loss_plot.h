// The loss curves of a training run: the batch loss of every update and the validation loss of every epoch
// (the engine's progress reports, plotted as they come), a log-scale option and a mark at the update the timeline
// shows. QCustomPlot; replotted at most a few times a second so that plotting never slows the training down.
#pragma once
#include "train/trainer.h"

#include <QString>
#include <QTimer>
#include <QWidget>

class QCheckBox;
class QLabel;
class QResizeEvent;
class QCustomPlot;
class QCPGraph;
class QCPItemStraightLine;

namespace attnviz::ui {

class LossPlot : public QWidget {
    Q_OBJECT
public:
    explicit LossPlot(QWidget* parent = nullptr);

    void clear();
    void addReport(const TrainProgress& report);  // a training point; a validation point after a validation
    void setMarker(int64_t step);                 // the vertical line (-1: none)
    void setLogScale(bool on);
    bool logScale() const;
    // The plot as an image of `width` x `height` pixels at 96 dpi, PNG, SVG or PDF by the path's extension, written
    // atomically through the heatmap export's one path (heatmap_export.h); false and *error ("PATH: what") on failure.
    bool exportImage(const QString& path, int width, int height, QString* error);
    void retranslate();

    QCustomPlot* plot() const { return plot_; }  // for tests
    QCPGraph* trainingGraph() const { return train_; }
    QCPGraph* validationGraph() const { return valid_; }
    QCheckBox* logScaleBox() const { return log_box_; }
    QLabel* trainingLegend() const { return train_name_; }
    QLabel* validationLegend() const { return valid_name_; }

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    QWidget* legendEntry(const QCPGraph* graph, QLabel* name);  // the graph's swatch and `name`
    void fitValueAxisTitle();
    void replotSoon();
    void rescale();

    QCustomPlot* plot_;
    QCPGraph* train_;
    QCPGraph* valid_;
    QCPItemStraightLine* marker_;
    QCheckBox* log_box_;
    QLabel* train_name_;
    QLabel* valid_name_;
    QTimer replot_timer_;
};

}  // namespace attnviz::ui
