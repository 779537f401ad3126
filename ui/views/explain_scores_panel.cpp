#include "views/explain_scores_panel.h"
#include "base/errors.h"

#include "heatmap/explanation_data.h"
#include "heatmap/utf8_text.h"
#include "state/decode_state.h"
#include "state/latest_wins.h"
#include "views/gold_links_panel.h"

#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace attnviz::ui {

namespace {

enum Column { kAer, kPrecision, kRecall, kAopc, kSpearman, kColumns };

struct Outcome {
    std::optional<LineMeasures> measures;
    QString error;
};

QString number(double v) { return std::isnan(v) ? QStringLiteral("—") : QString::number(v, 'f', 3); }

QTableWidgetItem* cell(const QString& text) {
    auto* item = new QTableWidgetItem(text);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    return item;
}

}  // namespace

ExplainScoresPanel::ExplainScoresPanel(DecodeState* state, GoldLinksPanel* gold, QWidget* parent)
    : QWidget(parent), state_(state), gold_(gold), runner_(new LatestWins(this)) {
    status_ = new QLabel(this);
    status_->setWordWrap(true);
    table_ = new QTableWidget(0, kColumns, this);
    table_->setObjectName(QStringLiteral("ExplainScoresTable"));
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(status_);
    layout->addWidget(table_, 1);
    retranslateUi();
    connect(state_, &DecodeState::decodeChanged, this, &ExplainScoresPanel::request);
    if (gold_) connect(gold_, &GoldLinksPanel::marksChanged, this, &ExplainScoresPanel::request);
}

void ExplainScoresPanel::retranslateUi() {
    // Short headers: the panel shares the narrow right dock area; the tooltips say what each column is.
    table_->setHorizontalHeaderLabels({tr("AER"), tr("P"), tr("R"), tr("AOPC"), tr("ρ occ.")});
    table_->horizontalHeaderItem(kAer)->setToolTip(
        tr("Alignment error rate of the links the method gives, against the gold links (lower is better)"));
    table_->horizontalHeaderItem(kPrecision)->setToolTip(tr("Precision of the method's links against the gold links"));
    table_->horizontalHeaderItem(kRecall)->setToolTip(tr("Recall of the method's links against the gold links"));
    table_->horizontalHeaderItem(kAopc)->setToolTip(
        tr("Comprehensiveness: the mean fall of log p of each row's token when the method's first 1–5 words are "
           "replaced by <unk> (higher: the method found what the model used; compare with the random order)"));
    table_->horizontalHeaderItem(kSpearman)->setToolTip(
        tr("Mean Spearman rank correlation of each row with occlusion's (1: the same order of words)"));
    fill();
}

void ExplainScoresPanel::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) retranslateUi();
}

void ExplainScoresPanel::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    request();
}

bool ExplainScoresPanel::isBusy() const { return runner_->isBusy(); }
void ExplainScoresPanel::waitForDone() { runner_->waitForDone(); }

void ExplainScoresPanel::request() {
    measures_.reset();
    error_.clear();
    const PrefixDecoding* decode = state_ ? state_->decode() : nullptr;
    if (!isVisible() || !decode || decode->result.target_ids.empty()) {
        runner_->cancelAll();
        fill();
        return;
    }
    std::shared_ptr<const Model> model = state_->decodedModel();
    std::shared_ptr<const PrefixDecoding> shared = state_->decodeShared();
    std::optional<GoldAlignment> gold;
    AlignOptions align;
    if (gold_ && gold_->gold() && gold_->counts()) {  // links typed, and the decode is on the reference
        gold = gold_->gold();
        align = gold_->alignOptions();
    }
    with_gold_ = gold.has_value();
    methods_ = methodsFor(model->config);
    const std::vector<ExplainMethod> methods = methods_;
    runner_->submit(
        [model, shared, gold, align, methods] {
            Outcome o;
            try {
                o.measures = measureLine(*model, shared->result, gold ? &*gold : nullptr, methods, align, kRandomSeed);
            } catch (const std::exception& e) {
                o.error = qs(errorMessage(e));
            }
            return o;
        },
        [this](Outcome o) {
            measures_ = std::move(o.measures);
            error_ = o.error;
            fill();
            emit measured();
        });
    fill();
}

QString ExplainScoresPanel::statusText() const { return status_->text(); }

void ExplainScoresPanel::fill() {
    fillRows();
    // The table never shorter than its rows: where the dock has less height, the panel scrolls (window/dock_scroller)
    // and the window's right column gives it what the other docks can spare, rather than the table showing half a row.
    table_->resizeRowsToContents();
    const int header = table_->horizontalHeader()->sizeHint().height();
    const int bar = table_->horizontalScrollBar()->sizeHint().height();  // a narrow dock scrolls the columns
    table_->setMinimumHeight(header + table_->verticalHeader()->length() + bar + 2 * table_->frameWidth());
}

void ExplainScoresPanel::fillRows() {
    table_->setRowCount(0);
    if (!error_.isEmpty()) {
        status_->setText(tr("Could not measure: %1").arg(error_));
        return;
    }
    if (!measures_) {
        status_->setText(runner_->isBusy() ? tr("Measuring every method on this sentence…")
                                           : tr("Type a sentence to measure which explanation is right."));
        return;
    }
    status_->setText(with_gold_ ? tr("This sentence, forced along its reference, against the gold links.")
                                : tr("This sentence's decode. Type a reference and its gold links to get AER."));
    const int n = int(methods_.size());
    table_->setRowCount(n + 1);
    QStringList rows;
    for (int i = 0; i < n; ++i) {
        const ExplainMeasures& m = measures_->methods[size_t(i)];
        rows << explainMethodShortTitle(methods_[size_t(i)]);
        table_->setItem(i, kAer, cell(with_gold_ ? number(m.aer.aer()) : QStringLiteral("—")));
        table_->setItem(i, kPrecision, cell(with_gold_ ? number(m.aer.precision()) : QStringLiteral("—")));
        table_->setItem(i, kRecall, cell(with_gold_ ? number(m.aer.recall()) : QStringLiteral("—")));
        table_->setItem(i, kAopc, cell(number(m.aopc.mean())));
        table_->setItem(i, kSpearman, cell(number(m.occlusion_spearman.mean())));
    }
    rows << tr("random");
    for (int c = 0; c < kColumns; ++c) table_->setItem(n, c, cell(QStringLiteral("—")));
    table_->setItem(n, kAopc, cell(number(measures_->random.aopc.mean())));
    table_->setVerticalHeaderLabels(rows);
    for (int i = 0; i < n; ++i)
        table_->verticalHeaderItem(i)->setToolTip(explainMethodTitle(methods_[size_t(i)]) + QStringLiteral(": ") +
                                                  explainMethodHint(methods_[size_t(i)]));
    table_->verticalHeaderItem(n)->setToolTip(tr("The words in a seeded random order: the floor AOPC is read against"));
}

}  // namespace attnviz::ui
