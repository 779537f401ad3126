// How the training window is laid out, so that it fits a small screen (800×600, a 1024×600 netbook) as well as a large
// one (docs/gui.md, "Small screens"): the form scrolls in a pane as narrow as its narrowest rows allow (as wide as the
// form wants while the window has the room), the panes share a splitter, the curves stand beside the epoch table
// where the views have room for both and above it where they have not, and the rows of buttons wrap (FlowLayout).
#include "heatmap/heatmap_view.h"
#include "training/epoch_metrics_table.h"
#include "training/flow_layout.h"
#include "training/loss_plot.h"
#include "training/training_animation.h"
#include "training/training_form.h"
#include "training/training_window.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>

namespace attnviz::ui {
namespace {

// The width the loss curves need beside the epoch table to stay readable (axis labels, ticks, a legend).
constexpr int kReadableCurvesWidth = 360;
// The width the views keep on a small screen before the form gets more than its least (curves, heatmap, buttons).
constexpr int kReadableViewsWidth = 460;
// The probe's rows the heatmap keeps at its minimum cell size (the rest scroll).
constexpr int kLeastHeatmapRows = 6;

}  // namespace

void TrainingWindow::buildPanes() {
    panes_ = new QSplitter(Qt::Horizontal, this);
    panes_->addWidget(buildControls());
    panes_->addWidget(buildViews());
    panes_->setStretchFactor(1, 1);
    panes_->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(panes_);
}

QWidget* TrainingWindow::buildControls() {
    auto* box = new QWidget(this);
    form_ = new TrainingForm(box);
    form_scroll_ = new QScrollArea(box);
    form_scroll_->setWidget(form_);
    form_scroll_->setWidgetResizable(true);
    form_scroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);  // fitFormWidth() instead
    fitFormWidth();
    start_ = new QPushButton(box);
    pause_ = new QPushButton(box);
    stop_ = new QPushButton(box);
    siblings_button_ = new QPushButton(box);
    connect(siblings_button_, &QPushButton::clicked, this, &TrainingWindow::chooseSiblingsFolder);
    connect(form_, &TrainingForm::problemChanged, this, &TrainingWindow::updateButtons);
    connect(form_, &TrainingForm::modelKindChanged, this, &TrainingWindow::updateButtons);
    connect(form_, &TrainingForm::modelKindChanged, this, &TrainingWindow::fitFormWidth);
    connect(start_, &QPushButton::clicked, this, [this] { start(); });
    connect(pause_, &QPushButton::clicked, this, [this] { isPaused() ? resume() : pause(); });
    connect(stop_, &QPushButton::clicked, this, &TrainingWindow::stop);
    auto* buttons = new FlowLayout;
    for (QPushButton* b : {start_, pause_, stop_, siblings_button_}) buttons->addWidget(b);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(form_scroll_, 1);
    layout->addLayout(buttons);
    return box;
}

// The form's pane is at least as wide as the form's narrowest layout of its rows (each model family has its own),
// with room for the vertical scroll bar, so that no field is ever cut off on the right; it scrolls vertically.
void TrainingWindow::fitFormWidth() { form_scroll_->setMinimumWidth(formPaneWidth(form_->minimumSizeHint().width())); }

int TrainingWindow::formPaneWidth(int form_width) const {
    return form_width + form_scroll_->verticalScrollBar()->sizeHint().width() + 2 * form_scroll_->frameWidth() + 4;
}

QWidget* TrainingWindow::buildViews() {
    auto* box = new QWidget(this);
    status_ = new QLabel(box);
    status_->setWordWrap(true);
    status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    loss_plot_ = new LossPlot(box);
    heatmap_ = new HeatmapView(box);
    heatmap_->setMinimumCellSize(14);
    heatmap_->setLeastRows(kLeastHeatmapRows);
    metrics_table_ = new EpochMetricsTable(box);
    curves_ = new QSplitter(Qt::Vertical, box);  // side by side once arrangeCurves() finds the room
    curves_->addWidget(loss_plot_);
    curves_->addWidget(metrics_table_);
    curves_->setStretchFactor(0, 1);
    curves_->setStretchFactor(1, 0);
    curves_->setChildrenCollapsible(false);
    curves_->installEventFilter(this);  // arrangeCurves() at every width
    views_ = new QSplitter(Qt::Vertical, box);
    views_->addWidget(curves_);
    views_->addWidget(heatmap_);
    views_->setStretchFactor(1, 2);
    views_->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(status_);
    layout->addWidget(views_, 1);
    layout->addLayout(buildTimeline(box));
    layout->addLayout(buildActions(box));
    return box;
}

QLayout* TrainingWindow::buildTimeline(QWidget* box) {
    timeline_label_ = new QLabel(box);
    timeline_ = new QSlider(Qt::Horizontal, box);
    timeline_->setRange(0, 0);
    timeline_label_->setBuddy(timeline_);
    snapshot_label_ = new QLabel(box);
    snapshot_label_->setMinimumWidth(snapshot_label_->fontMetrics().horizontalAdvance(QStringLiteral("0")) * 28);
    connect(timeline_, &QSlider::valueChanged, this, &TrainingWindow::showSnapshot);
    auto* row = new QHBoxLayout;
    row->addWidget(timeline_label_);
    row->addWidget(timeline_, 1);
    row->addWidget(snapshot_label_);
    return row;
}

// The exports, then (at the right while the line has room) what to do with the model: a FlowLayout, so that on a
// small screen they take two lines rather than widen the window past it.
QLayout* TrainingWindow::buildActions(QWidget* box) {
    export_film_ = new QPushButton(box);
    export_anim_ = new QPushButton(box);
    auto* delay = new QWidget(box);  // "Frame delay: [400 ms]" stays on one line
    frame_delay_label_ = new QLabel(delay);
    frame_delay_ = new QSpinBox(delay);
    frame_delay_->setRange(20, 10000);
    frame_delay_->setSingleStep(50);
    frame_delay_->setValue(kDefaultFrameDelayMs);
    frame_delay_label_->setBuddy(frame_delay_);
    auto* delay_row = new QHBoxLayout(delay);
    delay_row->setContentsMargins(0, 0, 0, 0);
    delay_row->addWidget(frame_delay_label_);
    delay_row->addWidget(frame_delay_);
    export_curves_ = new QPushButton(box);
    open_main_ = new QPushButton(box);
    save_sibling_ = new QPushButton(box);
    connect(export_film_, &QPushButton::clicked, this, &TrainingWindow::chooseFilmstripFile);
    connect(export_anim_, &QPushButton::clicked, this, &TrainingWindow::chooseAnimationFile);
    connect(export_curves_, &QPushButton::clicked, this, &TrainingWindow::chooseCurvesFile);
    connect(open_main_, &QPushButton::clicked, this, [this] { emit openModelRequested(modelPath()); });
    connect(save_sibling_, &QPushButton::clicked, this, &TrainingWindow::chooseSiblingFile);
    auto* actions = new FlowLayout;
    for (QWidget* w : std::initializer_list<QWidget*>{export_film_, export_anim_, delay, export_curves_})
        actions->addWidget(w);
    actions->addStretch();
    for (QPushButton* b : {open_main_, save_sibling_}) actions->addWidget(b);
    return actions;
}

// The curves beside the epoch table while the views are wide enough for both to be read, else above it.
void TrainingWindow::arrangeCurves() {
    const int beside = kReadableCurvesWidth + metrics_table_->minimumWidth() + curves_->handleWidth();
    const Qt::Orientation wanted = curves_->width() >= beside ? Qt::Horizontal : Qt::Vertical;
    if (curves_->orientation() != wanted) curves_->setOrientation(wanted);
    // Beside the curves the table is as wide as its columns; under them, as wide as the curves.
    const auto policy = wanted == Qt::Horizontal ? QSizePolicy::Maximum : QSizePolicy::Preferred;
    if (metrics_table_->sizePolicy().horizontalPolicy() != policy)
        metrics_table_->setSizePolicy(policy, QSizePolicy::Expanding);
}

// First shown: the form as wide as it wants where the window has the room for it beside the readable views.
void TrainingWindow::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (panes_sized_) return;
    panes_sized_ = true;
    const int total = panes_->width() - panes_->handleWidth();
    const int wanted = formPaneWidth(form_->sizeHint().width());
    const int room = total - std::max(kReadableViewsWidth, panes_->widget(1)->minimumSizeHint().width());
    const int form = std::max(form_scroll_->minimumWidth(), std::min(wanted, room));
    panes_->setSizes({form, total - form});
    arrangeCurves();
    // On a short screen the heatmap takes what the curves (the table under them) leave at their least.
    const int views = views_->height() - views_->handleWidth();
    const int curves = std::max(curves_->minimumSizeHint().height(), std::min(views / 2, curves_->sizeHint().height()));
    views_->setSizes({curves, views - curves});
}

bool TrainingWindow::eventFilter(QObject* watched, QEvent* event) {
    if (watched == curves_ && event->type() == QEvent::Resize) arrangeCurves();
    return QWidget::eventFilter(watched, event);
}

}  // namespace attnviz::ui
