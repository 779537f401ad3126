// MainWindow's corpus dock (views/corpus_browser.h): a TSV corpus scored line by line, hidden until File ▸ Open corpus
// or View ▸ Corpus shows it. A line clicked there becomes the window's sentence and reference (its gold links go to
// the gold links field and the compare view's), and the heatmap shows it.
#include "state/decode_state.h"
#include "training/training_job.h"
#include "views/compare_view.h"
#include "views/corpus_browser.h"
#include "views/gold_links_panel.h"
#include "window/dock_scroller.h"
#include "window/main_window.h"

#include <QDockWidget>

namespace attnviz::ui {

void MainWindow::createCorpusDock() {
    corpus_browser_ = new CorpusBrowser(state_, this);
    corpus_browser_->setStartFolder(sampleCorpusDirs().value(0));  // the sample corpora, Tatoeba's among them
    corpus_dock_ = new QDockWidget(this);
    corpus_dock_->setObjectName(QStringLiteral("CorpusDock"));
    corpus_dock_->setWidget(new DockScroller(corpus_browser_, corpus_dock_));
    addDockWidget(Qt::BottomDockWidgetArea, corpus_dock_);
    corpus_dock_->hide();
    keepHeatmapRoom(corpus_dock_, true);
    connect(corpus_browser_, &CorpusBrowser::lineActivated, this, &MainWindow::openCorpusLine);
    connect(corpus_browser_, &CorpusBrowser::errorReported, this, &MainWindow::errorReported);
}

bool MainWindow::openCorpus(const QString& path) {
    corpus_dock_->show();
    corpus_browser_->setInteractive(interactive_);
    if (corpus_browser_->openCorpus(path)) return true;
    reportError(tr("Cannot open the corpus"), corpus_browser_->errorText());
    return false;
}

void MainWindow::openCorpusLine(const QString& source, const QString& reference, const QString& gold) {
    compare_view_->setGoldLinks(gold);
    corpus_line_source_ = source;  // before the text changes: this is not the user typing
    if (sourceText() != source || state_->referenceText() != reference) {
        setSourceText(source);
        setReferenceText(reference);
        decodeNow();
    }
    gold_links_->setLinks(gold);  // after the decode: the links are checked against its words
}

// The source changed: a sentence the user typed over a corpus line's no longer has that line's reference and gold
// links (a forced decode onto another sentence's translation would mislead): they go, and the status bar says so.
void MainWindow::leaveCorpusLineIfEdited(const QString& source) {
    if (corpus_line_source_.isEmpty() || source == corpus_line_source_) return;
    corpus_line_source_.clear();
    if (state_->referenceText().isEmpty()) return;
    setReferenceText(QString());
    gold_links_->setLinks(QString());
    compare_view_->setGoldLinks(QString());
    showStatus(tr("The corpus line's reference and gold links were cleared: the sentence is no longer "
                  "that line's"),
               8000);
}

}  // namespace attnviz::ui
