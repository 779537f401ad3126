#include "window/siblings_menu.h"

#include "heatmap/utf8_text.h"
#include "state/model_names.h"

#include <QAction>
#include <QActionGroup>
#include <QDir>
#include <QFileInfo>

namespace attnviz::ui {

SiblingsMenu::SiblingsMenu(QWidget* parent) : QMenu(tr("S&iblings"), parent) {
    setToolTipsVisible(true);
    clearSiblings();
}

QString SiblingsMenu::entryText(const Sibling& current, const Sibling& other) {
    const QString file = QFileInfo(qs(other.path)).completeBaseName();
    if (QFileInfo(qs(other.path)).absoluteFilePath() == QFileInfo(qs(current.path)).absoluteFilePath())
        return tr("%1 — this model").arg(file);
    return tr("%1 — %2").arg(file, siblingDifferencesText(current, other));
}

void SiblingsMenu::removeEntries() {
    clear();  // deletes the entries (the menu owns them); their group goes too
    qDeleteAll(findChildren<QActionGroup*>(QString(), Qt::FindDirectChildrenOnly));
}

void SiblingsMenu::clearSiblings() {
    removeEntries();
    addAction(tr("(no model open)"))->setEnabled(false);
}

void SiblingsMenu::setSiblings(const std::vector<Sibling>& siblings, const Sibling& current, bool has_task) {
    removeEntries();
    auto* group = new QActionGroup(this);
    group->setExclusive(true);
    const QString self = QFileInfo(qs(current.path)).absoluteFilePath();
    for (const Sibling& s : siblings) {
        const QString path = qs(s.path);
        QAction* a = addAction(entryText(current, s));
        a->setCheckable(true);
        a->setActionGroup(group);
        a->setData(path);
        const bool is_self = QFileInfo(path).absoluteFilePath() == self;
        a->setChecked(is_self);
        a->setToolTip(QDir::toNativeSeparators(path));
        a->setStatusTip(is_self ? tr("The open model") : tr("Open this sibling, keeping the sentence and the step"));
        // Queued: switching rebuilds this menu, which must not delete the entry while it is emitting.
        connect(
            a, &QAction::triggered, this,
            [this, path, is_self] {
                if (!is_self) emit siblingChosen(path);
            },
            Qt::QueuedConnection);
    }
    if (siblings.size() <= 1) {
        QAction* none = addAction(has_task ? tr("(no other model in this folder has its task and vocabularies)")
                                           : tr("(the model has no task metadata, so it has no siblings)"));
        none->setEnabled(false);
    }
}

}  // namespace attnviz::ui
