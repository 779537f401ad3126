// The source sentence editor: words the model does not know are underlined (wavy red) with a tooltip saying they
// become <unk>, and a completer offers vocabulary words for the word being typed.
#pragma once
#include "model/model.h"

#include <QPlainTextEdit>
#include <QSyntaxHighlighter>

#include <memory>
#include <vector>

class QCompleter;
class QStringListModel;

namespace attnviz::ui {

// A token of the text as the model's source tokenizer sees it, with where it is in the text (UTF-16 positions).
struct TokenSpan {
    int start = 0;
    int length = 0;
    QString token;  // as tokenized (lower-cased when the tokenizer does)
    bool known = true;
};

// Which of the model's languages a text is in: the source sentence or a (reference) translation.
enum class TextSide { Source, Target };

// Tokens of `text` with their positions, in order, as the model's tokenizer for `side` sees them, `known` against
// that side's vocabulary. Tokens that cannot be found back in the text (rare case mappings) are left out; the char
// tokenizer's "▁" is never reported.
std::vector<TokenSpan> locateTokens(const Model& model, const QString& text, TextSide side = TextSide::Source);

class UnknownWordHighlighter : public QSyntaxHighlighter {
    Q_OBJECT
public:
    explicit UnknownWordHighlighter(QTextDocument* document);
    void setModel(std::shared_ptr<const Model> model);

protected:
    void highlightBlock(const QString& text) override;

private:
    std::shared_ptr<const Model> model_;
};

class SourceEditor : public QPlainTextEdit {
    Q_OBJECT
public:
    explicit SourceEditor(QWidget* parent = nullptr);
    // The vocabulary for marking and completion (the model stays alive while held here).
    void setModel(std::shared_ptr<const Model> model);
    QString text() const { return toPlainText(); }
    void setText(const QString& text) { setPlainText(text); }
    // The unknown words of the whole text (for the notice line and tests).
    QStringList unknownWords() const;
    QCompleter* completer() const { return completer_; }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    // Compact (a short window, docs/gui.md "Small screens"): one line, three once the user clicks, tabs or types into
    // it (not when the window merely gives it the focus), one again when the focus leaves; otherwise four lines where
    // the window has room, two at least.
    void setCompact(bool on);
    bool isCompact() const { return compact_; }
    static constexpr int kCompactLines = 1, kCompactTypingLines = 3;

protected:
    bool event(QEvent* e) override;  // tooltips over unknown words; the placeholder in a new language
    void keyPressEvent(QKeyEvent* e) override;
    void focusInEvent(QFocusEvent* e) override;
    void focusOutEvent(QFocusEvent* e) override;

private:
    int heightForLines(int lines) const;
    static QString placeholder();
    void insertCompletion(const QString& completion);
    QString wordUnderCursor() const;
    void updateCompleterPopup();

    std::shared_ptr<const Model> model_;
    UnknownWordHighlighter* highlighter_;
    QCompleter* completer_;
    QStringListModel* words_;
    bool compact_ = false;
    bool grown_ = false;  // compact, and the user is typing here
    void setGrown(bool on);
    void applyLines();
};

}  // namespace attnviz::ui
