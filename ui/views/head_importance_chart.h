// The head importance dock's bar chart (views/head_importance_panel.h): one horizontal bar per head, the BLEU points
// lost when that head is removed (the plain model's BLEU − bleu_off; red to the right: lost, blue to the left: BLEU
// rose), the heads in the order given from the top, the chosen one outlined. Hovering a bar tells its numbers; a
// click reports its index. Tall enough for a readable row per head (sizeHint), so the panel scrolls it.
#pragma once
#include <QStringList>
#include <QWidget>

#include <vector>

class QCPBars;
class QCustomPlot;

namespace attnviz::ui {

class HeadImportanceChart : public QWidget {
    Q_OBJECT
public:
    explicit HeadImportanceChart(QWidget* parent = nullptr);

    // One bar per label, `lost[i]` BLEU points for labels[i]; tips[i] is its hover text. Empty: no bars.
    void setBars(const QStringList& labels, const std::vector<double>& lost, const QStringList& tips);
    void setSelected(int index);  // outlined; -1: none
    int selected() const { return selected_; }
    int barCount() const { return int(lost_.size()); }
    double barValue(int index) const { return lost_[size_t(index)]; }
    QString barLabel(int index) const { return labels_.value(index); }
    // The bar under `pos` (plot coordinates), or -1.
    int barAt(const QPoint& pos) const;
    QPoint barCenter(int index) const;  // a point of its row, plot coordinates; for tests
    QCustomPlot* plot() const { return plot_; }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

signals:
    void barClicked(int index);

protected:
    void changeEvent(QEvent* event) override;  // palette: the plot's colours again

private:
    void redraw();
    void showTip(const QPoint& pos);

    QCustomPlot* plot_;
    QCPBars* lost_bars_;
    QCPBars* gained_bars_;
    QCPBars* selected_bar_;
    QStringList labels_;
    QStringList tips_;
    std::vector<double> lost_;
    int selected_ = -1;
};

}  // namespace attnviz::ui
