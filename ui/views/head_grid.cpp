#include "views/head_grid.h"
#include "state/word_view.h"

#include "heatmap/attention_view_data.h"
#include "heatmap/colormaps.h"
#include "heatmap/heatmap_scene.h"
#include "state/decode_state.h"
#include "state/intervention_edits.h"
#include "views/export_prompt.h"

#include <QCheckBox>
#include <QComboBox>
#include <QContextMenuEvent>
#include <QDir>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QPushButton>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <utility>

namespace attnviz::ui {

namespace {

constexpr double kLogicalDpi = 96;
constexpr int kMaxSide = 20000;  // validateExportOptions' bound
constexpr int kMargin = 8;

// The logical size of an export: matrix cells of 4 to 16 pixels (a thumbnail about 240 pixels on its long side).
QSize exportLogicalSize(const HeadGridFigure& f, const QFont& font) {
    const int rows = int(f.cells[0][0].size()), cols = rows ? int(f.cells[0][0][0].size()) : 0;
    const double cell = std::clamp(240.0 / std::max({rows, cols, 1}), 4.0, 16.0);
    const QFontMetricsF fm(font);
    double label_w = 0;
    for (const QString& s : f.row_labels) label_w = std::max(label_w, fm.horizontalAdvance(s));
    const double step_x = std::max(cell * cols, fm.horizontalAdvance(f.col_labels.value(0))) + 8;
    const double w = 2 * kMargin + label_w + 8 + step_x * f.heads();
    const double h = 2 * kMargin + fm.height() * 1.4 + 4 + fm.height() + 8 + (cell * rows + 8) * f.layers();
    return {int(std::ceil(w)), int(std::ceil(h))};
}

QSize exportPixels(const QSize& logical, double dpi) {
    double scale = dpi / kLogicalDpi;
    scale = std::min({scale, kMaxSide / double(logical.width()), kMaxSide / double(logical.height())});
    return {std::max(16, int(std::lround(logical.width() * scale))),
            std::max(16, int(std::lround(logical.height() * scale)))};
}

}  // namespace

// ---- the canvas

HeadGridCanvas::HeadGridCanvas(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
}

void HeadGridCanvas::setFigure(HeadGridFigure figure) {
    const bool resized = figure.layers() != figure_.layers();
    figure_ = std::move(figure);
    if (resized) updateGeometry();  // sizeHint follows the layers
    relayout();
    update();
}

QPoint HeadGridCanvas::thumbnailCenter(int layer, int head) const {
    if (layer < 0 || head < 0 || layer >= int(layout_.thumbs.size()) || head >= int(layout_.thumbs[0].size()))
        return {-1, -1};
    return layout_.thumbs[size_t(layer)][size_t(head)].center().toPoint();
}

QSize HeadGridCanvas::sizeHint() const { return {600, std::clamp(figure_.layers() * 80 + 30, 130, 360)}; }

QSize HeadGridCanvas::minimumSizeHint() const {
    return {120, std::max(80, figure_.layers() * kMinLayerHeight + 2 * kMargin + heatmapFont(12).pointSize() * 2)};
}

void HeadGridCanvas::relayout() {
    layout_ = HeadGridLayout::make(figure_, rect().adjusted(kMargin, kMargin, -kMargin, -kMargin), heatmapFont(12));
}

void HeadGridCanvas::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    relayout();
}

void HeadGridCanvas::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const QColor base = palette().color(QPalette::Base);
    HeadGridColors colors;
    colors.text = palette().color(QPalette::Text);
    colors.empty = base.lightness() > 128 ? base.darker(110) : base.lighter(160);
    colors.selected = palette().color(QPalette::Highlight);
    paintHeadGrid(p, figure_, layout_, heatmapFont(12), colors);
}

void HeadGridCanvas::mouseReleaseEvent(QMouseEvent* event) {
    const QPoint at = layout_.hit(event->position());
    if (event->button() == Qt::LeftButton && at.x() >= 0) emit thumbnailClicked(at.x(), at.y());
}

void HeadGridCanvas::mouseMoveEvent(QMouseEvent* event) {
    const QPoint at = layout_.hit(event->position());
    setCursor(at.x() >= 0 ? Qt::PointingHandCursor : Qt::ArrowCursor);
    if (at.x() >= 0)
        setToolTip(tr("%1 · %2: click to show it in the heatmap")
                       .arg(figure_.row_labels.value(at.x()), figure_.col_labels.value(at.y())));
    else
        setToolTip(QString());
}

void HeadGridCanvas::contextMenuEvent(QContextMenuEvent* event) {
    const QPoint at = layout_.hit(event->pos());
    if (at.x() >= 0) emit thumbnailMenuRequested(at.x(), at.y(), event->globalPos());
}

// ---- the view

HeadGridView::HeadGridView(QWidget* parent) : QWidget(parent) {
    kind_ = new QComboBox(this);
    for (AttentionKind k : {AttentionKind::Cross, AttentionKind::EncoderSelf, AttentionKind::DecoderSelf})
        kind_->addItem(QString(), int(k));
    average_ = new QCheckBox(this);
    default_ = new QPushButton(this);
    export_ = new QPushButton(this);
    message_ = new QLabel(this);
    message_->setWordWrap(true);
    message_->setTextFormat(Qt::PlainText);  // "<sos>" is a token, not a tag
    title_ = new QLabel(this);
    title_->setTextFormat(Qt::PlainText);
    main_ = new QPushButton(this);
    canvas_ = new HeadGridCanvas(this);

    auto* which = new QHBoxLayout;
    which->addWidget(title_, 1);
    which->addWidget(main_);
    auto* controls = new QHBoxLayout;
    controls->addWidget(kind_);
    controls->addWidget(average_);
    controls->addStretch(1);
    controls->addWidget(default_);
    controls->addWidget(export_);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(which);
    layout->addLayout(controls);
    layout->addWidget(message_);
    layout->addWidget(canvas_, 1);

    connect(kind_, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
    connect(average_, &QCheckBox::toggled, this, [this] { refresh(); });
    connect(canvas_, &HeadGridCanvas::thumbnailClicked, this, &HeadGridView::showThumbnail);
    connect(canvas_, &HeadGridCanvas::thumbnailMenuRequested, this, &HeadGridView::showHeadMenu);
    connect(default_, &QPushButton::clicked, this, [this] {
        if (state_) state_->setAttentionView(AttentionView{});
    });
    connect(export_, &QPushButton::clicked, this, &HeadGridView::exportInteractively);
    connect(main_, &QPushButton::clicked, this, [this] {
        if (state_) state_->showMainDecode();
    });
    colormap_ = defaultColormap();
    retranslateUi();
    refresh();
}

void HeadGridView::retranslateUi() {
    kind_->setItemText(0, tr("Cross-attention"));
    kind_->setItemText(1, tr("Encoder self-attention"));
    kind_->setItemText(2, tr("Decoder self-attention"));
    kind_->setToolTip(tr("Which attention the grid shows: every layer (rows) and head (columns)"));
    average_->setText(tr("&Average over heads"));
    average_->setToolTip(tr("One thumbnail per layer: the mean of its heads (a click shows that mean)"));
    default_->setText(tr("&Default view"));
    default_->setToolTip(
        tr("Show the model's attention again in the heatmap: the last layer's cross-attention, "
           "averaged over its heads"));
    export_->setText(tr("E&xport…"));
    export_->setToolTip(tr("Save the grid as one image (PNG, SVG, PDF)"));
    main_->setText(tr("&Back to the main decode"));
    main_->setToolTip(tr("Show the window's own decode again instead of the beam hypothesis"));
    refresh();
}

void HeadGridView::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) retranslateUi();
}

void HeadGridView::setDecodeState(DecodeState* state) {
    state_ = state;
    const auto update = [this] { refresh(); };
    connect(state_, &DecodeState::decodeChanged, this, update);
    connect(state_, &DecodeState::cursorChanged, this, update);
    connect(state_, &DecodeState::attentionViewChanged, this, update);
    connect(state_, &DecodeState::wordsChanged, this, update);
    refresh();
}

void HeadGridView::setColormap(const QString& name) {
    if (name == colormap_) return;
    colormap_ = name;
    refresh();
}

AttentionKind HeadGridView::kind() const { return AttentionKind(kind_->currentData().toInt()); }

void HeadGridView::setKind(AttentionKind kind) { kind_->setCurrentIndex(kind_->findData(int(kind))); }

bool HeadGridView::averaged() const { return average_->isChecked(); }

void HeadGridView::setAveraged(bool on) { average_->setChecked(on); }

bool HeadGridView::hasHeads() const {
    return state_ && state_->decode() && attentionHeads(state_->decode()->result, AttentionKind::Cross) > 0;
}

QString HeadGridView::messageText() const { return message_->text(); }

QString HeadGridView::decodeTitle() const {
    if (!state_ || !state_->decode()) return {};
    const std::optional<BeamHypothesisInfo>& h = state_->hypothesis();
    if (!h) return tr("The window's decode. A hypothesis chosen in the beam search view shows here.");
    // U+2212: the minus sign of "log p −4.21", not a hyphen
    const QString log_p = QString::number(h->total_log_prob, 'f', 2).replace(u'-', QChar(0x2212));
    if (h->rank < 0) return tr("Beam search: unfinished hypothesis of %n token(s), log p %1", "", h->tokens).arg(log_p);
    return tr("Beam hypothesis %1 of %2, log p %3").arg(h->rank + 1).arg(h->finished).arg(log_p);
}

void HeadGridView::refresh() {
    const bool heads = hasHeads();
    for (QWidget* w : {static_cast<QWidget*>(kind_), static_cast<QWidget*>(average_), static_cast<QWidget*>(default_),
                       static_cast<QWidget*>(export_)})
        w->setEnabled(heads);
    canvas_->setEnabled(heads);
    title_->setText(decodeTitle());
    title_->setVisible(heads);
    main_->setVisible(heads && state_->hypothesis());
    if (!state_ || !state_->decode())
        message_->setText(tr("Type a sentence to see the attention heads."));
    else if (!heads)
        message_->setText(
            tr("This model has no attention heads and no self-attention: it is a recurrent "
               "encoder-decoder (RNN) with one attention, the one the heatmap shows. The head grid "
               "is for Transformer models."));
    else
        message_->setText(tr("Click a thumbnail to show it in the heatmap. %1").arg(attentionViewAxesText(kind())));
    canvas_->setFigure(heads ? makeFigure() : HeadGridFigure{});
    default_->setEnabled(heads && !state_->attentionView().isDefault());
}

HeadGridFigure HeadGridView::makeFigure() const {
    const DecodeResult& r = *state_->shownResult();  // in words when the window shows words (state/word_view.h)
    HeadGridFigure f;
    const AttentionKind k = kind();
    const int layers = attentionLayers(r, k), heads = attentionHeads(r, k);
    for (int l = 0; l < layers; ++l) {
        f.row_labels << tr("layer %1").arg(l + 1);
        f.cells.emplace_back();
        if (averaged())
            f.cells.back().push_back(attentionViewRows(r, {k, l, -1}));
        else
            for (int h = 0; h < heads; ++h) f.cells.back().push_back(attentionViewRows(r, {k, l, h}));
    }
    if (averaged())
        f.col_labels << tr("mean of %n head(s)", "", heads);
    else
        for (int h = 0; h < heads; ++h) f.col_labels << tr("head %1").arg(h + 1);
    const bool stepping = stepsWithDecoder(k) && state_->cursor() < state_->stepCount();
    f.visible_rows = !stepping              ? -1
                     : state_->wordsShown() ? wordsStarted(state_->decode()->result.target_words, state_->cursor())
                                            : state_->cursor();
    f.causal = k == AttentionKind::DecoderSelf;
    f.colormap = colormap_;
    if (!averaged())
        for (const HeadRef& off : state_->decode()->interventions.heads_off)
            if (off.kind == k) f.removed.push_back(QPoint(off.layer, off.head));
    const AttentionView& shown = state_->attentionView();
    if (!shown.isDefault() && shown.kind == k && (shown.head < 0) == averaged()) {
        f.selected_layer = shown.layer;
        f.selected_head = averaged() ? 0 : shown.head;
    }
    return f;
}

void HeadGridView::showHeadMenu(int layer, int head, const QPoint& globalPos) {
    if (!edits_ || !hasHeads() || averaged()) return;
    const InterventionItem item = InterventionItem::headOff({kind(), layer, head});
    const int i = indexOf(state_->interventions(), item);
    const bool removed = i >= 0 && state_->interventions()[size_t(i)].enabled;
    QMenu menu(this);
    QAction* remove = menu.addAction(removed ? tr("&Restore this head") : tr("&Remove this head"));
    remove->setObjectName(QStringLiteral("removeHead"));
    remove->setStatusTip(removed ? tr("The head's output counts again")
                                 : tr("Decode again with this head's output set to zero"));
    connect(remove, &QAction::triggered, this, [this, item, removed] {
        if (removed)
            edits_->removeSame(item);
        else
            edits_->add(item);
    });
    QAction* show = menu.addAction(tr("&Show in the heatmap"));
    show->setObjectName(QStringLiteral("showHead"));
    connect(show, &QAction::triggered, this, [this, layer, head] { showThumbnail(layer, head); });
    menu.exec(globalPos);
}

void HeadGridView::showThumbnail(int layer, int head) {
    if (state_) state_->setAttentionView({kind(), layer, averaged() ? -1 : head});
}

bool HeadGridView::exportTo(const QString& path, const ExportOptions& options, QString* error) const {
    auto fail = [&](const QString& what) {
        if (error) *error = QStringLiteral("%1: %2").arg(path, what);
        return false;
    };
    HeadGridFigure f = canvas_->figure();
    if (f.isEmpty() || f.cells[0][0].empty()) return fail(QStringLiteral("nothing to export (no head grid is shown)"));
    const QString format = exportFormatFor(path, options);
    if (format != QLatin1String("png") && format != QLatin1String("svg") && format != QLatin1String("pdf"))
        return fail(QStringLiteral("the head grid is an image: png, svg or pdf"));
    const int heads = attentionHeads(state_->decode()->result, kind());
    f.title = options.style.title;
    if (f.title.isEmpty()) {
        f.title = kind_->currentText() + QStringLiteral(" · ") + tr("%n head(s)", "", heads);
        if (state_->hypothesis()) f.title += QStringLiteral(" · ") + decodeTitle();
    }
    f.selected_layer = f.selected_head = -1;  // a figure, not the window's choice
    const QFont font = heatmapFont(12);
    const QSize logical = exportLogicalSize(f, font);
    ExportFigure figure;
    figure.title = f.title;
    figure.description =
        QStringLiteral("attention head grid: %1 layers x %2 thumbnails").arg(f.layers()).arg(f.heads());
    figure.paint = [&](QPaintDevice* device, const QSize& pixels, double, bool) {
        QPainter p(device);
        p.setRenderHint(QPainter::TextAntialiasing);
        p.scale(pixels.width() / double(logical.width()), pixels.height() / double(logical.height()));
        const QRect all(QPoint(0, 0), logical);
        p.fillRect(all, figure.paper);
        const HeadGridLayout layout = HeadGridLayout::make(f, all.adjusted(kMargin, kMargin, -kMargin, -kMargin), font);
        paintHeadGrid(p, f, layout, font, HeadGridColors{});
    };
    ExportOptions o = options;
    o.format = format;
    const QSize pixels = exportPixels(logical, options.dpi);
    o.width = pixels.width();
    o.height = pixels.height();
    return exportFigure(figure, path, o, error, [](const QString&) { return std::string(); });
}

void HeadGridView::exportInteractively() {
    if (!hasHeads()) return;
    const QString path = askExportPath(this, tr("Export the head grid"),
                                       tr("PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf)"),
                                       QStringLiteral("head-grid.png"), last_export_);
    if (path.isEmpty()) return;
    QString error;
    if (exportTo(path, ExportOptions{}, &error))
        message_->setText(tr("Saved %1").arg(QDir::toNativeSeparators(path)));
    else
        message_->setText(tr("The grid was not saved. %1").arg(error));
}

}  // namespace attnviz::ui
