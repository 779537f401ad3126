#include "views/corpus_browser.h"

#include "base/errors.h"
#include "heatmap/explanation_data.h"
#include "heatmap/utf8_text.h"
#include "io/atomic_file.h"
#include "io/input_file.h"
#include "state/decode_state.h"
#include "views/corpus_table_model.h"

#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace attnviz::ui {

namespace {

// The largest corpus file the browser reads: 200,000 lines of 300 bytes.
constexpr uint64_t kMaxCorpusBytes = uint64_t(64) << 20;

}  // namespace

CorpusBrowser::CorpusBrowser(DecodeState* state, QWidget* parent)
    : QWidget(parent), state_(state), model_(new CorpusTableModel(this)), proxy_(new QSortFilterProxyModel(this)) {
    proxy_->setSourceModel(model_);
    proxy_->setSortRole(CorpusTableModel::SortRole);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    proxy_->setFilterKeyColumn(-1);  // every column's text
    createWidgets();
    retranslateUi();
    connect(&watcher_, &QFutureWatcher<std::vector<LineScores>>::finished, this, &CorpusBrowser::scoresArrived);
    connect(&explain_watcher_, &QFutureWatcher<std::vector<LineExplainScores>>::finished, this,
            &CorpusBrowser::explanationsArrived);
    connect(state_, &DecodeState::modelChanged, this, &CorpusBrowser::modelChanged);
}

CorpusBrowser::~CorpusBrowser() {
    if (job_) job_->cancel = true;
    if (explain_job_) explain_job_->cancel = true;
    watcher_.waitForFinished();
    explain_watcher_.waitForFinished();
}

void CorpusBrowser::createWidgets() {
    open_button_ = new QPushButton(this);
    connect(open_button_, &QPushButton::clicked, this, &CorpusBrowser::chooseAndOpen);
    rescore_button_ = new QPushButton(this);
    connect(rescore_button_, &QPushButton::clicked, this, &CorpusBrowser::rescore);
    export_button_ = new QPushButton(this);
    connect(export_button_, &QPushButton::clicked, this, &CorpusBrowser::chooseAndExport);
    filter_ = new QLineEdit(this);
    filter_->setClearButtonEnabled(true);
    connect(filter_, &QLineEdit::textChanged, proxy_, &QSortFilterProxyModel::setFilterFixedString);
    progress_ = new QProgressBar(this);
    progress_->setVisible(false);
    cancel_button_ = new QPushButton(this);
    cancel_button_->setVisible(false);
    connect(cancel_button_, &QPushButton::clicked, this, &CorpusBrowser::cancelScoring);
    explain_box_ = new QComboBox(this);
    // Not as wide as its longest method's name: the dock must fit beside the right column of an 800 px window (the
    // list that opens shows the names whole).
    explain_box_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    explain_box_->setMinimumContentsLength(14);
    connect(explain_box_, &QComboBox::activated, this, [this](int i) {
        const int m = explain_box_->itemData(i).toInt();
        setExplainMethod(m < 0 ? std::nullopt : std::optional<ExplainMethod>(ExplainMethod(m)));
    });
    progress_timer_ = new QTimer(this);
    progress_timer_->setInterval(100);
    connect(progress_timer_, &QTimer::timeout, this, &CorpusBrowser::updateProgress);
    notice_ = new QLabel(this);
    notice_->setWordWrap(true);
    notice_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    table_ = new QTableView(this);
    table_->setModel(proxy_);
    table_->setSortingEnabled(true);
    table_->sortByColumn(CorpusTableModel::Line, Qt::AscendingOrder);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setWordWrap(false);
    table_->setAlternatingRowColors(true);
    table_->verticalHeader()->hide();
    table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().lineSpacing() + 8);  // CJK fallback glyphs
    table_->setMinimumHeight(7 * table_->verticalHeader()->defaultSectionSize());              // several lines, not two
    // Text columns wide enough for a short sentence, number columns for their header (a tooltip tells the rest).
    const QFontMetrics fm = table_->fontMetrics();
    table_->setColumnWidth(CorpusTableModel::Line, fm.horizontalAdvance(QStringLiteral("000000")) + 24);
    table_->setColumnWidth(CorpusTableModel::Source, 28 * fm.averageCharWidth());
    table_->setColumnWidth(CorpusTableModel::Reference, 22 * fm.averageCharWidth());
    table_->setColumnWidth(CorpusTableModel::Output, 22 * fm.averageCharWidth());
    for (int c = CorpusTableModel::LogProb; c < CorpusTableModel::ColumnCount; ++c)
        table_->setColumnWidth(c, std::max(fm.horizontalAdvance(QStringLiteral("-000.000")),
                                           fm.horizontalAdvance(model_->headerData(c, Qt::Horizontal).toString())) +
                                      28);
    table_->horizontalHeader()->setSectionResizeMode(CorpusTableModel::Source, QHeaderView::Stretch);
    table_->setColumnHidden(CorpusTableModel::MethodAer, true);  // until an explanation method is chosen
    table_->setColumnHidden(CorpusTableModel::MethodAopc, true);
    connect(table_, &QTableView::clicked, this, &CorpusBrowser::activateRow);
    connect(table_, &QTableView::activated, this, &CorpusBrowser::activateRow);

    auto* bar = new QHBoxLayout;
    for (QWidget* w : {static_cast<QWidget*>(open_button_), static_cast<QWidget*>(rescore_button_),
                       static_cast<QWidget*>(export_button_), static_cast<QWidget*>(explain_box_)})
        bar->addWidget(w);
    bar->addWidget(filter_, 1);
    // The progress beside the notice, not in the buttons' row: shown there while scoring, they made the dock wider
    // than an 800 px window leaves it, and the window grew and stayed grown.
    auto* status = new QHBoxLayout;
    status->addWidget(notice_, 1);
    status->addWidget(progress_);
    status->addWidget(cancel_button_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addLayout(status);
    layout->addWidget(table_, 1);
}

void CorpusBrowser::retranslateUi() {
    open_button_->setText(tr("Open corpus…"));
    open_button_->setToolTip(tr("Open a TSV file: source<TAB>reference[<TAB>gold links as i-j]"));
    rescore_button_->setText(tr("Rescore"));
    rescore_button_->setToolTip(tr("Score every line again with the open model"));
    export_button_->setText(tr("Export CSV…"));
    export_button_->setToolTip(tr("Save the table as shown (filter and order) as CSV"));
    filter_->setPlaceholderText(tr("Filter lines (any column's text)"));
    cancel_button_->setText(tr("Cancel"));
    cancel_button_->setToolTip(tr("Stop scoring; the lines scored so far stay"));
    explain_box_->setToolTip(tr("Add an explanation method's AER and AOPC on each line's reference as columns"));
    fillExplainBox();
    updateNotice();
}

void CorpusBrowser::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QWidget::changeEvent(event);
}

Corpus CorpusBrowser::readCorpusFile(const QString& path, const Model& model, QString* error) {
    const std::string file = QDir::toNativeSeparators(path).toStdString();
    Corpus corpus;
    try {
        const std::string text = readRegularFile(file, kMaxCorpusBytes);
        if (std::count(text.begin(), text.end(), '\n') > kMaxLines)
            throw InputError(file + ": more than " + std::to_string(kMaxLines) +
                             " lines; the browser opens smaller files (attnviz-cli eval reads any size)");
        CorpusOptions options;
        options.tokenizer = model.config.tokenizer;  // gold links are checked against the model's words
        options.skip_bad_lines = true;
        corpus = parseCorpus(text, inputName(file), options);
    } catch (const std::exception& e) {
        *error = tr("Cannot open the corpus: %1").arg(qs(errorMessage(e)));
        return {};
    }
    if (corpus.examples.empty())
        *error = corpus.skipped_count > 0
                     ? tr("No line of %1 can be read (%n bad line(s); the first: %2)", "", int(corpus.skipped_count))
                           .arg(QDir::toNativeSeparators(path), qs(corpus.skipped.front().message))
                     : tr("%1 holds no lines (the file is empty or blank).").arg(QDir::toNativeSeparators(path));
    return corpus;
}

bool CorpusBrowser::openCorpus(const QString& path) {
    error_.clear();
    const std::shared_ptr<const Model> model = state_->model();
    if (!model) {
        error_ = tr("Open a model first: the corpus is read with the model's tokenizer.");
        return false;
    }
    Corpus corpus = readCorpusFile(path, *model, &error_);
    if (corpus.examples.empty()) return false;
    cancelScoring();
    path_ = QFileInfo(path).absoluteFilePath();
    skipped_count_ = corpus.skipped_count;
    first_skipped_ = corpus.skipped.empty() ? QString() : qs(corpus.skipped.front().message);
    model_->setCorpus(std::move(corpus.examples));
    rescore();
    return true;
}

void CorpusBrowser::chooseAndOpen() {
    const QString dir = !path_.isEmpty()           ? QFileInfo(path_).path()
                        : !start_folder_.isEmpty() ? start_folder_
                                                   : QDir::homePath();
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open corpus"), dir, tr("Corpus files (*.tsv *.txt);;All files (*)"));
    if (!path.isEmpty() && !openCorpus(path)) report(error_);
}

void CorpusBrowser::rescore() {
    const std::shared_ptr<const Model> model = state_->model();
    if (!model || model_->examples().empty()) return;
    if (job_) job_->cancel = true;  // its result will not be delivered: the watcher follows the new one
    job_ = std::make_shared<Job>();
    job_->clock.start();
    cancelled_ = false;
    auto examples = std::make_shared<const std::vector<CorpusExample>>(model_->examples());
    std::shared_ptr<Job> job = job_;
    watcher_.setFuture(QtConcurrent::run(
        [model, examples, job] { return scoreCorpus(*model, *examples, {}, &job->done, &job->cancel); }));
    startExplaining();
    progress_->setRange(0, int(examples->size()));
    progress_->setValue(0);
    progress_->setVisible(true);
    cancel_button_->setVisible(true);
    progress_timer_->start();
    updateNotice();
}

void CorpusBrowser::cancelScoring() {
    if (explain_job_) explain_job_->cancel = true;
    if (!isScoring()) return;
    job_->cancel = true;
    cancelled_ = true;
    updateNotice();
}

bool CorpusBrowser::isScoring() const { return job_ && watcher_.isRunning(); }

void CorpusBrowser::updateProgress() {
    if (job_) progress_->setValue(int(job_->done.load()));
    if (isExplaining()) updateNotice();
}

void CorpusBrowser::scoresArrived() {
    if (!isExplaining()) progress_timer_->stop();
    progress_->setVisible(false);
    cancel_button_->setVisible(false);
    if (!job_) return;
    seconds_ = double(job_->clock.elapsed()) / 1000.0;
    const bool complete = !job_->cancel.load();
    try {
        model_->setScores(watcher_.result());
    } catch (const std::exception& e) {  // out of memory, or an engine error no line should raise
        report(tr("Scoring the corpus failed: %1").arg(qs(errorMessage(e))));
    }
    updateNotice();
    if (complete) emit scoringFinished();
}

void CorpusBrowser::modelChanged() {
    fillExplainBox();
    if (model_->examples().empty()) return;
    model_->setStale(true);
    rescore();
}

// "No explanation columns", then the methods the open model has; the chosen one stays chosen if the model has it.
void CorpusBrowser::fillExplainBox() {
    const std::shared_ptr<const Model> model = state_->model();
    std::vector<ExplainMethod> methods = model ? methodsFor(model->config) : std::vector<ExplainMethod>{};
    if (explain_method_ && std::find(methods.begin(), methods.end(), *explain_method_) == methods.end())
        setExplainMethod(std::nullopt);
    const QSignalBlocker block(explain_box_);
    explain_box_->clear();
    explain_box_->addItem(tr("No explanation columns"), -1);
    for (ExplainMethod m : methods) explain_box_->addItem(tr("Explain: %1").arg(explainMethodTitle(m)), int(m));
    explain_box_->setCurrentIndex(std::max(0, explain_box_->findData(explain_method_ ? int(*explain_method_) : -1)));
}

void CorpusBrowser::setExplainMethod(std::optional<ExplainMethod> method) {
    explain_method_ = method;
    model_->setExplainScores(method, {});
    table_->setColumnHidden(CorpusTableModel::MethodAer, !method);
    table_->setColumnHidden(CorpusTableModel::MethodAopc, !method);
    const int i = explain_box_->findData(method ? int(*method) : -1);
    if (i >= 0 && i != explain_box_->currentIndex()) explain_box_->setCurrentIndex(i);
    startExplaining();
}

bool CorpusBrowser::isExplaining() const { return explain_job_ && explain_watcher_.isRunning(); }

void CorpusBrowser::startExplaining() {
    if (explain_job_) explain_job_->cancel = true;  // its result will not be delivered
    explain_job_.reset();
    const std::shared_ptr<const Model> model = state_->model();
    if (!explain_method_ || !model || model_->examples().empty()) {
        updateNotice();
        return;
    }
    explain_job_ = std::make_shared<Job>();
    explain_job_->clock.start();
    auto examples = std::make_shared<const std::vector<CorpusExample>>(model_->examples());
    std::shared_ptr<Job> job = explain_job_;
    const ExplainMethod method = *explain_method_;
    explain_watcher_.setFuture(QtConcurrent::run([model, examples, job, method] {
        return explainCorpus(*model, *examples, method, AlignOptions{}, &job->done, &job->cancel);
    }));
    progress_timer_->start();
    updateNotice();
}

void CorpusBrowser::explanationsArrived() {
    if (!explain_job_) return;  // the method was taken away meanwhile
    const bool complete = !explain_job_->cancel.load();
    if (complete) {
        try {
            model_->setExplainScores(explain_method_, explain_watcher_.result());
        } catch (const std::exception& e) {
            report(tr("Explaining the corpus failed: %1").arg(qs(errorMessage(e))));
        }
    }
    if (!isScoring()) progress_timer_->stop();
    updateNotice();
    if (complete) emit explainFinished();
}

void CorpusBrowser::activateRow(const QModelIndex& proxy_index) {
    if (!proxy_index.isValid()) return;
    const int row = proxy_->mapToSource(proxy_index).row();
    if (row < 0 || row >= int(model_->examples().size())) return;
    const CorpusExample& ex = model_->examples()[size_t(row)];
    emit lineActivated(qs(ex.source), qs(ex.target), ex.has_alignment ? qs(pharaohText(ex.alignment)) : QString());
}

void CorpusBrowser::openRow(int row) {
    const QModelIndex index = proxy_->index(row, 0);
    if (!index.isValid()) return;
    table_->setCurrentIndex(index);
    activateRow(index);
}

bool CorpusBrowser::exportCsv(const QString& path) {
    error_.clear();
    if (model_->examples().empty()) {
        error_ = tr("There is no corpus to export: open one first.");
        return false;
    }
    std::vector<CorpusExample> examples;
    std::vector<LineScores> scores;
    for (int r = 0; r < proxy_->rowCount(); ++r) {  // the rows as shown: filtered, in the view's order
        const size_t row = size_t(proxy_->mapToSource(proxy_->index(r, 0)).row());
        examples.push_back(model_->examples()[row]);
        scores.push_back(model_->scores()[row]);
    }
    try {
        writeFileAtomically(QDir::toNativeSeparators(path).toStdString(), corpusScoresToCsv(examples, scores));
    } catch (const std::exception& e) {
        error_ = tr("Cannot export the table: %1").arg(qs(errorMessage(e)));
        return false;
    }
    return true;
}

void CorpusBrowser::chooseAndExport() {
    const QFileInfo corpus(path_);
    const QString suggested =
        path_.isEmpty() ? QDir::homePath() : corpus.dir().filePath(corpus.completeBaseName() + "-scores.csv");
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export the corpus table"), suggested, tr("CSV files (*.csv)"));
    if (!path.isEmpty() && !exportCsv(path)) report(error_);
}

void CorpusBrowser::report(const QString& text) {
    error_ = text;
    emit errorReported(text);
    if (interactive_) QMessageBox::warning(this, tr("Corpus browser"), text);
}

QString CorpusBrowser::noticeText() const { return notice_->text(); }

void CorpusBrowser::updateNotice() {
    const std::vector<CorpusExample>& examples = model_->examples();
    if (examples.empty()) {
        notice_->setText(
            tr("Open a corpus: a TSV file of source<TAB>reference lines, with gold links (Pharaoh i-j) "
               "as an optional third column. Click a line to open it in the window."));
        return;
    }
    int aligned = 0;
    for (const CorpusExample& ex : examples) aligned += ex.has_alignment;
    QStringList parts;
    parts << tr("%1: %n line(s)", "", int(examples.size())).arg(QFileInfo(path_).fileName());
    if (aligned > 0) parts.last() += tr(" (%n with gold links)", "", aligned);
    if (skipped_count_ > 0)
        parts << tr("%n bad line(s) skipped (the first: %1)", "", int(skipped_count_)).arg(first_skipped_);
    if (isScoring() && !cancelled_) {
        parts << (model_->isStale() ? tr("scores are stale (another model): scoring again…") : tr("scoring…"));
    } else {
        EvalCounts total;  // the corpus measures of attnviz-cli eval over the lines scored
        int errors = 0;
        for (const LineScores& s : model_->scores()) {
            if (s.scored) total += s.counts;
            errors += !s.error.empty();
        }
        const EvalReport r = evalReport(total);
        if (total.lines < int64_t(examples.size()) - errors)
            parts << tr("cancelled: %1 of %2 lines scored").arg(total.lines).arg(examples.size());
        else
            parts << tr("scored in %1 s").arg(seconds_, 0, 'f', 2);
        if (total.lines > 0) {
            QString measures =
                tr("corpus BLEU %1, exact match %2 %").arg(r.bleu, 0, 'f', 2).arg(100.0 * r.exact_match, 0, 'f', 1);
            if (r.aer) measures += tr(", AER %1").arg(*r.aer, 0, 'f', 3);
            parts << measures;
        }
        if (errors > 0) parts << tr("%n line(s) not scored (see their tooltips)", "", errors);
    }
    if (isExplaining() && explain_method_)
        parts << tr("explaining by %1: %2 of %3 lines")
                     .arg(explainMethodTitle(*explain_method_))
                     .arg(explain_job_->done.load())
                     .arg(examples.size());
    notice_->setText(parts.join(QStringLiteral("; ")));
}

}  // namespace attnviz::ui
