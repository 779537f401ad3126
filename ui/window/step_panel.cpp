#include "window/step_panel.h"

#include "heatmap/colormaps.h"
#include "heatmap/explanation_data.h"
#include "heatmap/heatmap_scene.h"
#include "heatmap/plot_palette.h"
#include "heatmap/token_labels.h"
#include "heatmap/utf8_text.h"
#include "state/decode_state.h"

#include <qcustomplot.h>
#include <QFontMetricsF>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMouseEvent>
#include <QToolTip>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <cmath>

namespace attnviz::ui {

namespace {
// A label may take this share of the chart's height: a long token is elided rather than squashing the bars.
constexpr double kLabelShareOfHeight = 0.35;
}  // namespace

StepPanel::StepPanel(QWidget* parent) : QWidget(parent) {
    title_ = new QLabel(this);
    title_->setWordWrap(true);
    title_->setTextFormat(Qt::RichText);

    plot_ = new QCustomPlot(this);
    plot_->setMinimumHeight(180);
    plot_->setFocusPolicy(Qt::StrongFocus);  // so that the stepping keys work after a click on the chart
    bars_ = new QCPBars(plot_->xAxis, plot_->yAxis);
    bars_->setWidthType(QCPBars::wtPlotCoords);
    bars_->setWidth(0.8);
    bars_->setPen(Qt::NoPen);
    neg_bars_ = new QCPBars(plot_->xAxis, plot_->yAxis);
    neg_bars_->setWidthType(QCPBars::wtPlotCoords);
    neg_bars_->setWidth(0.8);
    neg_bars_->setPen(Qt::NoPen);
    plot_->yAxis->setRange(0, 1);
    plot_->xAxis->grid()->setVisible(false);
    QFont labels = plot_->xAxis->tickLabelFont();
    labels.setFamilies(heatmapFontFamilies());  // the heatmap's faces: Han characters in their SC forms
    plot_->xAxis->setTickLabelFont(labels);
    plot_->setMouseTracking(true);
    connect(plot_, &QCustomPlot::mouseMove, this, [this](QMouseEvent* e) { showBarTip(e->pos()); });
    plot_->installEventFilter(this);  // resizes: labels for the new width
    plot_->axisRect()->setAutoMargins(QCP::msAll);

    candidates_ = new QTreeWidget(this);
    candidates_->setColumnCount(2);
    candidates_->setRootIsDecorated(false);
    candidates_->setUniformRowHeights(true);
    candidates_->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    candidates_->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    candidates_->setMinimumHeight(120);
    candidates_->setStyleSheet(QStringLiteral("QTreeWidget::item { padding: 3px 2px; }"));  // rows not cramped
    connect(candidates_, &QTreeWidget::itemClicked, this, &StepPanel::onItemClicked);
    candidates_->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(candidates_, &QWidget::customContextMenuRequested, this, [this](const QPoint& pos) {
        showCandidateMenu(candidates_->itemAt(pos), candidates_->viewport()->mapToGlobal(pos));
    });

    entropy_ = new QLabel(this);
    gap_ = new QLabel(this);
    gap_->setWordWrap(true);
    gap_->hide();
    candidates_label_ = new QLabel(this);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(title_);
    layout->addWidget(plot_, 3);
    layout->addWidget(candidates_label_);
    layout->addWidget(candidates_, 2);
    layout->addWidget(entropy_);
    layout->addWidget(gap_);
    retranslateUi();
    applyPaletteToPlot(plot_, palette());
    empty_hint_ = tr("No step yet.");
    clear(empty_hint_);
}

void StepPanel::retranslateUi() {
    candidates_->setHeaderLabels({tr("Next token"), tr("Probability")});
    candidates_->setToolTip(
        tr("Click a candidate to force it at this step and decode on from there (\"what if?\"); right-click it to "
           "ask why the model chose its token and not this one"));
    gap_->setToolTip(
        tr("Integrated gradients' completeness: the row's sum should equal log p of its token with the sentence "
           "minus log p with every source embedding at 0; the gap shows how far 32 steps are from the integral"));
    entropy_->setToolTip(
        tr("-Σ a log a over the row: 0 when all attention is on one source token, "
           "ln S when it is spread evenly"));
    candidates_label_->setText(tr("Candidates (click to force):"));
}

void StepPanel::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
        refresh();
    } else if (event->type() == QEvent::PaletteChange) {
        applyPaletteToPlot(plot_, palette());
        plot_->replot();
    }
}

void StepPanel::setDecodeState(DecodeState* state) {
    if (state_) disconnect(state_, nullptr, this, nullptr);
    state_ = state;
    if (state_) {
        connect(state_, &DecodeState::decodeChanged, this, &StepPanel::decodeChanged);
        connect(state_, &DecodeState::cursorChanged, this, &StepPanel::refresh);
        connect(state_, &DecodeState::explanationChanged, this, &StepPanel::refresh);
        connect(state_, &DecodeState::explainMethodChanged, this, &StepPanel::refresh);
    }
    decodeChanged();
}

void StepPanel::setEmptyHint(const QString& hint) {
    empty_hint_ = hint;
    if (state_ && !state_->hasDecode()) clear(hint);
}

void StepPanel::setHideSpecials(bool hide) {
    hide_specials_ = hide;
    if (state_) refresh();
}

void StepPanel::decodeChanged() {
    source_labels_.clear();
    if (state_ && state_->hasDecode())
        for (const std::string& t : state_->decode()->result.source_tokens) source_labels_ << qs(t);
    refresh();
}

void StepPanel::refresh() {
    if (!state_ || !state_->hasDecode()) {
        clear(empty_hint_);
        return;
    }
    const StepRecord* step = state_->currentStep();
    if (!step) {
        clear(tr("Before the first step: press → (or Alt+→) to decode the first token."));
        return;
    }
    const int i = state_->cursor() - 1;
    const auto& shown = state_->decode()->result.target_tokens;
    setStep(*step, i, state_->stepCount(), source_labels_, state_->decodedModel()->target_vocab,
            i < int(shown.size()) ? qs(shown[size_t(i)]) : QString());
}

void StepPanel::clear(const QString& hint) {
    current_token_ = -1;
    title_->setText(hint.toHtmlEscaped());
    bars_->data()->clear();
    neg_bars_->data()->clear();
    bar_tokens_.clear();
    bar_values_.clear();
    // No bars, no scale: an empty frame rather than axes numbered 0 to 1 that measure nothing.
    plot_->yAxis->setLabel(QString());
    plot_->yAxis->setRange(0, 1);
    gap_->clear();
    gap_->hide();
    plot_->xAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    plot_->xAxis->setRange(0, 1);
    setScaleShown(false);
    plot_->replot();
    candidates_->clear();
    entropy_->clear();
}

void StepPanel::setStep(const StepRecord& step, int index, int total, const QStringList& source_tokens,
                        const Vocabulary& target_vocab, const QString& shown) {
    current_token_ = step.token;
    title_->setText(tr("<b>Step %1 of %2</b>: “%3”, p = %4%5")
                        .arg(index + 1)
                        .arg(total)
                        .arg(shown.toHtmlEscaped())
                        .arg(std::exp(double(step.log_prob)), 0, 'f', 3)
                        .arg(step.forced ? tr(" <i>(forced)</i>") : QString()) +
                    computingNote());

    const std::optional<Contrast>& contrast = state_ ? state_->contrast() : std::nullopt;
    if (contrast && contrast->row == index)
        title_->setText(title_->text() +
                        tr("<br>Why this and not “%1”?").arg(qs(target_vocab.token(contrast->token)).toHtmlEscaped()));
    setBars(rowValues(step, index), source_tokens);
    showGap(index);

    candidates_->clear();
    for (const Candidate& c : step.top_k) {
        auto* item = new QTreeWidgetItem(candidates_);
        item->setText(0, c.id == step.token ? shown : qs(target_vocab.token(c.id)));
        item->setText(1, QString::number(double(c.prob), 'f', 4));
        item->setTextAlignment(1, Qt::AlignRight | Qt::AlignVCenter);
        item->setData(0, Qt::UserRole, c.id);
        if (c.id == step.token) {
            QFont f = item->font(0);
            f.setBold(true);
            item->setFont(0, f);
            item->setFont(1, f);
            item->setToolTip(0, tr("The token produced at this step"));
        } else {
            item->setToolTip(0, tr("Force this token here and decode on from it"));
        }
    }
    const int S = int(step.attention.size());
    const double max_entropy = S > 0 ? std::log(double(S)) : 0.0;
    entropy_->setText(
        tr("Entropy: %1 nats (uniform: %2)").arg(double(step.entropy), 0, 'f', 3).arg(max_entropy, 0, 'f', 3));
}

std::vector<double> StepPanel::rowValues(const StepRecord& step, int index) const {
    const Explanation* e = state_ ? state_->explanation() : nullptr;
    std::vector<double> values;
    if (e && index < e->values.rows()) {
        for (Eigen::Index j = 0; j < e->values.cols(); ++j) values.push_back(double(e->values(index, j)));
        return values;
    }
    for (float a : step.attention) values.push_back(double(a));
    return values;
}

// One bar per shown source token, centred on its position; the axis fits the method (attention: 0 to 1; an unsigned
// method: 0 to its largest value; a signed one: ± its largest magnitude, red above 0 and blue below, as the heatmap).
void StepPanel::setBars(const std::vector<double>& values, const QStringList& source_tokens) {
    const Explanation* e = state_ ? state_->explanation() : nullptr;
    const bool is_signed = e && methodInfo(e->method).is_signed;
    QVector<double> keys, pos, neg;
    bar_tokens_.clear();
    bar_values_.clear();
    double largest = 0;
    for (int j = 0; j < int(values.size()); ++j) {
        const QString token = j < source_tokens.size() ? source_tokens[j] : QString();
        if (hide_specials_ && isSpecialToken(token)) continue;
        keys << double(keys.size());
        pos << (values[size_t(j)] >= 0 ? values[size_t(j)] : 0.0);
        neg << (values[size_t(j)] < 0 ? values[size_t(j)] : 0.0);
        bar_tokens_ << token;
        bar_values_ << values[size_t(j)];
        largest = std::max(largest, std::abs(values[size_t(j)]));
    }
    bars_->setData(keys, pos, true);
    neg_bars_->setData(keys, neg, true);
    QCPColorGradient diverging = divergingGradient();
    const QColor red = QColor::fromRgb(diverging.color(0.85, QCPRange(0, 1)));
    bars_->setBrush(is_signed ? red : QColor(59, 82, 139));  // viridis' blue
    neg_bars_->setBrush(QColor::fromRgb(diverging.color(0.15, QCPRange(0, 1))));
    const double top = e ? std::max(largest * 1.05, 1e-12) : 1.0;
    plot_->yAxis->setRange(is_signed ? -top : 0.0, top);
    fitAxisTitle();
    setScaleShown(true);
    plot_->xAxis->setRange(-0.6, int(keys.size()) - 0.4);
    updateTicks();
    plot_->replot();
}

// Integrated gradients: Σ_j R[t][j] − (f_t(e) − f_t(0)), and that as a share of f_t(e) − f_t(0).
void StepPanel::showGap(int index) {
    const Explanation* e = state_ ? state_->explanation() : nullptr;
    if (!e || e->method != ExplainMethod::IntegratedGradients || index >= int(e->ig_delta.size())) {
        gap_->clear();
        gap_->hide();  // takes no room while empty
        return;
    }
    gap_->show();
    const double delta = e->ig_delta[size_t(index)], gap = completenessGap(*e, index);
    gap_->setText(tr("Completeness gap: %1 (Σ = %2, f(x) − f(0) = %3, %4 %)")
                      .arg(gap, 0, 'g', 3)
                      .arg(gap + delta, 0, 'g', 4)
                      .arg(delta, 0, 'g', 4)
                      .arg(delta != 0 ? 100 * std::abs(gap / delta) : 0.0, 0, 'f', 2));
}

// While a method is computed the bars are the attention, and the axis says so; the title line says what is coming.
QString StepPanel::barsLabel() const {
    const Explanation* e = state_ ? state_->explanation() : nullptr;
    if (e) return explainMethodTitle(e->method);
    return tr("attention");
}

QString StepPanel::computingNote() const {
    if (!state_ || state_->explanation() || state_->explainMethod() == ExplainMethod::Attention) return {};
    return tr("<br><i>%1: computing…</i>").arg(explainMethodTitle(state_->explainMethod()).toHtmlEscaped());
}

// The axis title is written along the chart's height: elided to it (the whole in the bars' tooltips), never cut at
// both ends by the plot's edges.
void StepPanel::fitAxisTitle() {
    const QString whole = barsLabel();
    const int room = plot_->axisRect()->height();
    const QFontMetrics fm(plot_->yAxis->labelFont());
    plot_->yAxis->setLabel(room > 0 ? fm.elidedText(whole, Qt::ElideRight, room) : whole);
}

QString StepPanel::gapText() const { return gap_->text(); }
QString StepPanel::axisTitle() const { return plot_->yAxis->label(); }
QString StepPanel::titleText() const { return title_->text(); }

QVector<double> StepPanel::barValues() const { return bar_values_; }

QMenu* StepPanel::showCandidateMenu(QTreeWidgetItem* item, const QPoint& global_pos) {
    if (!item || !state_ || !state_->currentStep()) return nullptr;
    const int token = item->data(0, Qt::UserRole).toInt();
    const int row = state_->cursor() - 1;
    auto* menu = new QMenu(this);
    menu->setAttribute(Qt::WA_DeleteOnClose);
    if (token != current_token_) {
        const auto& tokens = state_->decode()->result.target_tokens;
        const QString shown = size_t(row) < tokens.size() ? qs(tokens[size_t(row)]) : QString();
        QAction* why = menu->addAction(tr("Why “%1” and not “%2”?").arg(shown, item->text(0)));
        why->setStatusTip(
            tr("Shows what made the model prefer its token over this one at this step (a contrastive explanation)"));
        connect(why, &QAction::triggered, this, [this, token] { emit contrastChosen(token); });
    }
    const std::optional<Contrast>& contrast = state_->contrast();
    if (contrast && contrast->row == row) {
        QAction* clear = menu->addAction(tr("Explain the token alone (no contrast)"));
        connect(clear, &QAction::triggered, this, &StepPanel::contrastCleared);
    }
    if (menu->actions().isEmpty()) {
        delete menu;
        return nullptr;
    }
    menu->popup(global_pos);
    return menu;
}

void StepPanel::setScaleShown(bool on) {
    plot_->yAxis->setTicks(on);
    plot_->yAxis->setTickLabels(on);
    plot_->yAxis->grid()->setVisible(on);
}

// The bars' labels by the heatmap's rules (token_labels.h), for the chart's present size.
void StepPanel::updateTicks() {
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    const int count = int(bar_tokens_.size());
    if (count > 0) {
        const QFont font = plot_->xAxis->tickLabelFont();
        QStringList labels;
        for (const QString& t : bar_tokens_) labels << tokenLabel(t, font, kLabelShareOfHeight * plot_->height());
        AxisLabelPlan plan;
        // Twice: the room kept right of the last bar changes the slots a little.
        for (int pass = 0; pass < 2; ++pass) {
            layoutPlotNow(plot_, plot_->rect());
            const double slot = plot_->axisRect()->width() / std::max(1e-9, plot_->xAxis->range().size());
            plan = planHorizontalLabels(labels, font, slot);
            reserveRoomForLastLabel(labels.back(), plan.rotation, slot);
        }
        plot_->xAxis->setTickLabelRotation(plan.rotation);
        for (int k : plan.written) ticker->addTick(k, labels[k]);
    }
    plot_->xAxis->setTicker(ticker);
}

// The last bar's centre is 0.6 slot left of the plot's right edge: an upright label wider than that (an <eos> after
// single characters) is given the rest in the right margin, so that it is not cut by the widget's edge.
void StepPanel::reserveRoomForLastLabel(const QString& label, double rotation, double slot) {
    const QFontMetricsF fm(plot_->xAxis->tickLabelFont());
    const double half = (rotation == 0 ? fm.horizontalAdvance(label) : fm.height()) / 2;
    QMargins minimum = plot_->axisRect()->minimumMargins();
    minimum.setRight(std::max(0, int(std::ceil(half - 0.6 * slot))) + 2);
    plot_->axisRect()->setMinimumMargins(minimum);
}

// The bar under the mouse (or its label): the whole token and its weight.
void StepPanel::showBarTip(const QPoint& pos) {
    const int k = int(std::lround(plot_->xAxis->pixelToCoord(pos.x())));
    const bool inside = pos.x() >= plot_->axisRect()->left() && pos.x() <= plot_->axisRect()->right();
    if (!inside || k < 0 || k >= int(bar_tokens_.size()) || k >= int(bar_values_.size())) {
        QToolTip::hideText();
        return;
    }
    const QString text =
        tr("<b>%1</b><br>%2 %3").arg(bar_tokens_[k].toHtmlEscaped(), barsLabel()).arg(bar_values_[k], 0, 'g', 4);
    QToolTip::showText(plot_->mapToGlobal(pos), text, plot_);
}

bool StepPanel::eventFilter(QObject* watched, QEvent* event) {
    if (watched == plot_ && event->type() == QEvent::Resize && !bar_tokens_.isEmpty()) {
        // After QCustomPlot took the new size (its own resize handler runs after this filter).
        QMetaObject::invokeMethod(
            this,
            [this] {
                updateTicks();
                fitAxisTitle();
                plot_->replot();
            },
            Qt::QueuedConnection);
    }
    return QWidget::eventFilter(watched, event);
}

QString StepPanel::entropyText() const { return entropy_->text(); }

void StepPanel::onItemClicked(QTreeWidgetItem* item) {
    if (!item) return;
    const int token = item->data(0, Qt::UserRole).toInt();
    if (token != current_token_) emit candidateChosen(token);
}

}  // namespace attnviz::ui
