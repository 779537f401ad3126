#include "window/output_line.h"
#include "heatmap/utf8_text.h"

#include "heatmap/plot_palette.h"
#include "state/decode_state.h"
#include "state/output_diff.h"

#include <QEvent>

namespace attnviz::ui {

OutputLine::OutputLine(QWidget* parent) : QLabel(parent) {
    setWordWrap(true);
    setTextFormat(Qt::RichText);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    // The window's width is not the output's to set: a word longer than the line (a detokenized translation without
    // spaces) is cut at the edge rather than widening the window past the screen.
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    // At least a line as tall as one with CJK (fallback fonts are taller): the heatmap below does not move when the
    // output's script changes.
    QLabel probe;
    probe.setTextFormat(Qt::RichText);
    probe.setText(QStringLiteral("<b>Ag</b> 我 あ 한"));
    setMinimumHeight(probe.sizeHint().height());
}

void OutputLine::setDecodeState(DecodeState* state) {
    if (state_) disconnect(state_, nullptr, this, nullptr);
    state_ = state;
    if (state_) {
        connect(state_, &DecodeState::decodeChanged, this, &OutputLine::refresh);
        connect(state_, &DecodeState::cursorChanged, this, &OutputLine::refresh);
    }
    refresh();
}

namespace {

const char* const kChanged = "#0072B2";  // blue
const char* const kAdded = "#009E73";    // bluish green
const char* const kDropped = "#D55E00";  // vermillion

QString escaped(const std::string& token, bool chars) {
    QString t = qs(token).toHtmlEscaped();
    if (chars && t == QStringLiteral("\u2581")) t = QStringLiteral("&nbsp;");
    return t;
}

}  // namespace

QString OutputLine::tokenHtml(int i, const QString& text) const {
    const PrefixDecoding& decode = *state_->decode();
    const int cursor = state_->cursor();
    QString t = text;
    if (decode.steps[size_t(i)].forced) t = QStringLiteral("<i>%1</i>").arg(t);
    if (i == cursor - 1) return QStringLiteral("<u><b>%1</b></u>").arg(t);
    if (i >= cursor)
        return QStringLiteral("<span style='color:%1'>%2</span>").arg(dimmedTextColor(palette()).name(), t);
    return t;
}

void OutputLine::refresh() {
    if (!state_ || !state_->hasDecode()) {
        clear();
        setToolTip(QString());
        return;
    }
    const PrefixDecoding& decode = *state_->decode();
    const auto& tokens = decode.result.target_tokens;
    const bool chars = state_->decodedModel()->config.tokenizer.target == TokenizerKind::Char;
    const QString gap = chars ? QString() : QStringLiteral(" ");
    QString html = tr("<b>Output:</b> ");
    const PrefixDecoding* plain = state_->plainDecode();
    if (!plain && !decode.result.target_words.empty()) {  // a SentencePiece model: its translation as text
        setText(html + qs(decode.result.text).toHtmlEscaped());
        setToolTip(
            tr("The translation as text (the pieces joined and detokenized); the heatmap and the step panel "
               "show the pieces the model produced."));
        return;
    }
    if (!plain) {
        for (int i = 0; i < int(tokens.size()); ++i) html += tokenHtml(i, escaped(tokens[size_t(i)], chars)) + gap;
        setText(html);
        setToolTip(QString());
        return;
    }
    const auto& before = plain->result.target_tokens;
    for (const TokenChange& c : diffTokens(before, tokens)) {
        switch (c.kind) {
        case TokenChange::Kind::Kept:
            html += tokenHtml(c.after, escaped(tokens[size_t(c.after)], chars));
            break;
        case TokenChange::Kind::Changed:
            html += QStringLiteral(
                        "<span style='color:%1;text-decoration:overline'>%2</span>"
                        "<span style='color:%1'><small>(%3)</small></span>")
                        .arg(QLatin1String(kChanged), tokenHtml(c.after, escaped(tokens[size_t(c.after)], chars)),
                             escaped(before[size_t(c.before)], chars));
            break;
        case TokenChange::Kind::Added:
            html += QStringLiteral("<span style='color:%1'><b>+</b>%2</span>")
                        .arg(QLatin1String(kAdded), tokenHtml(c.after, escaped(tokens[size_t(c.after)], chars)));
            break;
        case TokenChange::Kind::Dropped:
            html += QStringLiteral("<span style='color:%1;text-decoration:line-through'>%2</span>")
                        .arg(QLatin1String(kDropped), escaped(before[size_t(c.before)], chars));
            break;
        }
        html += gap;
    }
    setText(html);
    setToolTip(
        tr("Against the plain model's output: overlined (blue) = changed, the plain token in brackets; "
           "+ (green) = added; struck through (vermillion) = dropped."));
}

void OutputLine::changeEvent(QEvent* event) {
    QLabel::changeEvent(event);
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::PaletteChange) refresh();
}

}  // namespace attnviz::ui
