#include "window/heatmap_actions.h"
#include "model/model_kind.h"

#include "heatmap/heatmap_view.h"
#include "heatmap/utf8_text.h"
#include "state/decode_state.h"
#include "state/intervention_edits.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QIcon>
#include <QMenu>

namespace attnviz::ui {

namespace {
QAction* makeAction(QObject* parent, const char* theme_icon, const QString& object_name) {
    auto* a = new QAction(QIcon::fromTheme(QString::fromLatin1(theme_icon)), QString(), parent);
    a->setObjectName(object_name);  // found by tests and by QMainWindow's saved state alike
    return a;
}

void setTexts(QAction* a, const QString& text, const QString& tip) {
    a->setText(text);
    a->setStatusTip(tip);
    const QKeySequence key = a->shortcut();
    a->setToolTip(key.isEmpty() ? tip : QStringLiteral("%1 (%2)").arg(tip, key.toString(QKeySequence::NativeText)));
}
}  // namespace

HeatmapActions::HeatmapActions(HeatmapView* view, DecodeState* state, QObject* parent)
    : QObject(parent), view_(view), state_(state) {
    zoom_in_ = makeAction(this, "zoom-in", QStringLiteral("zoomIn"));
    zoom_in_->setShortcuts(QKeySequence::ZoomIn);
    connect(zoom_in_, &QAction::triggered, view_, &HeatmapView::zoomIn);
    zoom_out_ = makeAction(this, "zoom-out", QStringLiteral("zoomOut"));
    zoom_out_->setShortcuts(QKeySequence::ZoomOut);
    connect(zoom_out_, &QAction::triggered, view_, &HeatmapView::zoomOut);
    zoom_reset_ = makeAction(this, "zoom-original", QStringLiteral("zoomReset"));
    connect(zoom_reset_, &QAction::triggered, view_, &HeatmapView::resetView);
    copy_values_ = makeAction(this, "edit-copy", QStringLiteral("copyCellValues"));
    connect(copy_values_, &QAction::triggered, this, &HeatmapActions::copyCellValues);
    inspect_ = makeAction(this, "zoom-select", QStringLiteral("inspectCell"));
    connect(inspect_, &QAction::triggered, this, [this] {
        if (menu_row_ >= 0) state_->setSelection(menu_row_, menu_col_);
    });
    knock_out_ = makeAction(this, "edit-delete", QStringLiteral("knockOutWord"));
    connect(knock_out_, &QAction::triggered, this, &HeatmapActions::knockOut);
    attend_ = makeAction(this, "go-jump", QStringLiteral("attendOnlyHere"));
    connect(attend_, &QAction::triggered, this, &HeatmapActions::attendHere);
    retranslate();
}

void HeatmapActions::retranslate() {
    zoom_reset_->setShortcut(QKeySequence(tr("Ctrl+0")));
    setTexts(zoom_in_, tr("&Zoom in"), tr("Larger heatmap cells"));
    setTexts(zoom_out_, tr("Zoom &out"), tr("Smaller heatmap cells, more of a long sentence in view"));
    setTexts(zoom_reset_, tr("&Reset zoom"), tr("The heatmap's first view again"));
    setTexts(copy_values_, tr("Copy cell &values"),
             tr("Copy the weights shown, with their tokens, as tab-separated text (for a spreadsheet)"));
    setTexts(inspect_, tr("&Inspect cell"), tr("Select this cell: the cell inspector shows how its weight was made"));
}

void HeatmapActions::addZoomActions(QMenu* menu) const {
    menu->addAction(zoom_in_);
    menu->addAction(zoom_out_);
    menu->addAction(zoom_reset_);
}

void HeatmapActions::showContextMenu(int row, int col, const QPoint& globalPos, QAction* copy_image,
                                     QAction* export_heatmap) {
    menu_row_ = row;
    menu_col_ = col;
    const bool has_matrix = !view_->data().isEmpty();
    copy_values_->setEnabled(has_matrix);
    inspect_->setEnabled(row >= 0 && col >= 0 && state_->attentionView().isDefault());  // a cell of `attention`
    QMenu menu(view_);
    menu.addAction(copy_image);
    menu.addAction(copy_values_);
    menu.addAction(export_heatmap);
    menu.addSeparator();
    menu.addAction(inspect_);
    menu.addSeparator();
    if (edits_) {
        prepareInterventions(row, col);
        menu.addAction(knock_out_);
        menu.addAction(attend_);
        menu.addSeparator();
    }
    addZoomActions(&menu);
    menu.exec(globalPos);
}

namespace {

// The columns are the decode's source positions: its cross-attention (the model's, a layer's or a head's) or an
// explanation of it.
bool columnsAreSource(const DecodeState& state) { return state.attentionView().kind == AttentionKind::Cross; }

QString sourceWord(const DecodeState& state, int col) {
    const auto& tokens = state.decode()->result.source_tokens;
    return col >= 0 && col < int(tokens.size()) ? qs(tokens[size_t(col)]) : QString();
}

InterventionItem knockoutAt(const DecodeState& state, int col) {
    return InterventionItem::knockout(col, sourceWord(state, col));
}

bool isKnockedOut(const DecodeState& state, int col) {
    const int i = indexOf(state.interventions(), knockoutAt(state, col));
    return i >= 0 && state.interventions()[size_t(i)].enabled;
}

}  // namespace

void HeatmapActions::prepareInterventions(int row, int col) {
    const PrefixDecoding* decode = state_->decode();
    // In words (state/word_view.h) a column is a word of several pieces, and knockouts name pieces.
    const bool words = state_->wordsShown();
    const bool column =
        decode && !words && columnsAreSource(*state_) && col >= 0 && col < int(decode->source.ids.size());
    knock_out_->setEnabled(column);
    const QString word = column ? sourceWord(*state_, col) : QString();
    if (words) {
        setTexts(knock_out_, tr("&Knock out this word"),
                 tr("Knockouts name pieces: choose View ▸ Pieces to knock one out"));
    } else if (column && isKnockedOut(*state_, col)) {
        setTexts(knock_out_, tr("&Restore “%1”").arg(word),
                 tr("Take this word's knockout away: the model reads it again"));
    } else if (column) {
        setTexts(knock_out_, tr("&Knock out “%1”").arg(word),
                 tr("Decode again with this source word hidden from the attention (its scores set to −∞)"));
    } else {
        setTexts(knock_out_, tr("&Knock out this word"), tr("Right-click a source word or a cell of its column"));
    }
    const bool rnn = decode && kindOffers(state_->decodedModel()->config).one_scored_row;
    const bool cell = column && row >= 0 && row < state_->stepCount() && state_->attentionView().isDefault();
    attend_->setEnabled(rnn && cell);
    setTexts(attend_, tr("&Attend only here at this step"),
             rnn ? tr("This step's attention becomes one-hot on this word; decoding goes on from there")
                 : tr("Only for the recurrent (RNN) models: a Transformer has many heads, not one attention row"));
    menu_row_ = row;
    menu_col_ = col;
}

void HeatmapActions::knockOut() {
    if (!edits_ || !state_->decode() || menu_col_ < 0) return;
    const InterventionItem item = knockoutAt(*state_, menu_col_);
    if (isKnockedOut(*state_, menu_col_)) {
        edits_->removeSame(item);
        return;
    }
    QString why;
    if (!edits_->add(item, &why) && !why.isEmpty()) emit interventionRefused(why);
}

void HeatmapActions::attendHere() {
    if (!edits_ || !state_->decode() || menu_row_ < 0 || menu_col_ < 0) return;
    const auto& targets = state_->decode()->result.target_tokens;
    const QString row_token = menu_row_ < int(targets.size()) ? qs(targets[size_t(menu_row_)]) : QString();
    QString why;
    const InterventionItem item =
        InterventionItem::attend(menu_row_, row_token, menu_col_, sourceWord(*state_, menu_col_));
    if (!edits_->add(item, &why) && !why.isEmpty()) emit interventionRefused(why);
}

void HeatmapActions::copyCellValues() {
    if (view_->data().isEmpty()) return;
    QApplication::clipboard()->setText(view_->shownValuesTsv());
}

}  // namespace attnviz::ui
