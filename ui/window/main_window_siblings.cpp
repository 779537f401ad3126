// MainWindow's sibling models: the scoring buttons and the Siblings menu, which switch among the models of the same
// task and vocabularies (core/io/siblings) keeping the sentence, the step and a forced "what if".
#include "base/errors.h"
#include "window/main_window.h"

#include "heatmap/utf8_text.h"
#include "io/model_file.h"
#include "io/siblings.h"
#include "state/decode_state.h"
#include "state/forcing_history.h"
#include "state/model_names.h"
#include "window/siblings_menu.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>

namespace attnviz::ui {

void MainWindow::findSiblingModels() {
    siblings_.clear();
    score_siblings_.clear();
    const std::shared_ptr<const Model> model = this->model();
    if (!model) {
        siblings_menu_->clearSiblings();
        return;
    }
    const std::string path = modelPath().toStdString();
    siblings_ = findSiblings(path, *model);
    const Sibling self{path, model->config, isGuided(model->training, path)};
    for (ScoreKind score : {ScoreKind::Additive, ScoreKind::Dot, ScoreKind::ScaledDot, ScoreKind::General})
        if (const std::optional<Sibling> s = matchingSibling(siblings_, self, score))
            score_siblings_[score] = qs(s->path);
    siblings_menu_->setSiblings(siblings_, self, !model->task.empty());
}

bool MainWindow::switchScore(ScoreKind score) {
    if (!model()) return false;
    if (score == model()->config.score) return true;
    const auto it = score_siblings_.find(score);
    if (it == score_siblings_.end()) return false;
    return switchToSibling(it->second);
}

bool MainWindow::switchToSibling(const QString& sibling_path) {
    if (!model()) return false;
    const QString path = sibling_path;  // a copy: setModel refills the sibling lists
    std::shared_ptr<const Model> model;
    try {
        model = std::make_shared<const Model>(loadModel(path.toStdString()));
    } catch (const std::exception& e) {
        reportLoadError(path, qs(errorMessage(e)));
        updateScoreActions();  // the check goes back to the current model's score
        return false;
    }
    // A user at the end stays at the end of the sibling's decode, which may be longer or shorter.
    const int keep = cursorStep() >= stepCount() ? -1 : cursorStep();
    std::vector<int> forced = forcingForSibling(*model);
    setModel(std::move(model), path);
    state_->setForcedTokens(std::move(forced));
    decodes_->decodeNow(keep);  // same sentence, same step
    return true;
}

// A "what if" carries over as what the user forced: at the steps where the forced token was not the model's own
// choice, the same spelling in the sibling's vocabulary (up to the first one it does not know); at every other step,
// the sibling's own choice. The tokens this model chose on the way to a forced step are not the user's.
std::vector<int> MainWindow::forcingForSibling(const Model& sibling) const {
    std::vector<int> forced;
    const DecodeOutcome* decode = decodes_->outcome();
    if (!decode || state_->forcedTokens().empty()) return forced;
    const Vocabulary& from = model()->target_vocab;
    for (int row : userForcedRows(*decode, int(state_->forcedTokens().size()))) {
        const int id = decode->steps[size_t(row)].token;
        const int mapped = sibling.target_vocab.id(from.token(id));
        if (mapped == kUnk && id != kUnk) break;
        forced.resize(size_t(row), kModelsChoice);
        forced.push_back(mapped);
    }
    return forced;
}

// Why a score has no sibling to move to: none with that score, or those with it differ in more than the score.
QString MainWindow::noSiblingReason(ScoreKind score) const {
    const std::shared_ptr<const Model> model = this->model();
    const QString folder = QDir::toNativeSeparators(QFileInfo(modelPath()).path());
    const QString task = !model->task.empty() ? qs(model->task) : tr("(none)");
    const QString name = qs(toString(score));
    const std::string path = modelPath().toStdString();
    const Sibling self{path, model->config, isGuided(model->training, path)};
    QStringList others;
    for (const Sibling& s : siblings_)
        if (s.config.score == score)
            others
                << tr("%1 differs in more: %2").arg(QFileInfo(qs(s.path)).fileName(), siblingDifferencesText(self, s));
    if (others.isEmpty()) return tr("no model trained with %1 scoring for task %2 in %3").arg(name, task, folder);
    return tr("no model trained with %1 scoring and this model's other settings for task %2 in %3 (%4; see "
              "Siblings)")
        .arg(name, task, folder, others.join(QStringLiteral("; ")));
}

void MainWindow::updateScoreActions() {
    const std::shared_ptr<const Model> model = this->model();
    for (auto& [score, act] : score_acts_) {
        const auto it = score_siblings_.find(score);
        const bool has = it != score_siblings_.end();
        act->setEnabled(has);
        act->setChecked(model && model->config.score == score);
        const QString name = qs(toString(score));
        if (!model)
            act->setToolTip(tr("Open a model first"));
        else if (has)
            act->setToolTip(
                tr("Show the model trained with %1 scoring (%2)").arg(name, QFileInfo(it->second).fileName()));
        else
            act->setToolTip(noSiblingReason(score));
        act->setStatusTip(act->toolTip());
    }
}

}  // namespace attnviz::ui
