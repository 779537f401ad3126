#include "views/force_token_box.h"
#include "heatmap/utf8_text.h"

#include "decode/decoding.h"
#include "model/model.h"
#include "state/decode_state.h"

#include <QAction>
#include <QCompleter>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QStringListModel>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>

namespace attnviz::ui {

ForceTokenBox::ForceTokenBox(QWidget* parent)
    : QWidget(parent),
      label_(new QLabel(this)),
      edit_(new QLineEdit(this)),
      completer_(new QCompleter(this)),
      words_(new QStringListModel(this)),
      error_(new QLabel(this)),
      clear_(new QToolButton(this)) {
    edit_->setClearButtonEnabled(true);
    label_->setBuddy(edit_);
    completer_->setModel(words_);
    completer_->setCompletionMode(QCompleter::PopupCompletion);
    completer_->setCaseSensitivity(Qt::CaseInsensitive);
    completer_->setModelSorting(QCompleter::CaseInsensitivelySortedModel);
    completer_->setMaxVisibleItems(10);
    edit_->setCompleter(completer_);
    // After QLineEdit's own connection (which writes the chosen word into the field).
    connect(completer_, qOverload<const QString&>(&QCompleter::activated), this, &ForceTokenBox::submit);
    connect(edit_, &QLineEdit::returnPressed, this, [this] { submit(edit_->text()); });
    connect(edit_, &QLineEdit::textEdited, error_, &QLabel::clear);
    error_->setWordWrap(true);
    error_->setStyleSheet(QStringLiteral("color: rgb(200, 30, 30)"));
    clear_->setToolButtonStyle(Qt::ToolButtonTextOnly);
    clear_->hide();

    auto* row = new QHBoxLayout;
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(edit_, 1);
    row->addWidget(clear_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 0, 4, 4);
    layout->addWidget(label_);
    layout->addLayout(row);
    layout->addWidget(error_);
    retranslateUi();
    refresh();
}

void ForceTokenBox::retranslateUi() {
    label_->setText(tr("Or force &any output token here:"));
    edit_->setPlaceholderText(tr("Type a word of the model's output vocabulary…"));
    edit_->setToolTip(
        tr("Type any token of the model's output vocabulary (the list completes it) and press Enter: it is forced at "
           "this step and the decoder goes on from it. Edit ▸ Undo takes it back."));
}

void ForceTokenBox::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
        error_->clear();
    }
}

void ForceTokenBox::setDecodeState(DecodeState* state) {
    if (state_) disconnect(state_, nullptr, this, nullptr);
    state_ = state;
    if (state_) {
        connect(state_, &DecodeState::decodeChanged, this, &ForceTokenBox::decodeChanged);
        connect(state_, &DecodeState::cursorChanged, this, &ForceTokenBox::refresh);
    }
    decodeChanged();
}

void ForceTokenBox::setClearAction(QAction* action) {
    clear_->setDefaultAction(action);
    clear_->setVisible(action != nullptr);
}

QString ForceTokenBox::errorText() const { return error_->text(); }

void ForceTokenBox::decodeChanged() {
    const std::shared_ptr<const Model> model = state_ ? state_->decodedModel() : nullptr;
    if (model && model != model_) {
        // Every token a step can output (not <pad>, <sos>, the decoder's start or a forbidden one).
        QStringList words;
        const auto& tokens = model->target_vocab.tokens();
        for (size_t i = 0; i < tokens.size(); ++i)
            if (canProduce(*model, int(i))) words << qs(tokens[i]);
        std::sort(words.begin(), words.end(),
                  [](const QString& a, const QString& b) { return a.compare(b, Qt::CaseInsensitive) < 0; });
        words_->setStringList(words);
        model_ = model;
    }
    refresh();
}

void ForceTokenBox::refresh() {
    const bool step = state_ && state_->currentStep() != nullptr;
    edit_->setEnabled(step);
    label_->setEnabled(step);
}

int ForceTokenBox::tokenId(const QString& text) const {
    if (!model_) return -1;
    const Vocabulary& vocab = model_->target_vocab;
    for (const QString& spelling : {text, text.toLower()}) {
        const std::string s = spelling.toStdString();
        if (vocab.contains(s) && canProduce(*model_, vocab.id(s))) return vocab.id(s);
        if (!model_->config.tokenizer.lowercase) break;
    }
    return -1;
}

void ForceTokenBox::submit(const QString& typed) {
    const QString text = typed.trimmed();
    if (text.isEmpty() || !edit_->isEnabled()) return;
    const int id = tokenId(text);
    if (id < 0) {
        error_->setText(tr("“%1” is not in the model's output vocabulary: choose a word from the list.").arg(text));
        return;
    }
    error_->clear();
    edit_->clear();
    emit tokenChosen(id);
}

}  // namespace attnviz::ui
