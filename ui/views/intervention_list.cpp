#include "views/intervention_list.h"

#include "heatmap/plot_palette.h"
#include "state/decode_state.h"
#include "state/intervention_edits.h"
#include "state/output_diff.h"

#include <QCheckBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QToolButton>
#include <QVBoxLayout>

namespace attnviz::ui {

InterventionListView::InterventionListView(DecodeState* state, InterventionEdits* edits, QWidget* parent)
    : QWidget(parent), state_(state), edits_(edits) {
    change_ = new QLabel(this);
    change_->setObjectName(QStringLiteral("interventionChange"));
    change_->setWordWrap(true);
    change_->setTextFormat(Qt::PlainText);
    message_ = new QLabel(this);
    message_->setObjectName(QStringLiteral("interventionMessage"));
    message_->setWordWrap(true);
    message_->setTextFormat(Qt::PlainText);
    message_->hide();
    auto* list = new QWidget(this);
    rows_ = new QVBoxLayout(list);
    rows_->setContentsMargins(0, 0, 0, 0);
    rows_->addStretch(1);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(list);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);  // the entries wrap instead
    scroll->setMinimumHeight(2 * fontMetrics().height());          // an entry, scrolling: the list fits a short window
    plain_ = new QPushButton(this);
    plain_->setObjectName(QStringLiteral("plainModel"));
    connect(plain_, &QPushButton::clicked, edits_, &InterventionEdits::clear);

    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(plain_);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(change_);
    layout->addWidget(message_);
    layout->addWidget(scroll, 1);
    layout->addLayout(buttons);

    connect(state_, &DecodeState::interventionsChanged, this, [this] {
        setMessage(QString());
        rebuildRows();
    });
    connect(state_, &DecodeState::decodeChanged, this, &InterventionListView::showChange);
    retranslateUi();
}

void InterventionListView::retranslateUi() {
    plain_->setText(tr("&Plain model"));
    plain_->setToolTip(tr("Take every intervention away: the model as it was trained (one step of Edit ▸ Undo)"));
    rebuildRows();
}

void InterventionListView::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) retranslateUi();
}

void InterventionListView::rebuildRows() {
    while (rows_->count() > 1) {  // the rows, not the stretch at the end
        QLayoutItem* item = rows_->takeAt(0);
        item->widget()->hide();
        item->widget()->deleteLater();  // a row's own switch or button may be what emitted the change
        delete item;
    }
    const InterventionList& list = state_->interventions();
    for (int i = 0; i < int(list.size()); ++i) {
        auto* row = new QWidget;
        auto* h = new QHBoxLayout(row);
        h->setContentsMargins(0, 0, 0, 0);
        auto* on = new QCheckBox(row);
        on->setObjectName(QStringLiteral("interventionSwitch"));
        auto* text = new QLabel(interventionText(list[size_t(i)]), row);  // wraps in a narrow dock
        text->setObjectName(QStringLiteral("interventionText"));
        text->setTextFormat(Qt::PlainText);
        text->setWordWrap(true);
        text->setEnabled(list[size_t(i)].enabled);
        on->setAccessibleName(text->text());
        on->setChecked(list[size_t(i)].enabled);
        on->setToolTip(tr("On: the decode makes this intervention; off: kept in the list, not made"));
        connect(on, &QCheckBox::toggled, this, [this, i, on](bool checked) {
            QString why;
            if (!edits_->setEnabled(i, checked, &why)) {
                const QSignalBlocker block(on);
                on->setChecked(!checked);
                if (!why.isEmpty()) setMessage(why);
            }
        });
        auto* remove = new QToolButton(row);
        remove->setObjectName(QStringLiteral("interventionRemove"));
        remove->setIcon(QIcon::fromTheme(QStringLiteral("edit-delete")));  // no theme: the text shows
        remove->setText(tr("Remove"));
        remove->setToolTip(tr("Remove this intervention from the list"));
        connect(remove, &QToolButton::clicked, this, [this, i] { edits_->remove(i); });
        h->addWidget(on);
        h->addWidget(text, 1);
        h->addWidget(remove);
        rows_->insertWidget(rows_->count() - 1, row);
    }
    plain_->setEnabled(!list.empty());
    showChange();
}

void InterventionListView::showChange() {
    const PrefixDecoding* decode = state_->decode();
    const PrefixDecoding* plain = state_->plainDecode();
    if (state_->interventions().empty()) {
        change_->setText(
            tr("No interventions: the plain model. Right-click a source word in the heatmap to knock it out, a cell "
               "to make its step attend only there (recurrent models), or a head in the Attention heads dock to "
               "remove it (Transformers)."));
    } else if (!decode || !plain) {
        change_->setText(tr("Every intervention is switched off, or the decode has not come yet: the plain model."));
    } else {
        const ChangeCounts c = countChanges(diffTokens(plain->result.target_tokens, decode->result.target_tokens));
        change_->setText(c.unchanged()
                             ? tr("The output is the plain model's, token for token (%n token(s)).", "", c.kept)
                             : tr("Against the plain model: %1 changed, %2 added, %3 dropped, %4 kept.")
                                   .arg(c.changed)
                                   .arg(c.added)
                                   .arg(c.dropped)
                                   .arg(c.kept));
    }
}

QString InterventionListView::changeText() const { return change_->text(); }

QString InterventionListView::messageText() const { return message_->isHidden() ? QString() : message_->text(); }

void InterventionListView::setMessage(const QString& text) {
    message_->setText(text);
    message_->setVisible(!text.isEmpty());
    message_->setStyleSheet(text.isEmpty() ? QString() : warningStyleSheet(palette()));
}

}  // namespace attnviz::ui
