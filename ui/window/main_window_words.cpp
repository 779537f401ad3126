// The main window and Hugging Face Marian folders (docs/marian.md "In the window"): File ▸ Open model folder…, and
// View ▸ Pieces / Words (also on the View toolbar), which shows a SentencePiece model's decode merged into words
// (state/word_view.h) in the heatmap, the head grid and the explanation shown. The steps, the step panel, the cell
// inspector's numbers, forcing and interventions stay in pieces; the line above the heatmap says so, and says when
// the target's words are clause-sized chunks (Chinese).
#include "io/marian_folder.h"
#include "state/decode_state.h"
#include "state/word_view.h"
#include "window/main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QToolBar>

namespace attnviz::ui {

void MainWindow::createWordsActions() {
    open_folder_act_ = new QAction(tr("Open model &folder…"), this);
    open_folder_act_->setShortcut(QKeySequence(tr("Ctrl+Shift+O")));
    open_folder_act_->setStatusTip(tr("Open a Hugging Face Marian (opus-mt) folder: one with config.json"));
    connect(open_folder_act_, &QAction::triggered, this, &MainWindow::openFolder);

    words_group_ = new QActionGroup(this);
    pieces_act_ = words_group_->addAction(tr("&Pieces"));
    pieces_act_->setStatusTip(tr("Show the SentencePiece pieces the model reads and writes (▁ starts a word)"));
    words_act_ = words_group_->addAction(tr("&Words"));
    words_act_->setStatusTip(tr("Show words: a word's columns summed, its rows averaged (the steps stay pieces)"));
    for (QAction* a : {pieces_act_, words_act_}) a->setCheckable(true);
    words_act_->setShortcut(QKeySequence(tr("Ctrl+Shift+W")));
    (state_->showsWords() ? words_act_ : pieces_act_)->setChecked(true);
    connect(words_act_, &QAction::toggled, state_, &DecodeState::setShowsWords);
    // once: the state outlives the actions, which a language change makes again
    connect(state_, &DecodeState::wordsChanged, this, &MainWindow::showAttentionView, Qt::UniqueConnection);
    connect(state_, &DecodeState::decodeChanged, this, &MainWindow::updateWordsActions, Qt::UniqueConnection);
    connect(state_, &DecodeState::wordsChanged, this, &MainWindow::updateWordsActions, Qt::UniqueConnection);
    updateWordsActions();
}

void MainWindow::addWordsActions(QWidget* menu_or_bar) {
    if (auto* menu = qobject_cast<QMenu*>(menu_or_bar)) menu->addSeparator();
    if (auto* bar = qobject_cast<QToolBar*>(menu_or_bar)) bar->addSeparator();
    menu_or_bar->addAction(pieces_act_);
    menu_or_bar->addAction(words_act_);
}

void MainWindow::updateWordsActions() {
    if (!words_group_) return;
    const bool words = state_->decode() && hasWords(state_->decode()->result);
    words_group_->setEnabled(words);
    (state_->showsWords() ? words_act_ : pieces_act_)->setChecked(true);  // also when set elsewhere (--words)
    const QString why = tr("Pieces and words are for SentencePiece models (Hugging Face Marian folders)");
    for (QAction* a : {pieces_act_, words_act_}) a->setToolTip(words ? a->statusTip() : why);
}

void MainWindow::openFolder() {
    const QString dir = modelPath().isEmpty() ? QDir::homePath() : QFileInfo(modelPath()).path();
    const QString path = QFileDialog::getExistingDirectory(this, tr("Open model folder"), dir);
    if (!path.isEmpty()) openModel(path);
}

// The line above the heatmap in words: what a cell is, what stays pieces, and chunks where words are not words.
QString MainWindow::wordsText() const {
    if (!state_->wordsShown()) return {};
    QString text =
        tr("Words: a word's columns are summed, its rows averaged. The steps, the step panel, forcing "
           "and interventions count pieces.");
    if (clauseSizedTargetWords(state_->decode()->result))
        text += QLatin1Char(' ') + tr("The target's pieces rarely start with ▁ (as in Chinese), so its words are "
                                      "clause-sized chunks: Pieces shows them one by one.");
    return text;
}

}  // namespace attnviz::ui
