#include "window/output_line.h"

#include "heatmap/plot_palette.h"
#include "state/decode_state.h"

#include <QEvent>

namespace attnviz::ui {

OutputLine::OutputLine(QWidget* parent) : QLabel(parent) {
    setWordWrap(true);
    setTextFormat(Qt::RichText);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
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

void OutputLine::refresh() {
    if (!state_ || !state_->hasDecode()) {
        clear();
        return;
    }
    const PrefixDecoding& decode = *state_->decode();
    const auto& tokens = decode.result.target_tokens;
    const bool chars = state_->decodedModel()->config.tokenizer.target == TokenizerKind::Char;
    const int cursor = state_->cursor();
    QString html = tr("<b>Output:</b> ");
    for (int i = 0; i < int(tokens.size()); ++i) {
        QString t = QString::fromStdString(tokens[size_t(i)]).toHtmlEscaped();
        if (chars && t == QStringLiteral("\u2581")) t = QStringLiteral("&nbsp;");
        if (decode.steps[size_t(i)].forced) t = QStringLiteral("<i>%1</i>").arg(t);
        if (i == cursor - 1)
            t = QStringLiteral("<u><b>%1</b></u>").arg(t);
        else if (i >= cursor)
            t = QStringLiteral("<span style='color:%1'>%2</span>").arg(dimmedTextColor(palette()).name(), t);
        html += t;
        if (!chars) html += u' ';
    }
    setText(html);
}

void OutputLine::changeEvent(QEvent* event) {
    QLabel::changeEvent(event);
    if (event->type() == QEvent::LanguageChange || event->type() == QEvent::PaletteChange) refresh();
}

}  // namespace attnviz::ui
