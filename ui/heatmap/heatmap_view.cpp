#include "heatmap/heatmap_view.h"

#include "heatmap/heatmap_legend.h"
#include "heatmap/heatmap_scene.h"

#include <qcustomplot.h>
#include <QApplication>
#include <QGridLayout>
#include <QMouseEvent>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>
#include <cmath>

namespace attnviz::ui {

HeatmapView::HeatmapView(QWidget* parent) : QWidget(parent) {
    plot_ = new QCustomPlot(this);
    plot_->setMouseTracking(true);
    plot_->setMinimumSize(160, 120);
    plot_->setNoAntialiasingOnDrag(true);
    hbar_ = new QScrollBar(Qt::Horizontal, this);
    vbar_ = new QScrollBar(Qt::Vertical, this);
    hbar_->hide();
    vbar_->hide();
    legend_ = new HeatmapLegendStrip(this);
    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setSpacing(0);
    grid->addWidget(plot_, 0, 0);
    grid->addWidget(vbar_, 0, 1);
    grid->addWidget(hbar_, 1, 0);
    grid->addWidget(legend_, 2, 0, 1, 2);  // under the matrix and its scroll bar: none of the plot's room
    grid->setColumnStretch(0, 1);          // the width the legend asks for goes to the plot's column

    scene_ = std::make_unique<HeatmapScene>(plot_, HeatmapScene::Mode::Interactive);
    QCPAxisRect* rect = scene_->axisRect();
    plot_->setInteractions(QCP::iRangeDrag);  // the wheel is ours (wheel()): it scrolls, Ctrl+wheel zooms
    rect->setRangeDragAxes(scene_->keyAxis(), scene_->valueAxis());

    auto onRange = [this] {
        if (syncing_) return;
        user_view_ = true;
        clampRanges();
        scene_->updateTicks();
        updateScrollBars();
    };
    connect(scene_->keyAxis(), qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, onRange);
    connect(scene_->valueAxis(), qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, onRange);
    connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) { hover(e->pos()); });
    connect(plot_, &QCustomPlot::mousePress, this, [this](QMouseEvent* e) {
        pressed_ = e->button() == Qt::LeftButton;
        press_pos_ = e->pos();
    });
    connect(plot_, &QCustomPlot::mouseRelease, this, [this](QMouseEvent* e) {
        if (!pressed_ || e->button() != Qt::LeftButton) return;
        pressed_ = false;
        if ((e->pos() - press_pos_).manhattanLength() > 3) return;  // that was a drag
        const QPoint cell = scene_->cellAt(e->pos());
        if (cell.x() < 0) return;
        setSelectedCell(cell.y(), cell.x());
        emit cellClicked(cell.y(), cell.x());
    });
    connect(plot_, &QCustomPlot::mouseDoubleClick, this, [this](QMouseEvent*) {
        const bool all = scene_->keyAxis()->range() == scene_->fullKeyRange() &&
                         scene_->valueAxis()->range() == scene_->fullValueRange();
        all ? resetView() : fitAll();
    });
    auto onBar = [this] {
        if (syncing_) return;
        syncing_ = true;
        const QCPRange fk = scene_->fullKeyRange(), fv = scene_->fullValueRange();
        const double kw = scene_->keyAxis()->range().size(), vh = scene_->valueAxis()->range().size();
        scene_->keyAxis()->setRange(fk.lower + hbar_->value() / kBarUnits, fk.lower + hbar_->value() / kBarUnits + kw);
        scene_->valueAxis()->setRange(fv.lower + vbar_->value() / kBarUnits,
                                      fv.lower + vbar_->value() / kBarUnits + vh);
        syncing_ = false;
        user_view_ = true;
        scene_->updateTicks();
        plot_->replot();
    };
    connect(hbar_, &QScrollBar::valueChanged, this, onBar);
    connect(vbar_, &QScrollBar::valueChanged, this, onBar);
    plot_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(plot_, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        const QPoint cell = scene_->cellAt(pos);
        const int col = cell.x() >= 0 ? cell.x() : scene_->columnLabelAt(pos);  // a source word's label: its column
        emit contextMenuRequested(cell.y(), col, plot_->mapToGlobal(pos));
    });
    plot_->installEventFilter(this);
    rebuild();
    resetView();
}

HeatmapView::~HeatmapView() = default;

// The window's figure is drawn on the palette's base colour (dark in the dark theme); style_ keeps the export's own.
void HeatmapView::rebuild() {
    HeatmapStyle shown = style_;
    shown.background = palette().color(QPalette::Base);
    scene_->setContent(data_, shown, visible_rows_);
    legend_->setEntries(heatmapLegendEntries(shown), shown.background);
    legend_->setVisible(legend_shown_ && !legend_->entries().empty());  // while the figure draws what it explains
}

// After new data or style: keep the user's zoom and scroll unless the matrix changed shape. One replot; with
// marksMoved (a new current row) it also scrolls the least that shows the marks.
void HeatmapView::refresh(bool reshaped, bool marksMoved) {
    rebuild();
    if (reshaped) user_view_ = false;
    if (user_view_ && !zoomed_) {
        resetCells(true,
                   marksMoved);  // scrolled only: the margins (diagnostics, labels) may have changed the cells' room
    } else if (user_view_ && marksMoved) {
        showMarks();
    } else if (user_view_) {
        clampRanges();
        scene_->updateTicks();
        updateScrollBars();
        plot_->replot();
    } else {
        resetView();  // shows the marks
    }
}

void HeatmapView::setData(const HeatmapData& data) { setData(data, false); }

void HeatmapView::setData(const HeatmapData& data, bool marksMoved) {
    const bool newSentence = data.source_tokens != data_.source_tokens;
    data_ = data;
    refresh(newSentence, marksMoved);
}

void HeatmapView::setData(const HeatmapData& data, int visibleRows, int currentRow) {
    visible_rows_ = visibleRows < 0 ? -1 : visibleRows;
    const bool moved = currentRow != style_.current_row;
    style_.current_row = currentRow;
    setData(data, moved);
}

void HeatmapView::setStyle(const HeatmapStyle& style) {
    const bool reshaped = style.hide_specials != style_.hide_specials;
    style_ = style;
    refresh(reshaped);
}

const HeatmapData& HeatmapView::data() const { return data_; }
const HeatmapStyle& HeatmapView::style() const { return style_; }

void HeatmapView::setVisibleRows(int n) {
    visible_rows_ = n < 0 ? -1 : n;
    rebuild();
    plot_->replot();
}

int HeatmapView::visibleRows() const { return visible_rows_; }

void HeatmapView::setColormap(const QString& name) {
    HeatmapStyle s = style_;
    s.colormap = name;
    setStyle(s);
}

void HeatmapView::setAnnotate(bool on) {
    HeatmapStyle s = style_;
    s.annotate = on;
    setStyle(s);
}

void HeatmapView::setHideSpecials(bool on) {
    HeatmapStyle s = style_;
    s.hide_specials = on;
    setStyle(s);
}

void HeatmapView::setCurrentRow(int row) {
    style_.current_row = row;
    scene_->setMarks(style_);
    showMarks();
}

void HeatmapView::setSelectedCell(int row, int col) {
    style_.selected_row = row;
    style_.selected_col = col;
    scene_->setMarks(style_);
    showMarks();
}

// Scrolls the least that brings the current row, then the selected cell, wholly into view, and replots.
void HeatmapView::showMarks() {
    // The range of `axis` moved so that display index i (spanning i ± 0.5) is inside it; unchanged if it is.
    auto bringIntoView = [](QCPAxis* axis, int i) {
        QCPRange r = axis->range();
        if (i < 0 || r.size() < 1.0) return;
        if (i - 0.5 < r.lower)
            r += i - 0.5 - r.lower;
        else if (i + 0.5 > r.upper)
            r += i + 0.5 - r.upper;
        if (r != axis->range()) axis->setRange(r);
    };
    const HeatmapLayout& l = scene_->layout();
    const bool was = syncing_;
    syncing_ = true;
    bringIntoView(scene_->valueAxis(), l.displayRowAtOrBefore(style_.current_row));
    const int sr = l.displayRow(style_.selected_row), sc = l.displayCol(style_.selected_col);
    if (sr >= 0 && sc >= 0) {
        bringIntoView(scene_->valueAxis(), sr);
        bringIntoView(scene_->keyAxis(), sc);
    }
    syncing_ = was;
    clampRanges();
    scene_->updateTicks();
    updateScrollBars();
    plot_->replot();
}

void HeatmapView::setLabelMarks(const LabelMarks& marks) {
    if (marks == scene_->labelMarks()) return;
    scene_->setLabelMarks(marks);
    plot_->layer(QStringLiteral("heatmap-marks"))->replot();
}

const LabelMarks& HeatmapView::labelMarks() const { return scene_->labelMarks(); }

QRect HeatmapView::rowMarkRect(int row) const {
    const int r = scene_->layout().displayRow(row);
    return r < 0 ? QRect() : scene_->rowMarkRect(r).toAlignedRect();
}

QRect HeatmapView::columnMarkRect(int col) const {
    const int c = scene_->layout().displayCol(col);
    return c < 0 ? QRect() : scene_->columnMarkRect(c).toAlignedRect();
}

QCustomPlot* HeatmapView::plot() { return plot_; }
const HeatmapDiagnostics& HeatmapView::diagnostics() const { return scene_->diagnostics(); }

double HeatmapView::cellValue(int row, int col) const { return scene_->displayValue(row, col); }

QSize HeatmapView::matrixSize() const {
    const QCPColorMapData* d = scene_->colorMap()->data();
    return QSize(d->keySize(), d->valueSize());
}

int HeatmapView::dataRow(int displayRow) const {
    const auto& rows = scene_->layout().rows;
    return displayRow >= 0 && displayRow < rows.size() ? rows[displayRow] : -1;
}

int HeatmapView::dataColumn(int displayCol) const {
    const auto& cols = scene_->layout().cols;
    return displayCol >= 0 && displayCol < cols.size() ? cols[displayCol] : -1;
}

QPoint HeatmapView::cellCenter(int row, int col) const {
    const int r = scene_->layout().displayRow(row), c = scene_->layout().displayCol(col);
    if (r < 0 || c < 0) return {-1, -1};
    return scene_->displayCellRect(r, c).center().toPoint();
}

QString HeatmapView::shownValuesTsv() const {
    const HeatmapLayout& l = scene_->layout();
    // A tab or line break inside a token would break the table's cells: written as a space.
    auto cell = [](QString t) { return t.replace(u'\t', u' ').replace(u'\n', u' ').replace(u'\r', u' '); };
    QStringList header{QString()};
    for (int c : l.cols) header << cell(data_.source_tokens[c]);
    QStringList lines{header.join(u'\t')};
    for (int r : l.rows) {
        if ((visible_rows_ >= 0 && r >= visible_rows_) || r >= int(data_.weights.size())) continue;
        QStringList line{cell(data_.target_tokens[r])};
        const std::vector<float>& row = data_.weights[size_t(r)];
        // Nine significant digits give back the same float when read.
        for (int c : l.cols)
            line << (c < int(row.size()) ? QString::number(double(row[size_t(c)]), 'g', 9) : QString());
        lines << line.join(u'\t');
    }
    return lines.join(u'\n') + u'\n';
}

QScrollBar* HeatmapView::horizontalScrollBar() const { return hbar_; }
QRectF HeatmapView::coverageLabelRect() const {
    return style_.diagnostics ? attnviz::ui::coverageLabelRect(*scene_) : QRectF();
}
QScrollBar* HeatmapView::verticalScrollBar() const { return vbar_; }
HeatmapLegendStrip* HeatmapView::legend() const { return legend_; }

void HeatmapView::setLegendShown(bool on) {
    legend_shown_ = on;
    legend_->setVisible(on && !legend_->entries().empty());
}
QRect HeatmapView::matrixRect() const { return scene_->axisRect()->rect(); }
QRect HeatmapView::currentRowOutline() const { return scene_->currentRowOutline().toAlignedRect(); }
QRect HeatmapView::selectedCellOutline() const { return scene_->selectedCellOutline().toAlignedRect(); }

QRectF HeatmapView::cellRect(int row, int col) const {
    const int r = scene_->layout().displayRow(row), c = scene_->layout().displayCol(col);
    return r < 0 || c < 0 ? QRectF() : scene_->displayCellRect(r, c);
}

void HeatmapView::hover(const QPoint& pos) {
    const QPoint cell = scene_->cellAt(pos);
    const int row = cell.y(), col = cell.x();
    if (row == hover_row_ && col == hover_col_) return;
    hover_row_ = row;
    hover_col_ = col;
    scene_->setHover(row, col);
    plot_->layer(QStringLiteral("heatmap-marks"))->replot();
    emit cellHovered(row, col);
    if (row < 0) {
        QToolTip::hideText();
        return;
    }
    if (row >= int(data_.weights.size()) || col >= int(data_.weights[row].size())) return;
    const float w = data_.weights[row][col];
    const QString target = data_.target_tokens[row].toHtmlEscaped(), source = data_.source_tokens[col].toHtmlEscaped();
    // A difference map (style_.diverging) names its values by the colour scale's label ("B − A").
    QString text = style_.diverging
                       ? tr("<b>%1</b> ← <b>%2</b><br>%3: %4")
                             .arg(target, source, style_.scale_label.toHtmlEscaped())
                             .arg(double(w), 0, 'f', 4)
                       : tr("<b>%1</b> ← <b>%2</b><br>weight %3").arg(target, source).arg(double(w), 0, 'f', 4);
    if (row < int(data_.scores.size()) && col < int(data_.scores[row].size())) {
        const float e = data_.scores[row][col];
        text +=
            std::isfinite(e) ? tr("<br>score %1").arg(double(e), 0, 'g', 5) : tr("<br>score — (outside the window)");
    }
    text += tr("<br><span style='color:gray'>target %1, source %2</span>").arg(row).arg(col);
    QToolTip::showText(plot_->mapToGlobal(pos), text, plot_);
}

void HeatmapView::resizeEvent(QResizeEvent* event) { QWidget::resizeEvent(event); }

void HeatmapView::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::LanguageChange) {
        rebuild();
        plot_->replot();
    }
}

bool HeatmapView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == plot_) {
        if (event->type() == QEvent::Leave && hover_row_ >= 0) {
            hover_row_ = hover_col_ = -1;
            scene_->setHover(-1, -1);
            plot_->replot();
            emit cellHovered(-1, -1);
        } else if (event->type() == QEvent::Wheel) {
            wheel(static_cast<QWheelEvent*>(event));
            return true;
        } else if (event->type() == QEvent::Resize) {
            const QSize size = static_cast<QResizeEvent*>(event)->size();
            plot_->setViewport(QRect(QPoint(0, 0), size));
            if (user_view_ && zoomed_) {
                // The user's zoom is a cell size: kept, the view showing more or fewer cells (not squeezing them).
                const QCPAxisRect* rect = scene_->axisRect();
                const double cellW = rect->width() / std::max(1e-9, scene_->keyAxis()->range().size());
                const double cellH = rect->height() / std::max(1e-9, scene_->valueAxis()->range().size());
                scene_->layoutNow(QRect(QPoint(0, 0), size));
                syncing_ = true;
                if (cellW > 0 && cellH > 0) {
                    const double lowerK = scene_->keyAxis()->range().lower, lowerV = scene_->valueAxis()->range().lower;
                    scene_->keyAxis()->setRange(lowerK, lowerK + rect->width() / cellW);
                    scene_->valueAxis()->setRange(lowerV, lowerV + rect->height() / cellH);
                }
                syncing_ = false;
                clampRanges();
                scene_->updateTicks();
                updateScrollBars();
            } else {
                // The initial view depends on the size: recompute it once QCustomPlot has taken the new size.
                // After a scroll only, the rows and columns in view stay.
                QMetaObject::invokeMethod(
                    this,
                    [this] {
                        if (!zoomed_) resetCells(user_view_);
                    },
                    Qt::QueuedConnection);
            }
        }
    }
    return QWidget::eventFilter(watched, event);
}

}  // namespace attnviz::ui
