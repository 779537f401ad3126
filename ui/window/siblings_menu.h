// The window's "Siblings" menu: every sibling of the open model (io/siblings.h) by file name, each with what differs
// from the open model ("en_fr-luong-general-feed — luong · general · input feeding"); the open model is checked.
// Choosing one emits siblingChosen with its path; MainWindow switches to it keeping the sentence and the step.
#pragma once
#include "io/siblings.h"

#include <QMenu>

#include <vector>

namespace attnviz::ui {

class SiblingsMenu : public QMenu {
    Q_OBJECT
public:
    explicit SiblingsMenu(QWidget* parent = nullptr);
    // Rebuilds the entries; `current` is the open model (its entry among `siblings` has the same path). With no
    // siblings but the model itself the menu holds one disabled entry saying why.
    void setSiblings(const std::vector<Sibling>& siblings, const Sibling& current, bool has_task);
    void clearSiblings();  // no model open

    // The menu text of `other` seen from `current`: "FILE — what differs" ("FILE — this model" for itself).
    static QString entryText(const Sibling& current, const Sibling& other);

signals:
    void siblingChosen(const QString& path);

private:
    void removeEntries();
};

}  // namespace attnviz::ui
