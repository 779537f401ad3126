#include "views/compare_view.h"
#include "base/errors.h"

#include "eval/compare_heads.h"
#include "heatmap/explanation_data.h"
#include "heatmap/heatmap_legend.h"
#include "heatmap/heatmap_view.h"
#include "heatmap/utf8_text.h"
#include "state/decode_state.h"
#include "state/latest_wins.h"
#include "state/model_names.h"
#include "views/compare_rows_model.h"
#include "views/head_choice_box.h"

#include <qcustomplot.h>
#include <QComboBox>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace attnviz::ui {

namespace {

QString fileName(const QString& path) { return QFileInfo(path).fileName(); }

// Whether two styles draw the same picture apart from the marks (current row, selection).
bool sameLook(const HeatmapStyle& a, const HeatmapStyle& b) {
    return a.colormap == b.colormap && a.annotate == b.annotate && a.hide_specials == b.hide_specials &&
           a.title == b.title && a.fit_range == b.fit_range && a.diverging == b.diverging &&
           a.scale_label == b.scale_label;
}

// What is wrong with gold links for A's forced output ("" if nothing): every link must name a source word
// (S - 2 of them) and a target word (the rows but a final <eos>), checked by the corpus reader's own rule.
QString goldProblem(const GoldAlignment& gold, const DecodeResult& a) {
    const int words = std::max(0, int(a.source_tokens.size()) - 2);
    int targets = int(a.target_tokens.size());
    if (targets > 0 && a.target_tokens.back() == "<eos>") --targets;
    try {
        checkAlignmentRange(gold, words, targets);
    } catch (const std::exception& e) {
        return CompareView::tr("Gold links: %1").arg(qs(errorMessage(e)));
    }
    return {};
}

}  // namespace

CompareView::CompareView(DecodeState* state, QWidget* parent) : QWidget(parent), state_(state) {
    runner_ = new LatestWins(this);
    buildUi();
    retranslateUi();
    if (state_) {
        connect(state_, &DecodeState::modelChanged, this, &CompareView::modelAChanged);
        connect(state_, &DecodeState::decodeChanged, this, &CompareView::requestB);
        connect(state_, &DecodeState::cursorChanged, this, &CompareView::showCursor);
        connect(state_, &DecodeState::referenceTextChanged, this, &CompareView::updateGoldEnabled);
        connect(state_, &DecodeState::forcedTokensChanged, this, &CompareView::updateGoldEnabled);
    }
    modelAChanged();
    updateGoldEnabled();
}

CompareView::~CompareView() {
    runner_->cancelAll();  // a running decode's result is dropped
    runner_->waitForDone();
}

bool CompareView::isBusy() const { return runner_->isBusy(); }
void CompareView::waitForDone() { runner_->waitForDone(); }

void CompareView::buildUi() {
    model_label_ = new QLabel(this);
    model_box_ = new QComboBox(this);
    // At least 16 characters, more as the dock widens (stretch 1); a longer name is elided, the list shows it whole.
    // Sized to its longest item, the box would widen a small window past 800 px.
    model_box_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    model_box_->setMinimumContentsLength(16);
    model_label_->setBuddy(model_box_);
    connect(model_box_, &QComboBox::activated, this, &CompareView::modelBoxActivated);
    gold_label_ = new QLabel(this);
    gold_edit_ = new QLineEdit(this);
    gold_edit_->setClearButtonEnabled(true);
    gold_label_->setBuddy(gold_edit_);
    connect(gold_edit_, &QLineEdit::textChanged, this, [this](const QString& text) { setGoldLinks(text); });
    export_button_ = new QToolButton(this);
    export_button_->setPopupMode(QToolButton::InstantPopup);
    export_button_->setMenu(new QMenu(export_button_));

    auto* top = new QHBoxLayout;
    top->addWidget(model_label_);
    top->addWidget(model_box_, 1);
    top->addWidget(gold_label_);
    top->addWidget(gold_edit_, 1);
    top->addWidget(export_button_);

    auto* heads = new QHBoxLayout;
    for (auto [label, box] : {std::pair{&head_a_label_, &head_a_box_}, std::pair{&head_b_label_, &head_b_box_}}) {
        *label = new QLabel(this);
        *box = new HeadChoiceBox(this);
        (*label)->setBuddy(*box);
        connect(*box, &HeadChoiceBox::choiceChanged, this, &CompareView::headChoiceChanged);
        heads->addWidget(*label);
        heads->addWidget(*box);
    }
    heads->addStretch(1);

    QSplitter* maps = buildMaps();

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addLayout(heads);
    layout->addWidget(maps, 1);
    layout->addWidget(legend_);
}

// The three maps and the table in two rows of a splitter; the maps' one legend under them.
QSplitter* CompareView::buildMaps() {
    // A and B side by side, the difference and the table under them: each map gets half the view's width and
    // height (in a row of four, a 40-word sentence's map was 100 pixels wide, its title, bars and labels squeezed).
    auto* maps = new QSplitter(Qt::Vertical, this);
    auto* upper = new QSplitter(Qt::Horizontal, maps);
    auto* lower = new QSplitter(Qt::Horizontal, maps);
    for (auto [v, row] : {std::pair{&view_a_, upper}, std::pair{&view_b_, upper}, std::pair{&view_diff_, lower}}) {
        *v = new HeatmapView(row);
        (*v)->setMinimumCellSize(14);
        (*v)->setLegendShown(false);        // one legend under the three maps
        (*v)->setLeastRows(kLeastMapRows);  // the view scrolls (in the window's tab) rather than squeezing them
        row->addWidget(*v);
    }
    legend_ = new HeatmapLegendStrip(this);
    legend_->hide();
    auto* side = new QWidget(lower);
    auto* side_layout = new QVBoxLayout(side);
    side_layout->setContentsMargins(0, 0, 0, 0);
    summary_label_ = new QLabel(side);
    summary_label_->setWordWrap(true);
    summary_label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    rows_model_ = new CompareRowsModel(this);
    table_ = new QTableView(side);
    table_->setModel(rows_model_);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->setVisible(false);
    table_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 4);
    // Fixed widths (no measuring of every cell on each new sentence): tokens are elided, the last column stretches.
    table_->horizontalHeader()->setDefaultSectionSize(fontMetrics().horizontalAdvance(QStringLiteral("0.000000")));
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setTextElideMode(Qt::ElideMiddle);
    // A click on a line steps the window there (rows shown = line + 1), like clicking a heatmap row used to.
    connect(table_, &QTableView::clicked, this, [this](const QModelIndex& index) {
        if (state_ && index.isValid()) state_->setCursor(index.row() + 1);
    });
    side_layout->addWidget(summary_label_);
    side_layout->addWidget(table_, 1);
    lower->addWidget(side);
    rows_ = {upper, lower};
    for (QSplitter* row : {upper, lower}) {
        row->setStretchFactor(0, 1);
        row->setStretchFactor(1, 1);
        row->setChildrenCollapsible(false);
    }
    maps->setChildrenCollapsible(false);
    return maps;
}

void CompareView::retranslateUi() {
    model_label_->setText(tr("Compare &with:"));
    model_box_->setToolTip(
        tr("Model B, forced onto model A's output (or onto the reference when one is typed): a sibling of the "
           "open model, or any model with the same vocabularies"));
    gold_label_->setText(tr("&Gold links:"));
    gold_edit_->setPlaceholderText(tr("e.g. 0-0 1-2 2?1 (Pharaoh: i-j sure, i?j possible; for the typed reference)"));
    gold_edit_->setToolTip(
        tr("Gold alignment of the typed reference, as source-target word pairs counted from 0 (i-j sure, i?j "
           "possible): each model's alignment error rate (AER) is shown beside the distances"));
    head_a_label_->setText(tr("A's &attention:"));
    head_b_label_->setText(tr("B's a&ttention:"));
    export_button_->setText(tr("&Export"));
    export_button_->setToolTip(tr("Write a part of the comparison as PNG, SVG, PDF, CSV or JSON"));
    QMenu* menu = export_button_->menu();
    menu->clear();
    menu->addAction(tr("Model &A…"), this, [this] { exportInteractively(Part::A); });
    menu->addAction(tr("Model &B…"), this, [this] { exportInteractively(Part::B); });
    menu->addAction(tr("&Difference B − A…"), this, [this] { exportInteractively(Part::Difference); });
    menu->addAction(tr("The whole &comparison…"), this, [this] { exportInteractively(Part::Comparison); });
    fillModelBox();
    updateSummary();
}

// Narrower than kSideBySideWidth (the central area of an 800-pixel window), the maps stand one under the other, each
// the view's width: side by side each would be a few columns wide beside its labels, scale and H / ln S column.
void CompareView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    const Qt::Orientation wanted = width() >= kSideBySideWidth ? Qt::Horizontal : Qt::Vertical;
    for (QSplitter* row : rows_)
        if (row->orientation() != wanted) row->setOrientation(wanted);
}

void CompareView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QWidget::changeEvent(event);
}

// ------------------------------------------------------------------------------------------------ model B

void CompareView::modelAChanged() {
    siblings_.clear();
    const std::shared_ptr<const Model> a = state_ ? state_->model() : nullptr;
    head_a_box_->setModelConfig(a ? &a->config : nullptr);
    if (a) {
        const std::string path = state_->modelPath().toStdString();
        for (Sibling& s : findSiblings(path, *a))
            if (QFileInfo(qs(s.path)) != QFileInfo(state_->modelPath())) siblings_.push_back(std::move(s));
    }
    if (b_method_) {  // the method of the new A, if it has it
        if (setMethodB(*b_method_)) return;
        b_method_.reset();
        b_model_.reset();
        b_path_.clear();
    }
    // A B that no longer fits the new A, or that is the new A itself (the user opened B's file as the model), gives
    // way to the first sibling; a fitting other model stays.
    const bool is_a = a && !b_path_.isEmpty() && QFileInfo(b_path_) == QFileInfo(state_->modelPath());
    const bool fits = b_model_ && a && !is_a && comparabilityProblem(*a, *b_model_).empty();
    if (!fits && !siblings_.empty()) {
        setModelB(qs(siblings_.front().path));
        return;  // setModelB refilled the box and asked for B's decode
    }
    if (is_a) {  // no other model to compare with: say so rather than compare A with itself
        b_model_.reset();
        b_path_.clear();
        clearPair(
            tr("The open model has no sibling to compare with: choose a model with the same vocabularies "
               "(Open…), or one of its explanation methods."));
    }
    fillModelBox();
}

void CompareView::fillModelBox() {
    const QSignalBlocker block(model_box_);
    model_box_->clear();
    const std::shared_ptr<const Model> a = state_ ? state_->model() : nullptr;
    const std::string a_path = state_ ? state_->modelPath().toStdString() : std::string();
    const Sibling self{a_path, a ? a->config : ModelConfig{}, a ? isGuided(a->training, a_path) : false};
    int current = -1;
    for (const Sibling& s : siblings_) {
        if (QFileInfo(qs(s.path)) == QFileInfo(b_path_)) current = model_box_->count();
        model_box_->addItem(tr("%1 — %2").arg(fileName(qs(s.path)), siblingDifferencesText(self, s)), qs(s.path));
    }
    if (a && model_box_->count() > 0) model_box_->insertSeparator(model_box_->count());
    if (a)
        for (ExplainMethod m : methodsFor(a->config)) {
            if (m == ExplainMethod::Attention) continue;
            if (b_method_ == m) current = model_box_->count();
            model_box_->addItem(tr("This model: %1").arg(explainMethodTitle(m)),
                                QStringLiteral("method:%1").arg(QLatin1String(methodInfo(m).name)));
        }
    if (current < 0 && !b_path_.isEmpty() && !b_method_) {  // a model opened from elsewhere
        current = model_box_->count();
        model_box_->addItem(fileName(b_path_), b_path_);
    }
    model_box_->addItem(tr("Open…"));
    model_box_->setCurrentIndex(current);
    if (current < 0) model_box_->setPlaceholderText(tr("(no model B)"));
}

void CompareView::modelBoxActivated(int index) {
    QString path = model_box_->itemData(index).toString();
    if (path.startsWith(QLatin1String("method:"))) {
        if (const auto method = methodFromName(path.mid(7).toStdString())) setMethodB(*method);
        return;
    }
    if (path.isEmpty()) {  // "Open…"
        const QString dir =
            b_path_.isEmpty() && state_ ? QFileInfo(state_->modelPath()).path() : QFileInfo(b_path_).path();
        path = QFileDialog::getOpenFileName(this, tr("Open model B"), dir,
                                            tr("attnviz models (*.safetensors);;All files (*)"));
    }
    if (path.isEmpty() || !setModelB(path)) fillModelBox();  // back to the B shown
}

// ------------------------------------------------------------------------------------------------ showing

void CompareView::clearPair(const QString& why) {
    shown_a_.reset();
    shown_b_.reset();
    rho_.clear();
    summary_ = {};
    error_ = why;
    rows_model_->setRows({}, {}, {});
    for (HeatmapView* v : {view_a_, view_b_, view_diff_}) v->setData(HeatmapData{}, -1, -1);
    updateSummary();
    emit comparisonChanged();
}

ModelComparison CompareView::comparison() const {
    ModelComparison c;
    // A chosen head the shown decode does not have (it is still the previous model's) is not shown yet.
    const auto compared = [](const DecodeResult& r, const AttentionView& chosen, DecodeResult* out,
                             AttentionView* view) {
        *view = isValidView(r, chosen) ? chosen : AttentionView{};
        *out = withComparedAttention(r, *view);
    };
    if (shown_a_) compared(*shown_a_, head_a_box_->choice(), &c.a, &c.a_view);
    if (shown_b_) compared(*shown_b_, b_method_ ? AttentionView{} : head_b_box_->choice(), &c.b, &c.b_view);
    c.a_name = state_ ? fileName(state_->modelPath()) : QString();
    c.b_name = fileName(b_path_);
    if (b_method_) {
        c.b_method = methodInfo(*b_method_).name;
        c.b_shows = tr("%1, shares of |R|").arg(explainMethodTitle(*b_method_));
    }
    c.fit_difference = true;  // small differences stay visible; the scale says how large they are
    const bool on_reference = state_ && !state_->referenceText().trimmed().isEmpty() && state_->forcedTokens().empty();
    if (gold_ && on_reference && shown_a_ && goldProblem(*gold_, *shown_a_).isEmpty()) c.gold = gold_;
    return c;
}

void CompareView::showPair(std::shared_ptr<const DecodeResult> a, std::shared_ptr<const DecodeResult> b) {
    shown_a_ = std::move(a);
    shown_b_ = std::move(b);
    const ModelComparison c = comparison();
    std::vector<RowComparison> rows;
    try {
        rows = compareRows(c.a, c.b);
    } catch (const std::exception& e) {  // rows that do not line up: never shown as if they did
        return clearPair(qs(errorMessage(e)));
    }
    error_.clear();
    const std::vector<HeatmapPanel> panels = comparisonPanels(c, base_);
    const int cursor = state_ ? state_->cursor() : -1;
    const int visible = !state_ || cursor >= state_->stepCount() ? -1 : cursor;
    HeatmapView* views[] = {view_a_, view_b_, view_diff_};
    for (size_t i = 0; i < panels.size(); ++i) {
        if (!sameLook(views[i]->style(), panels[i].style)) {
            HeatmapStyle style = panels[i].style;
            style.current_row = views[i]->style().current_row;
            views[i]->setStyle(style);
        }
        views[i]->setData(panels[i].data, visible, state_ ? cursor - 1 : -1);
    }
    if (!b_method_) rho_.clear();
    rows_model_->setRows(std::move(rows), panels[0].data.target_tokens, panels[0].data.source_tokens, rho_);
    table_->setColumnHidden(CompareRowsModel::RankCorrelation, !b_method_);
    rows_model_->setVisibleRows(visible);
    updateSummary();
    emit comparisonChanged();
}

void CompareView::showCursor() {
    if (!shown_a_ || !state_) return;
    const int cursor = state_->cursor();
    const int visible = cursor >= state_->stepCount() ? -1 : cursor;
    for (HeatmapView* v : {view_a_, view_b_, view_diff_}) {
        if (v->visibleRows() != visible) v->setVisibleRows(visible);
        if (v->style().current_row != cursor - 1) v->setCurrentRow(cursor - 1);
    }
    rows_model_->setVisibleRows(visible);
    if (cursor > 0 && cursor <= rows_model_->rowCount())
        table_->selectRow(cursor - 1);
    else
        table_->clearSelection();
}

void CompareView::setBaseStyle(const HeatmapStyle& style) {
    base_ = style;
    base_.current_row = -1;
    base_.selected_row = base_.selected_col = -1;
    base_.alignment_marks.clear();  // the window's gold marks are A's cells on the reference, not the comparison's
    legend_->setEntries(heatmapLegendEntries(base_), palette().color(QPalette::Base));
    legend_->setVisible(!legend_->entries().empty());
    if (shown_a_ && shown_b_) showPair(shown_a_, shown_b_);
}

void CompareView::headChoiceChanged() {
    if (shown_a_ && shown_b_) showPair(shown_a_, shown_b_);
}

const std::vector<RowComparison>& CompareView::rows() const { return rows_model_->rows(); }

QString CompareView::setGoldLinks(const QString& pharaoh) {
    gold_.reset();
    gold_error_.clear();
    if (!pharaoh.trimmed().isEmpty()) {
        try {
            gold_ = parseAlignment(pharaoh.toStdString());
        } catch (const std::exception& e) {
            gold_error_ = tr("Gold links: %1").arg(qs(errorMessage(e)));
        }
    }
    if (gold_edit_->text() != pharaoh) {
        const QSignalBlocker block(gold_edit_);
        gold_edit_->setText(pharaoh);
    }
    updateSummary();
    return gold_error_;
}

void CompareView::updateGoldEnabled() {
    const bool on_reference = state_ && !state_->referenceText().trimmed().isEmpty() && state_->forcedTokens().empty();
    gold_edit_->setEnabled(on_reference);
    updateSummary();
}

// The line above the table: the means of the pair shown, each side's AER, or why nothing is shown.
void CompareView::updateSummary() {
    if (!shown_a_ || !shown_b_) {
        summary_ = {};
        summary_label_->setText(error_);
        return;
    }
    const ModelComparison c = comparison();
    summary_ = comparisonSummary(compareAttention(c.a, c.b, c.gold ? &*c.gold : nullptr));
    QStringList lines;
    lines << tr("Means over %n row(s): TV %1 · JS %2 nats · argmax agreement %3 %", "", int(summary_.rows))
                 .arg(summary_.mean_tv, 0, 'f', 3)
                 .arg(summary_.mean_js, 0, 'f', 3)
                 .arg(100.0 * summary_.argmax_agreement, 0, 'f', 1);
    lines << tr("Entropy A %1, B %2 nats")
                 .arg(summary_.mean_entropy_a, 0, 'f', 3)
                 .arg(summary_.mean_entropy_b, 0, 'f', 3);
    if (b_method_) {
        double sum = 0;
        int n = 0;
        for (double rho : rho_)
            if (!std::isnan(rho)) sum += rho, ++n;
        lines << (n > 0 ? tr("Rank correlation of the attention and %1 over %n row(s): mean ρ %2", "", n)
                              .arg(explainMethodTitle(*b_method_))
                              .arg(sum / n, 0, 'f', 3)
                        : tr("No row has two source words to rank."));
    }
    if (!b_interventions_note_.isEmpty()) lines << b_interventions_note_;
    if (summary_.aer_a)
        lines << tr("AER A %1, B %2 (against the gold links)")
                     .arg(*summary_.aer_a, 0, 'f', 3)
                     .arg(*summary_.aer_b, 0, 'f', 3);
    else if (!gold_error_.isEmpty())
        lines << gold_error_;
    else if (gold_ && !gold_edit_->isEnabled())
        lines << tr("Gold links apply to a typed reference.");
    else if (gold_)
        lines << goldProblem(*gold_, *shown_a_);
    summary_label_->setText(lines.join(u'\n'));
}

QString CompareView::summaryText() const { return summary_label_->text(); }

}  // namespace attnviz::ui
