// The main window's head importance dock (views/head_importance_panel.h; View ▸ Head importance, under the heatmap
// beside the head grid). Its lines are the corpus browser's when a corpus is open there, else the open model's sample test split
// (<sample corpora folder>/<task>/test.tsv, the folders of training/training_job.h's sampleCorpusDirs, where
// sample_models/build.sh generates them). A head clicked there is shown in the head grid and in the heatmap.
#include "base/errors.h"
#include "heatmap/utf8_text.h"
#include "io/corpus.h"
#include "io/input_file.h"
#include "state/decode_state.h"
#include "training/training_job.h"
#include "views/corpus_browser.h"
#include "views/corpus_table_model.h"
#include "views/head_grid.h"
#include "views/head_importance_panel.h"
#include "window/dock_scroller.h"
#include "window/main_window.h"

#include <QDir>
#include <QDockWidget>
#include <QFileInfo>

namespace attnviz::ui {

namespace {

constexpr uint64_t kMaxSplitBytes = uint64_t(64) << 20;  // a test split is a few hundred kilobytes

// `path` read with the model's tokenizer, its bad lines skipped (the corpus browser's rules).
std::vector<CorpusExample> readSplit(const Model& model, const QString& path) {
    const std::string file = QDir::toNativeSeparators(path).toStdString();
    CorpusOptions options;
    options.tokenizer = model.config.tokenizer;
    options.skip_bad_lines = true;
    return parseCorpus(readRegularFile(file, kMaxSplitBytes), inputName(file), options).examples;
}

}  // namespace

void MainWindow::createHeadImportanceDock() {
    head_importance_ = new HeadImportancePanel(state_, this);
    head_importance_->setCorpusSource([this] { return headImportanceCorpus(); });
    head_importance_dock_ = new QDockWidget(this);
    head_importance_dock_->setObjectName(QStringLiteral("HeadImportanceDock"));
    head_importance_dock_->setWidget(new DockScroller(head_importance_, head_importance_dock_));
    // under the heatmap beside the head grid: a head clicked here is shown there, both in view
    addDockWidget(Qt::BottomDockWidgetArea, head_importance_dock_);
    splitDockWidget(head_dock_, head_importance_dock_, Qt::Horizontal);
    head_importance_dock_->hide();  // View ▸ Head importance
    keepHeatmapRoom(head_importance_dock_, true);
    connect(head_importance_, &HeadImportancePanel::headActivated, this, &MainWindow::showHead);
    // a corpus opened in the browser becomes the panel's lines
    connect(corpus_browser_->tableModel(), &QAbstractItemModel::modelReset, head_importance_,
            &HeadImportancePanel::refreshCorpus);
}

HeadImportanceCorpus MainWindow::headImportanceCorpus() const {
    HeadImportanceCorpus c;
    const std::vector<CorpusExample>& open = corpus_browser_->tableModel()->examples();
    if (!open.empty()) {
        auto lines = std::make_shared<std::vector<CorpusExample>>();
        for (const CorpusExample& ex : open)
            if (ex.has_target) lines->push_back(ex);
        c.name = QFileInfo(corpus_browser_->corpusPath()).fileName();
        if (lines->empty())
            c.error = tr("No line of %1 has a reference to score the translations against.").arg(c.name);
        c.examples = std::move(lines);
        return c;
    }
    const std::shared_ptr<const Model> m = model();
    if (!m) return c;
    const QString task = qs(m->task);
    if (task.isEmpty()) {
        c.error =
            tr("Open a corpus with references (File ▸ Open corpus): this model names no task whose sample test "
               "split could stand in.");
        return c;
    }
    for (const QString& dir : sampleCorpusDirs()) {
        const QString path = QDir(dir).filePath(task + QStringLiteral("/test.tsv"));
        if (!QFileInfo(path).isFile()) continue;
        c.name = tr("%1 sample test split").arg(task);
        try {
            c.examples = std::make_shared<const std::vector<CorpusExample>>(readSplit(*m, path));
        } catch (const std::exception& e) {
            c.error = tr("Cannot read %1: %2").arg(QDir::toNativeSeparators(path), qs(errorMessage(e)));
        }
        return c;
    }
    c.error = tr("Open a corpus with references (File ▸ Open corpus), or generate the sample corpora "
                 "(sample_models/build.sh): the %1 test split was not found.")
                  .arg(task);
    return c;
}

void MainWindow::showHead(const HeadRef& head) {
    head_dock_->show();
    head_dock_->raise();
    head_grid_->setAveraged(false);
    head_grid_->setKind(head.kind);
    state_->setAttentionView({head.kind, head.layer, head.head});
}

}  // namespace attnviz::ui
