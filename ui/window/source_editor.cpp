#include "window/source_editor.h"
#include "heatmap/utf8_text.h"

#include "text/tokenizer.h"

#include <QAbstractItemView>
#include <QCompleter>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QScrollBar>
#include <QStringListModel>
#include <QTextBlock>
#include <QToolTip>

#include <algorithm>

namespace attnviz::ui {

std::vector<TokenSpan> locateTokens(const Model& model, const QString& text, TextSide side) {
    std::vector<TokenSpan> spans;
    std::vector<std::string> tokens;
    const bool source = side == TextSide::Source;
    const Vocabulary& vocab = source ? model.source_vocab : model.target_vocab;
    try {
        tokens = tokenize(text.toStdString(), source ? model.config.tokenizer.source : model.config.tokenizer.target,
                          model.config.tokenizer.lowercase);
    } catch (const std::exception&) {
        return spans;  // QString always converts to valid UTF-8; nothing sensible to mark otherwise
    }
    // Tokens are substrings of the (lower-cased) text, in order: find each after the previous one.
    const QString haystack = model.config.tokenizer.lowercase ? text.toLower() : text;
    const QString space = QStringLiteral("\u2581");
    spans.reserve(tokens.size());
    qsizetype pos = 0;
    for (const std::string& t : tokens) {
        const QString token = qs(t);
        if (token == space) continue;
        const qsizetype at = haystack.indexOf(token, pos);
        if (at < 0) continue;
        spans.push_back({int(at), int(token.size()), token, vocab.contains(t)});
        pos = at + token.size();
    }
    return spans;
}

UnknownWordHighlighter::UnknownWordHighlighter(QTextDocument* document) : QSyntaxHighlighter(document) {}

void UnknownWordHighlighter::setModel(std::shared_ptr<const Model> model) {
    model_ = std::move(model);
    rehighlight();
}

void UnknownWordHighlighter::highlightBlock(const QString& text) {
    if (!model_ || text.isEmpty()) return;
    QTextCharFormat unknown;
    unknown.setUnderlineStyle(QTextCharFormat::WaveUnderline);
    unknown.setUnderlineColor(QColor(220, 30, 30));
    for (const TokenSpan& s : locateTokens(*model_, text))
        if (!s.known) setFormat(s.start, s.length, unknown);
}

QString SourceEditor::placeholder() { return tr("Type a sentence in the source language…"); }

SourceEditor::SourceEditor(QWidget* parent)
    : QPlainTextEdit(parent),
      highlighter_(new UnknownWordHighlighter(document())),
      completer_(new QCompleter(this)),
      words_(new QStringListModel(this)) {
    setTabChangesFocus(true);
    setPlaceholderText(placeholder());
    completer_->setModel(words_);
    completer_->setWidget(this);
    completer_->setCompletionMode(QCompleter::PopupCompletion);
    completer_->setCaseSensitivity(Qt::CaseInsensitive);
    completer_->setModelSorting(QCompleter::CaseInsensitivelySortedModel);
    completer_->setMaxVisibleItems(10);
    connect(completer_, qOverload<const QString&>(&QCompleter::activated), this, &SourceEditor::insertCompletion);
}

void SourceEditor::setModel(std::shared_ptr<const Model> model) {
    model_ = std::move(model);
    highlighter_->setModel(model_);
    QStringList words;
    if (model_ && model_->config.tokenizer.source != TokenizerKind::Char) {
        const auto& tokens = model_->source_vocab.tokens();
        for (size_t i = 4; i < tokens.size(); ++i) {
            const QString w = qs(tokens[i]);
            if (w.size() >= 2 && std::any_of(w.begin(), w.end(), [](QChar c) { return c.isLetter(); })) words << w;
        }
        std::sort(words.begin(), words.end(),
                  [](const QString& a, const QString& b) { return a.compare(b, Qt::CaseInsensitive) < 0; });
    }
    words_->setStringList(words);
}

QStringList SourceEditor::unknownWords() const {
    QStringList out;
    if (!model_) return out;
    for (const TokenSpan& s : locateTokens(*model_, toPlainText()))
        if (!s.known) out << s.token;
    return out;
}

// Four lines where the window has room, two in a short one (a longer sentence scrolls); compact, one line or three.
QSize SourceEditor::sizeHint() const {
    const int lines = !compact_ ? 4 : grown_ ? kCompactTypingLines : kCompactLines;
    return {QPlainTextEdit::sizeHint().width(), heightForLines(lines)};
}
QSize SourceEditor::minimumSizeHint() const {
    const int lines = !compact_ ? 2 : grown_ ? kCompactTypingLines : kCompactLines;
    return {QPlainTextEdit::minimumSizeHint().width(), heightForLines(lines)};
}

void SourceEditor::setCompact(bool on) {
    if (on == compact_) return;
    compact_ = on;
    grown_ = false;
    applyLines();
}

void SourceEditor::setGrown(bool on) {
    on = on && compact_;
    if (on == grown_) return;
    grown_ = on;
    applyLines();
}

// One line is not wrapped (a wrapped second line would peep under the first), has no room for scroll bars and shows
// the sentence's start; three lines show the cursor.
void SourceEditor::applyLines() {
    const bool one_line = compact_ && !grown_;
    setLineWrapMode(one_line ? QPlainTextEdit::NoWrap : QPlainTextEdit::WidgetWidth);
    setVerticalScrollBarPolicy(one_line ? Qt::ScrollBarAlwaysOff : Qt::ScrollBarAsNeeded);
    setHorizontalScrollBarPolicy(one_line ? Qt::ScrollBarAlwaysOff : Qt::ScrollBarAsNeeded);
    updateGeometry();
    if (one_line)
        horizontalScrollBar()->setValue(0);
    else
        ensureCursorVisible();
}

int SourceEditor::heightForLines(int lines) const {
    return fontMetrics().lineSpacing() * lines + 2 * frameWidth() + 2 * int(document()->documentMargin());
}

bool SourceEditor::event(QEvent* e) {
    if (e->type() == QEvent::LanguageChange) setPlaceholderText(placeholder());
    if (e->type() == QEvent::ToolTip && model_) {
        auto* help = static_cast<QHelpEvent*>(e);
        const QTextCursor c = cursorForPosition(viewport()->mapFromGlobal(help->globalPos()));
        const QTextBlock block = c.block();
        const int at = c.positionInBlock();
        for (const TokenSpan& s : locateTokens(*model_, block.text())) {
            if (!s.known && at >= s.start && at <= s.start + s.length) {
                QToolTip::showText(help->globalPos(),
                                   tr("'%1' is not in the model's vocabulary: it becomes <unk>").arg(s.token), this);
                return true;
            }
        }
        QToolTip::hideText();
        e->ignore();
        return true;
    }
    return QPlainTextEdit::event(e);
}

void SourceEditor::focusInEvent(QFocusEvent* e) {
    completer_->setWidget(this);
    QPlainTextEdit::focusInEvent(e);
    const Qt::FocusReason r = e->reason();
    if (r == Qt::MouseFocusReason || r == Qt::TabFocusReason || r == Qt::BacktabFocusReason ||
        r == Qt::ShortcutFocusReason)
        setGrown(true);
}

void SourceEditor::focusOutEvent(QFocusEvent* e) {
    QPlainTextEdit::focusOutEvent(e);
    if (e->reason() != Qt::PopupFocusReason && e->reason() != Qt::ActiveWindowFocusReason)
        setGrown(false);  // the completer's list, or another window for a moment, keeps it open
}

void SourceEditor::keyPressEvent(QKeyEvent* e) {
    if (completer_->popup()->isVisible()) {
        switch (e->key()) {
        case Qt::Key_Enter:
        case Qt::Key_Return:
        case Qt::Key_Escape:
        case Qt::Key_Tab:
        case Qt::Key_Backtab:
            e->ignore();  // the completer takes these
            return;
        default:
            break;
        }
    }
    QPlainTextEdit::keyPressEvent(e);
    if (!e->text().isEmpty()) setGrown(true);
    if (e->text().isEmpty() || words_->rowCount() == 0) {
        if (e->key() != Qt::Key_Shift && e->key() != Qt::Key_Control) completer_->popup()->hide();
        return;
    }
    updateCompleterPopup();
}

QString SourceEditor::wordUnderCursor() const {
    const QTextCursor c = textCursor();
    const QString line = c.block().text().left(c.positionInBlock());
    qsizetype start = line.size();
    while (start > 0) {
        const QChar ch = line[start - 1];
        if (!(ch.isLetterOrNumber() || ch == u'\'' || ch == u'-')) break;
        --start;
    }
    return line.mid(start);
}

void SourceEditor::updateCompleterPopup() {
    const QString prefix = wordUnderCursor();
    if (prefix.size() < 2) {
        completer_->popup()->hide();
        return;
    }
    if (prefix != completer_->completionPrefix()) {
        completer_->setCompletionPrefix(prefix);
        completer_->popup()->setCurrentIndex(completer_->completionModel()->index(0, 0));
    }
    // Nothing to offer when the only match is the word itself.
    if (completer_->completionCount() == 0 ||
        (completer_->completionCount() == 1 &&
         completer_->currentCompletion().compare(prefix, Qt::CaseInsensitive) == 0)) {
        completer_->popup()->hide();
        return;
    }
    QRect r = cursorRect();
    r.setWidth(completer_->popup()->sizeHintForColumn(0) +
               completer_->popup()->verticalScrollBar()->sizeHint().width());
    completer_->complete(r);
}

void SourceEditor::insertCompletion(const QString& completion) {
    if (completer_->widget() != this) return;
    QTextCursor c = textCursor();
    const qsizetype typed = completer_->completionPrefix().size();
    c.movePosition(QTextCursor::Left, QTextCursor::KeepAnchor, int(typed));
    c.insertText(completion);  // replaces the typed part (its case too) by the vocabulary's spelling
    setTextCursor(c);
}

}  // namespace attnviz::ui
