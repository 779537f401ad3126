#include "views/head_importance_panel.h"
#include "base/errors.h"
#include "model/model_kind.h"

#include "heatmap/attention_view_data.h"
#include "heatmap/utf8_text.h"
#include "state/decode_state.h"
#include "views/head_importance_chart.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <algorithm>

namespace attnviz::ui {

namespace {

constexpr int kHeadIndexRole = Qt::UserRole + 1;  // on a row's layer item: the head's index in the report

// A cell that sorts by its number (Qt::UserRole), not by its text.
class NumberItem : public QTableWidgetItem {
public:
    NumberItem(const QString& text, double value) : QTableWidgetItem(text) {
        setData(Qt::UserRole, value);
        setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    }
    bool operator<(const QTableWidgetItem& other) const override {
        return data(Qt::UserRole).toDouble() < other.data(Qt::UserRole).toDouble();
    }
};

// "+0.42", "−1.30" (U+2212, the minus sign): a change reads as one.
QString signedNumber(double v, int decimals) {
    const QString text = QString::number(std::abs(v), 'f', decimals);
    if (text == QString::number(0.0, 'f', decimals)) return text;
    return (v < 0 ? QString(QChar(0x2212)) : QStringLiteral("+")) + text;
}

}  // namespace

HeadImportancePanel::HeadImportancePanel(DecodeState* state, QWidget* parent) : QWidget(parent), state_(state) {
    createWidgets();
    connect(&watcher_, &QFutureWatcher<Outcome>::finished, this, &HeadImportancePanel::arrived);
    connect(state_, &DecodeState::modelChanged, this, &HeadImportancePanel::modelChanged);
    retranslateUi();
}

HeadImportancePanel::~HeadImportancePanel() {
    if (job_) job_->cancel = true;
    watcher_.waitForFinished();  // stops after the job running: one decode
}

void HeadImportancePanel::createWidgets() {
    status_ = new QLabel(this);
    status_->setWordWrap(true);
    status_->setTextFormat(Qt::PlainText);  // corpus names are file names, not markup
    lines_label_ = new QLabel(this);
    lines_ = new QSpinBox(this);
    lines_->setRange(1, 1);
    lines_label_->setBuddy(lines_);
    compute_ = new QPushButton(this);
    compute_->setObjectName(QStringLiteral("HeadImportanceCompute"));
    connect(compute_, &QPushButton::clicked, this, [this] { compute(); });
    cancel_ = new QPushButton(this);
    connect(cancel_, &QPushButton::clicked, this, &HeadImportancePanel::cancel);
    progress_ = new QProgressBar(this);
    progress_timer_ = new QTimer(this);
    progress_timer_->setInterval(100);
    connect(progress_timer_, &QTimer::timeout, this, &HeadImportancePanel::updateProgress);

    chart_ = new HeadImportanceChart(this);
    connect(chart_, &HeadImportanceChart::barClicked, this, [this](int i) {
        if (i >= 0 && i < int(sorted_.size())) {
            selectHead(sorted_[size_t(i)].head);
            emit headActivated(sorted_[size_t(i)].head);
        }
    });
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(chart_);
    scroll->setWidgetResizable(true);  // the chart's width follows the dock; its height is a row per head
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setMinimumWidth(240);  // the labels and bars of a head readable

    table_ = new QTableWidget(0, kColumns, this);
    table_->setObjectName(QStringLiteral("HeadImportanceTable"));
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->verticalHeader()->setVisible(false);
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    connect(table_->horizontalHeader(), &QHeaderView::sectionResized, this, [this] { arrange(); });  // new contents
    connect(table_, &QTableWidget::cellClicked, this, [this](int row, int) { activateRow(row); });
    connect(table_, &QTableWidget::currentCellChanged, this, [this](int row, int, int previous, int) {
        if (row != previous) activateRow(row);  // the arrow keys walk the heads too
    });

    auto* controls = new QHBoxLayout;
    controls->addWidget(lines_label_);
    controls->addWidget(lines_);
    controls->addStretch(1);
    controls->addWidget(compute_);
    controls->addWidget(cancel_);
    // the dock sits under the heatmap, wide and short: the bars (scrolling down the heads) beside the table, or
    // the table under them when the dock is too narrow for both (arrange())
    split_ = new QSplitter(Qt::Horizontal, this);
    split_->addWidget(scroll);
    split_->addWidget(table_);
    split_->setStretchFactor(0, 2);
    split_->setStretchFactor(1, 3);
    split_->setChildrenCollapsible(false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(status_);
    layout->addLayout(controls);
    layout->addWidget(progress_);
    layout->addWidget(split_, 1);
}

Qt::Orientation HeadImportancePanel::arrangement() const { return split_->orientation(); }

void HeadImportancePanel::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    arrange();
}

// Side by side when the panel's width holds the chart's minimum and every column of the table; else one above the
// other, each the panel's width.
void HeadImportancePanel::arrange() {
    const int table_width = table_->horizontalHeader()->length() + 2 * table_->frameWidth() +
                            table_->verticalScrollBar()->sizeHint().width();
    const int side_by_side = split_->widget(0)->minimumWidth() + split_->handleWidth() + table_width;
    const Qt::Orientation wanted = width() - 8 >= side_by_side ? Qt::Horizontal : Qt::Vertical;  // 8: margins
    if (split_->orientation() != wanted) split_->setOrientation(wanted);
}

void HeadImportancePanel::retranslateUi() {
    lines_label_->setText(tr("&Lines:"));
    lines_->setToolTip(
        tr("How many lines of the corpus (from its first) to compute on; each costs two decodes per "
           "head"));
    compute_->setText(tr("Compute"));
    compute_->setToolTip(tr("Remove each head in turn and decode the lines again (on every core, off the window)"));
    cancel_->setText(tr("Cancel"));
    cancel_->setToolTip(tr("Stop: nothing of a partial run is shown"));
    table_->setHorizontalHeaderLabels(
        {tr("Layer"), tr("Head"), tr("Attention"), tr("BLEU off"), tr("ΔBLEU"), tr("Δ log p"), tr("Gradient")});
    const QString counted = tr("Counted from 1, as in the head grid (attnviz-cli counts from 0).");
    table_->horizontalHeaderItem(kLayer)->setToolTip(counted);
    table_->horizontalHeaderItem(kHead)->setToolTip(counted);
    table_->horizontalHeaderItem(kKind)->setToolTip(tr("Which of the Transformer's three attentions the head is in"));
    table_->horizontalHeaderItem(kBleuOff)->setToolTip(
        tr("Corpus BLEU of the greedy translations with this head removed (its output set to zero)"));
    table_->horizontalHeaderItem(kBleuDelta)
        ->setToolTip(tr("BLEU with the head removed minus BLEU with every head (negative: the head was needed)"));
    table_->horizontalHeaderItem(kLogProbDelta)
        ->setToolTip(tr("Change of the mean log-probability per token of the references when the head is removed"));
    table_->horizontalHeaderItem(kImportance)
        ->setToolTip(
            tr("Gradient importance (Michel et al. 2019): the mean over lines of |∂L/∂g|, g a gate on the head's "
               "output, L the references' loss; large: the loss is sensitive to the head"));
    fill();
    updateControls();
}

void HeadImportancePanel::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) retranslateUi();
}

void HeadImportancePanel::setCorpusSource(std::function<HeadImportanceCorpus()> source) {
    source_ = std::move(source);
    refreshCorpus();
}

void HeadImportancePanel::refreshCorpus() {
    corpus_ = source_ ? source_() : HeadImportanceCorpus{};
    const int n = corpus_.examples ? int(corpus_.examples->size()) : 0;
    if (lines_->maximum() != std::max(1, n)) {
        const QSignalBlocker block(lines_);
        lines_->setRange(1, std::max(1, n));
        lines_->setValue(std::min(n, kDefaultLines));
    }
    updateControls();
}

void HeadImportancePanel::modelChanged() {
    if (job_) job_->cancel = true;  // its result belongs to the previous model: never shown
    job_.reset();
    progress_timer_->stop();
    report_.reset();
    sorted_.clear();
    error_.clear();
    cancelled_ = false;
    refreshCorpus();  // the sample test split is the new model's task's
    fill();
}

bool HeadImportancePanel::compute() {
    const std::shared_ptr<const Model> model = state_->model();
    if (!model || !kindOffers(model->config).attention_heads) return false;
    refreshCorpus();
    if (!corpus_.examples || corpus_.examples->empty()) return false;
    if (job_) job_->cancel = true;  // the watcher follows the new one: the old result is dropped
    const int lines = std::min(lines_->value(), int(corpus_.examples->size()));
    auto examples = std::make_shared<const std::vector<CorpusExample>>(corpus_.examples->begin(),
                                                                       corpus_.examples->begin() + lines);
    auto job = std::make_shared<Job>();
    job->model = model;
    job->corpus_name = corpus_.name;
    job->lines = lines;
    job->jobs = size_t(lines) * (allHeads(model->config.transformer).size() + 1);
    job->clock.start();
    job_ = job;
    report_.reset();
    sorted_.clear();
    error_.clear();
    cancelled_ = false;
    watcher_.setFuture(QtConcurrent::run([model, examples, job] {
        HeadImportanceOptions options;
        options.cancel = &job->cancel;
        options.progress = [job](size_t done, size_t) { job->done = done; };
        Outcome o;
        try {
            o.report = headImportanceReport(*model, *examples, options);
        } catch (const std::exception& e) {  // a line the model cannot decode (named), or out of memory
            o.error = qs(errorMessage(e));
        }
        return o;
    }));
    progress_->setRange(0, int(job->jobs.load()));
    progress_->setValue(0);
    progress_timer_->start();
    fill();
    updateControls();
    return true;
}

void HeadImportancePanel::cancel() {
    if (!job_) return;
    job_->cancel = true;
    job_.reset();  // what it still delivers is dropped
    cancelled_ = true;
    progress_timer_->stop();
    updateControls();
}

bool HeadImportancePanel::isComputing() const { return job_ != nullptr; }

void HeadImportancePanel::waitForDone() { watcher_.waitForFinished(); }

void HeadImportancePanel::arrived() {
    const std::shared_ptr<Job> job = job_;
    if (!job || job->cancel.load() || job->model != state_->model()) return;  // dropped: cancelled or stale
    job_.reset();
    progress_timer_->stop();
    Outcome o = watcher_.result();
    if (!o.error.isEmpty()) {
        error_ = o.error;
    } else if (o.report.complete) {
        report_ = std::move(o.report);
        sorted_ = headsByBleuLost(report_->heads);
        computed_on_ = tr("%1, first %n line(s)", "", job->lines).arg(job->corpus_name);
        seconds_ = double(job->clock.elapsed()) / 1000.0;
    }
    fill();
    updateControls();
    if (report_) emit computed();
}

void HeadImportancePanel::updateProgress() {
    if (!job_) return;
    progress_->setValue(int(job_->done.load()));
}

QString HeadImportancePanel::statusText() const { return status_->text(); }

void HeadImportancePanel::updateControls() {
    const std::shared_ptr<const Model> model = state_ ? state_->model() : nullptr;
    const bool transformer = model && kindOffers(model->config).attention_heads;
    const bool has_lines = corpus_.examples && !corpus_.examples->empty();
    const bool computing = isComputing();
    compute_->setEnabled(transformer && has_lines && !computing);
    lines_->setEnabled(transformer && has_lines && !computing);
    lines_label_->setEnabled(lines_->isEnabled());
    cancel_->setVisible(computing);
    progress_->setVisible(computing);
    chart_->setEnabled(transformer);
    table_->setEnabled(transformer);
    QString text;
    if (!model) {
        text = tr("Open a Transformer model to see which of its heads matter.");
    } else if (!transformer) {
        text =
            tr("This model is a recurrent encoder-decoder (RNN): it has one attention and no heads to remove. "
               "Head importance is for Transformer models.");
    } else if (computing) {
        text = tr("Removing each of the %n head(s) in turn on %1, first %2 line(s)…", "",
                  int(allHeads(model->config.transformer).size()))
                   .arg(job_->corpus_name)
                   .arg(job_->lines);
    } else if (!error_.isEmpty()) {
        text = tr("Could not compute: %1").arg(error_);
    } else if (report_) {
        text = tr("%1: BLEU %2 with every head, mean log p %3 per token. Sorted by the BLEU lost when each head "
                  "alone is removed (%4 s).")
                   .arg(computed_on_, QString::number(report_->bleu, 'f', 2),
                        QString::number(report_->mean_log_prob, 'f', 3), QString::number(seconds_, 'f', 1));
    } else if (!has_lines) {
        text = corpus_.error;
    } else {
        text = tr("%1: %n line(s) with a reference. Compute removes each head in turn and decodes them again.", "",
                  int(corpus_.examples->size()))
                   .arg(corpus_.name);
        if (cancelled_) text = tr("Cancelled: nothing of a partial run is shown.") + QLatin1Char(' ') + text;
    }
    status_->setText(text);
}

QString HeadImportancePanel::headLabel(const HeadRef& head) const {
    switch (head.kind) {
    case AttentionKind::EncoderSelf:
        return tr("enc L%1 H%2").arg(head.layer + 1).arg(head.head + 1);
    case AttentionKind::DecoderSelf:
        return tr("dec L%1 H%2").arg(head.layer + 1).arg(head.head + 1);
    case AttentionKind::Cross:
        break;
    }
    return tr("cross L%1 H%2").arg(head.layer + 1).arg(head.head + 1);
}

QString HeadImportancePanel::headTip(const HeadScore& h) const {
    return tr("%1, layer %2, head %3: BLEU %4 without it (%5), mean log p %6, gradient importance %7")
        .arg(attentionKindName(h.head.kind))
        .arg(h.head.layer + 1)
        .arg(h.head.head + 1)
        .arg(QString::number(h.bleu_off, 'f', 2), signedNumber(h.bleu_off - report_->bleu, 2),
             signedNumber(h.mean_log_prob_off - report_->mean_log_prob, 3), QString::number(h.importance, 'f', 3));
}

void HeadImportancePanel::fill() {
    const QSignalBlocker block(table_);
    table_->setSortingEnabled(false);
    table_->setRowCount(0);
    if (!report_) {
        chart_->setBars({}, {}, {});
        return;
    }
    QStringList labels, tips;
    std::vector<double> lost;
    table_->setRowCount(int(sorted_.size()));
    for (size_t r = 0; r < sorted_.size(); ++r) {
        const HeadScore& h = sorted_[r];
        const double d_bleu = h.bleu_off - report_->bleu, d_log_p = h.mean_log_prob_off - report_->mean_log_prob;
        const auto index = std::find_if(report_->heads.begin(), report_->heads.end(),
                                        [&](const HeadScore& o) { return o.head == h.head; }) -
                           report_->heads.begin();
        auto* layer = new NumberItem(QString::number(h.head.layer + 1), h.head.layer + 1);
        layer->setData(kHeadIndexRole, int(index));
        const int row = int(r);
        table_->setItem(row, kLayer, layer);
        table_->setItem(row, kHead, new NumberItem(QString::number(h.head.head + 1), h.head.head + 1));
        auto* kind = new QTableWidgetItem(attentionKindName(h.head.kind));
        kind->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
        table_->setItem(row, kKind, kind);
        table_->setItem(row, kBleuOff, new NumberItem(QString::number(h.bleu_off, 'f', 2), h.bleu_off));
        table_->setItem(row, kBleuDelta, new NumberItem(signedNumber(d_bleu, 2), d_bleu));
        table_->setItem(row, kLogProbDelta, new NumberItem(signedNumber(d_log_p, 3), d_log_p));
        table_->setItem(row, kImportance, new NumberItem(QString::number(h.importance, 'f', 3), h.importance));
        for (int c = 0; c < kColumns; ++c) table_->item(row, c)->setToolTip(headTip(h));
        labels << headLabel(h.head);
        lost.push_back(-d_bleu);
        tips << headTip(h);
    }
    // ΔBLEU ascending is the chart's order (a stable sort keeps headsByBleuLost's ties); a header click sorts by another
    table_->horizontalHeader()->setSortIndicator(kBleuDelta, Qt::AscendingOrder);
    table_->setSortingEnabled(true);
    chart_->setBars(labels, lost, tips);
}

std::optional<HeadRef> HeadImportancePanel::headAtRow(int row) const {
    const QTableWidgetItem* item = table_->item(row, kLayer);
    if (!report_ || !item) return std::nullopt;
    const int index = item->data(kHeadIndexRole).toInt();
    if (index < 0 || index >= int(report_->heads.size())) return std::nullopt;
    return report_->heads[size_t(index)].head;
}

void HeadImportancePanel::activateRow(int row) {
    const std::optional<HeadRef> head = headAtRow(row);
    if (!head) return;
    selectHead(*head);
    emit headActivated(*head);
}

void HeadImportancePanel::selectHead(const HeadRef& head) {
    for (size_t i = 0; i < sorted_.size(); ++i)
        if (sorted_[i].head == head) chart_->setSelected(int(i));
    const QSignalBlocker block(table_);
    for (int row = 0; row < table_->rowCount(); ++row)
        if (headAtRow(row) == head) table_->selectRow(row);
}

}  // namespace attnviz::ui
