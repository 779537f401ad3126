#include "views/beam_tree.h"
#include "base/errors.h"
#include "model/model_kind.h"

#include "base/row_entropy.h"
#include "decode/beam_hypothesis.h"
#include "heatmap/utf8_text.h"
#include "state/decode_state.h"
#include "text/tokenizer.h"
#include "views/beam_tree_canvas.h"
#include "views/beam_tree_export.h"
#include "views/export_prompt.h"

#include <QCheckBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QInputDialog>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace attnviz::ui {

namespace {

// The candidates the step panel lists for a node: its parent's children, most probable first (lower id on ties).
std::vector<Candidate> siblingCandidates(const BeamResult& tree, const BeamNode& parent) {
    std::vector<Candidate> out;
    for (int c : parent.children) {
        const BeamNode& n = tree.nodes[size_t(c)];
        out.push_back({n.token, std::exp(n.log_prob), n.log_prob});
    }
    std::stable_sort(out.begin(), out.end(), [](const Candidate& a, const Candidate& b) {
        return a.log_prob > b.log_prob || (a.log_prob == b.log_prob && a.id < b.id);
    });
    return out;
}

}  // namespace

BeamTreeView::BeamTreeView(QWidget* parent) : QWidget(parent) {
    width_ = new QSpinBox(this);
    width_->setRange(1, kMaxViewWidth);
    width_->setValue(3);
    width_label_ = new QLabel(this);
    width_label_->setBuddy(width_);
    length_penalty_ = new QDoubleSpinBox(this);
    length_penalty_->setRange(-kMaxLengthPenalty, kMaxLengthPenalty);
    length_penalty_->setSingleStep(0.1);
    length_penalty_->setDecimals(1);
    length_penalty_->setValue(0);
    length_penalty_label_ = new QLabel(this);
    length_penalty_label_->setBuddy(length_penalty_);
    pruned_ = new QCheckBox(this);
    pruned_->setChecked(true);
    export_ = new QPushButton(this);
    export_->setEnabled(false);
    message_ = new QLabel(this);
    message_->setWordWrap(true);
    message_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    canvas_ = new BeamTreeCanvas;
    scroll_ = new QScrollArea(this);
    scroll_->setWidget(canvas_);
    scroll_->setWidgetResizable(false);
    scroll_->setBackgroundRole(QPalette::Base);
    nbest_label_ = new QLabel(this);
    nbest_ = new QListWidget(this);
    nbest_label_->setBuddy(nbest_);

    auto* controls = new QHBoxLayout;
    controls->addWidget(width_label_);
    controls->addWidget(width_);
    controls->addSpacing(12);
    controls->addWidget(pruned_);
    controls->addStretch(1);
    controls->addWidget(export_);
    auto* side = new QWidget(this);
    auto* side_layout = new QVBoxLayout(side);
    side_layout->setContentsMargins(0, 0, 0, 0);
    side_layout->addWidget(nbest_label_);
    auto* ranking = new QHBoxLayout;  // what the finished hypotheses rank by, beside their list
    ranking->addWidget(length_penalty_label_);
    ranking->addWidget(length_penalty_, 1);
    side_layout->addLayout(ranking);
    side_layout->addWidget(nbest_, 1);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(scroll_);
    split->addWidget(side);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setSizes({3000, 1000});  // the tree gets three quarters of the width
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(message_);
    layout->addWidget(split, 1);

    connect(width_, &QSpinBox::valueChanged, this, [this] { search(); });
    connect(length_penalty_, &QDoubleSpinBox::valueChanged, this, [this] { search(); });
    connect(pruned_, &QCheckBox::toggled, canvas_, &BeamTreeCanvas::setShowPruned);
    connect(canvas_, &BeamTreeCanvas::nodeClicked, this, &BeamTreeView::showNode);
    connect(canvas_, &BeamTreeCanvas::nodeMenuRequested, this, &BeamTreeView::showMenu);
    connect(export_, &QPushButton::clicked, this, &BeamTreeView::exportInteractively);
    connect(nbest_, &QListWidget::itemClicked, this,
            [this](QListWidgetItem* item) { showNode(item->data(Qt::UserRole).toInt()); });
    retranslateUi();
}

BeamTreeView::~BeamTreeView() = default;

void BeamTreeView::retranslateUi() {
    width_label_->setText(tr("Beam &width:"));
    width_->setToolTip(
        tr("How many hypotheses the search keeps at each step (1: the greedy decode). Each kept hypothesis "
           "proposes as many next tokens; the best of them are kept, the others pruned."));
    length_penalty_label_->setText(tr("&Length penalty:"));
    length_penalty_->setToolTip(
        tr("Finished hypotheses rank by total log p divided by their length to this power (Hugging Face's "
           "generate uses 1); 0 ranks by the total, so short hypotheses tend to win"));
    pruned_->setText(tr("Show &pruned"));
    pruned_->setToolTip(tr("Draw the hypotheses the search dropped (dashed) as well as the kept ones"));
    nbest_label_->setText(tr("&Finished hypotheses, best first:"));
    export_->setText(tr("E&xport…"));
    export_->setToolTip(tr("Save the tree as drawn (PNG, SVG, PDF) or its numbers (CSV, JSON)"));
    canvas_->setToolTip(QString());
    scroll_->setToolTip(
        tr("Click a hypothesis to see its attention in the heatmap; right-click to force a token after it."));
    if (!result_ && !model_) message_->setText(tr("Type a sentence: its beam search appears here."));
    fillNbest();
}

void BeamTreeView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QWidget::changeEvent(event);
}

void BeamTreeView::setDecodeState(DecodeState* state) {
    if (state_) disconnect(state_, nullptr, this, nullptr);
    state_ = state;
    if (!state_) return;
    connect(state_, &DecodeState::decodeChanged, this, &BeamTreeView::decodeChanged);
    decodeChanged();
}

int BeamTreeView::beamWidth() const { return width_->value(); }
void BeamTreeView::setBeamWidth(int width) { width_->setValue(std::clamp(width, 1, kMaxViewWidth)); }
QString BeamTreeView::messageText() const { return message_->text(); }

// A decode the window made (not one of this view's hypotheses): search it, now or when next shown. The window's
// decode this view searched, shown again (DecodeState::showMainDecode), keeps the tree and loses the selection.
void BeamTreeView::decodeChanged() {
    if (!state_ || state_->hypothesis()) return;
    if (state_->decode() && state_->mainDecodeSerial() == searched_serial_) {
        canvas_->setSelectedNode(-1);
        nbest_->clearSelection();
        return;
    }
    searched_serial_ = state_->mainDecodeSerial();
    prefix_.clear();
    if (!state_->decode()) {
        model_.reset();
        source_ = {};
        canvas_->setTree(nullptr, nullptr);
        result_.reset();
        export_->setEnabled(false);
        message_->setText(tr("Type a sentence: its beam search appears here."));
        fillNbest();
        emit searched();
        return;
    }
    model_ = state_->decodedModel();
    source_ = state_->decode()->source;
    interventions_ = state_->decode()->interventions;
    stale_ = !isVisible();
    if (!stale_) search();
}

void BeamTreeView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (stale_) search();
}

void BeamTreeView::research() {
    prefix_.clear();
    search();
}

void BeamTreeView::search() {
    stale_ = false;
    if (!model_) return;
    canvas_->setTree(nullptr, nullptr);
    try {
        DecodeOptions options;
        options.interventions = interventions_;
        options.length_penalty = length_penalty_->value();
        result_ = std::make_unique<BeamResult>(beamSearch(*model_, source_, prefix_, beamWidth(), options));
        message_->clear();
    } catch (const std::exception& e) {
        result_.reset();
        message_->setText(tr("No beam search: %1").arg(qs(errorMessage(e))));
    }
    canvas_->setTree(result_.get(), result_ ? &model_->target_vocab : nullptr);
    export_->setEnabled(result_ != nullptr);
    fillNbest();
    // A hypothesis of the previous tree is no longer one of this tree's: the window's decode again.
    if (state_ && state_->hypothesis()) state_->showMainDecode();
    emit searched();
}

// Each finished hypothesis as the output line writes an output: the score first (a narrow list never cuts it), then
// the tokens joined by the model's own detokenizer (Chinese characters are not spaced apart), without the <eos>; one
// that the length limit ended says so with "…".
void BeamTreeView::fillNbest() {
    nbest_->clear();
    if (!result_ || !model_) return;
    int rank = 0;
    for (int leaf : result_->finished) {
        std::vector<std::string> tokens;
        for (int n : beamPath(*result_, leaf))
            tokens.push_back(model_->target_vocab.token(result_->nodes[size_t(n)].token));
        const bool ended = !tokens.empty() && result_->nodes[size_t(leaf)].token == eos();
        if (ended) tokens.pop_back();
        QString text = qs(detokenizeTarget(*model_, tokens));
        if (!ended) text += QStringLiteral(" …");
        const BeamNode& end = result_->nodes[size_t(leaf)];
        const double alpha = result_->length_penalty;
        QString tooltip = tr("%1\nTotal log-probability %2 over %n token(s)", "", int(tokens.size()) + (ended ? 1 : 0))
                              .arg(text)
                              .arg(end.total_log_prob, 0, 'f', 4);
        QString numbers = QString::number(end.total_log_prob, 'f', 3);
        if (alpha != 0) {  // the list is ranked by the penalised score: show it first
            const double score = beamRank(end.total_log_prob, end.step, alpha);
            numbers = tr("%1 (Σ %2)").arg(score, 0, 'f', 3).arg(end.total_log_prob, 0, 'f', 3);
            tooltip += tr("\nRanked by the total / L^%1 = %2, L = %3 (the tokens and the decoder start)")
                           .arg(alpha, 0, 'g', 3)
                           .arg(score, 0, 'f', 4)
                           .arg(end.step + 1);
        }
        auto* item = new QListWidgetItem(tr("%1. %2  %3").arg(++rank).arg(numbers, text), nbest_);
        item->setData(Qt::UserRole, leaf);
        item->setToolTip(tooltip);
    }
}

std::shared_ptr<PrefixDecoding> BeamTreeView::hypothesisDecoding(int node) const {
    auto d = std::make_shared<PrefixDecoding>();
    d->source = source_;
    d->interventions = interventions_;
    const BeamResult& tree = *result_;
    const bool best = !tree.finished.empty() && node == tree.finished.front();
    DecodeResult& r = d->result;
    if (best) r = tree.best;  // with its raw scores (and a Transformer's layers)
    if (!best && kindOffers(model_->config).attention_heads) addLayers(node, r);
    r.source_tokens = source_.tokens;
    r.source_ids = source_.ids;
    for (int id : beamPath(tree, node)) {
        const BeamNode& n = tree.nodes[size_t(id)];
        StepRecord rec;
        rec.token = n.token;
        rec.token_text = std::string(model_->target_vocab.token(n.token));
        rec.log_prob = n.log_prob;
        rec.attention = tree.attention(id);
        rec.entropy = float(rowEntropy(rec.attention));
        rec.forced = n.forced;
        rec.top_k = siblingCandidates(tree, tree.nodes[size_t(n.parent)]);
        if (!best) {
            r.target_tokens.push_back(rec.token_text);
            r.target_ids.push_back(rec.token);
            r.attention.push_back(rec.attention);
            r.log_probs.push_back(rec.log_prob);
            r.total_log_prob += double(rec.log_prob);
        }
        d->steps.push_back(std::move(rec));
    }
    return d;
}

// Every layer's and head's attention of a hypothesis other than the best (the search keeps them for the best
// only): the engine's forced decode of its tokens. Without them (a failure, said in the message line) the head grid
// shows nothing for the hypothesis.
void BeamTreeView::addLayers(int node, DecodeResult& r) const {
    try {
        DecodeOptions options;
        options.interventions = interventions_;
        DecodeResult forced = hypothesisDecode(*model_, *result_, node, options);
        r.cross_attention = std::move(forced.cross_attention);
        r.encoder_self_attention = std::move(forced.encoder_self_attention);
        r.decoder_self_attention = std::move(forced.decoder_self_attention);
    } catch (const std::exception& e) {
        message_->setText(tr("No attention heads for this hypothesis: %1").arg(qs(errorMessage(e))));
    }
}

BeamHypothesisInfo BeamTreeView::hypothesisInfo(int node) const {
    BeamHypothesisInfo info;
    info.node = node;
    info.rank = finishedRank(*result_, node);
    info.finished = int(result_->finished.size());
    info.tokens = int(beamPath(*result_, node).size());
    info.total_log_prob = result_->nodes[size_t(node)].total_log_prob;
    return info;
}

void BeamTreeView::showNode(int node) {
    if (!result_ || node < 0 || size_t(node) >= result_->nodes.size()) return;
    canvas_->setSelectedNode(node);
    const QRect rect = canvas_->nodeRect(node);
    if (!rect.isNull()) scroll_->ensureVisible(rect.center().x(), rect.center().y(), rect.width(), rect.height());
    for (int i = 0; i < nbest_->count(); ++i)
        if (nbest_->item(i)->data(Qt::UserRole).toInt() == node) nbest_->setCurrentRow(i);
    if (node == 0 || !state_) return;  // the root is no hypothesis yet
    state_->showHypothesis(model_, hypothesisDecoding(node), hypothesisInfo(node));
}

bool BeamTreeView::forceAt(int node, int token) {
    if (!result_ || !model_ || node < 0 || size_t(node) >= result_->nodes.size()) return false;
    const BeamNode& n = result_->nodes[size_t(node)];
    if (node > 0 && n.token == eos()) {
        message_->setText(tr("This hypothesis ends with <eos>: no token can follow it."));
        return false;
    }
    std::vector<int> prefix;
    for (int id : beamPath(*result_, node)) prefix.push_back(result_->nodes[size_t(id)].token);
    prefix.push_back(token);
    const std::vector<int> before = prefix_;
    prefix_ = std::move(prefix);
    search();
    if (!result_) {  // the message says why; the previous search comes back
        const QString why = message_->text();
        prefix_ = before;
        search();
        message_->setText(why);
        return false;
    }
    showNode(result_->finished.front());
    return true;
}

// On a node (or, node −1, on the tree's background): show, force, search again, export.
void BeamTreeView::showMenu(int node, const QPoint& global_pos) {
    if (!result_) return;
    if (node >= 0) canvas_->setSelectedNode(node);
    QMenu menu(this);
    QAction* show = menu.addAction(tr("&Show this hypothesis"));
    show->setEnabled(node > 0);
    QAction* force = menu.addAction(tr("&Force a token here…"));
    force->setEnabled(node == 0 || (node > 0 && result_->nodes[size_t(node)].token != eos()));
    QAction* again = menu.addAction(tr("Search &again without forced tokens"));
    again->setEnabled(!prefix_.empty());
    menu.addSeparator();
    QAction* save = menu.addAction(tr("E&xport the tree…"));
    QAction* chosen = menu.exec(global_pos);
    if (chosen == show) showNode(node);
    if (chosen == force) askForceToken(node);
    if (chosen == again) research();
    if (chosen == save) exportInteractively();
}

bool BeamTreeView::exportTo(const QString& path, const ExportOptions& options, QString* error) const {
    BeamTreeExport what;
    what.tree = result_.get();
    what.target_vocab = model_ && result_ ? &model_->target_vocab : nullptr;
    what.source = source_;
    what.beam_width = beamWidth();
    what.show_pruned = canvas_->showPruned();
    what.selected = canvas_->selectedNode();
    return exportBeamTree(what, QDir::toNativeSeparators(path), options, error);
}

void BeamTreeView::exportInteractively() {
    if (!result_) return;
    const QString path = askExportPath(
        this, tr("Export the beam tree"),
        tr("PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf);;CSV numbers (*.csv);;JSON numbers (*.json)"),
        QStringLiteral("beam-tree.png"), last_export_);
    if (path.isEmpty()) return;
    QString error;
    if (exportTo(path, ExportOptions{}, &error))
        message_->setText(tr("Saved %1").arg(QDir::toNativeSeparators(path)));
    else
        message_->setText(tr("The tree was not saved. %1").arg(error));
}

// The tokens this node's children proposed first (most probable first), then every other producible token.
void BeamTreeView::askForceToken(int node) {
    const Vocabulary& vocab = model_->target_vocab;
    QStringList items;
    std::vector<char> listed(size_t(vocab.size()), 0);
    for (const Candidate& c : siblingCandidates(*result_, result_->nodes[size_t(node)])) {
        items << qs(vocab.token(c.id));
        listed[size_t(c.id)] = 1;
    }
    for (int id = 0; id < vocab.size(); ++id)
        if (canProduce(*model_, id) && !listed[size_t(id)]) items << qs(vocab.token(id));
    const QString after = node == 0 ? tr("the start") : QStringLiteral("“%1”").arg(canvas_->tokenText(node));
    bool ok = false;
    const QString text = QInputDialog::getItem(
        this, tr("Force a token"),
        tr("Token at step %1, after %2:").arg(result_->nodes[size_t(node)].step + 1).arg(after), items, 0, true, &ok);
    if (!ok || text.trimmed().isEmpty()) return;
    const std::string spelled = text.trimmed().toStdString();
    if (!vocab.contains(spelled)) {
        message_->setText(tr("“%1” is not in the model's target vocabulary.").arg(text.trimmed()));
        return;
    }
    forceAt(node, vocab.id(spelled));
}

}  // namespace attnviz::ui
