#include "window/reference_fold.h"

#include "views/gold_links_panel.h"

#include <QFormLayout>
#include <QLineEdit>
#include <QToolButton>

namespace attnviz::ui {

ReferenceFold::ReferenceFold(QFormLayout* form, QLineEdit* reference, GoldLinksPanel* gold, QWidget* parent)
    : QObject(parent), form_(form), reference_(reference), gold_(gold) {
    button_ = new QToolButton(parent);
    button_->setAutoRaise(true);
    button_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    connect(button_, &QToolButton::clicked, this, [this] {
        setFolded(!folded_);
        if (!folded_) reference_->setFocus(Qt::ShortcutFocusReason);
    });
    connect(reference_, &QLineEdit::textChanged, this, &ReferenceFold::update);
    connect(gold_, &GoldLinksPanel::marksChanged, this, &ReferenceFold::update);
    retranslate();
}

void ReferenceFold::setCompact(bool compact) {
    if (compact == compact_) return;
    compact_ = compact;
    setFolded(compact);
}

void ReferenceFold::setFolded(bool folded) {
    folded_ = folded;
    form_->setRowVisible(reference_, !folded);
    form_->setRowVisible(gold_, !folded);
    update();
}

QString ReferenceFold::summary() const {
    const QString reference = reference_->text().trimmed();
    QString text = reference.isEmpty() ? tr("No reference: the model decodes by itself.")
                                       : tr("The model is forced onto the reference “%1”.").arg(reference);
    if (const auto& counts = gold_->counts())
        text += u' ' + tr("Gold links: AER %1.").arg(counts->aer(), 0, 'f', 3);
    else if (!gold_->links().trimmed().isEmpty())
        text += u' ' + tr("Gold links are typed.");
    return text;
}

void ReferenceFold::retranslate() { update(); }

void ReferenceFold::update() {
    const bool forced = !reference_->text().trimmed().isEmpty();
    button_->setArrowType(folded_ ? Qt::RightArrow : Qt::DownArrow);
    button_->setText(folded_ && forced ? tr("Reference (forced)") : tr("Reference"));
    button_->setToolTip(folded_ ? tr("%1\nClick to show the reference and gold links fields.").arg(summary())
                                : tr("Fold the reference and gold links fields away."));
}

}  // namespace attnviz::ui
