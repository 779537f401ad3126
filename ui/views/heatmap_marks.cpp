#include "views/heatmap_marks.h"

#include "heatmap/heatmap_view.h"
#include "model/vocab.h"
#include "state/decode_state.h"
#include "state/forcing_history.h"
#include "state/word_view.h"

namespace attnviz::ui {

LabelMarks labelMarksOf(const DecodeState& state) {
    LabelMarks marks;
    const PrefixDecoding* decode = state.decode();
    // Forced rows and unknown source words are marks of the target × source axes: not of a self-attention's.
    if (!decode || state.attentionView().kind != AttentionKind::Cross) return marks;
    marks.forced_rows = userForcedRows(*decode, int(state.forcedTokens().size()));
    const std::vector<int>& source = decode->source.ids;
    for (int j = 0; j < int(source.size()); ++j)
        if (source[size_t(j)] == kUnk) marks.unknown_cols << j;
    // A row the model wrote as <unk> says so in its label; a reference word it does not know keeps its spelling.
    const DecodeResult& r = decode->result;
    for (int i = 0; i < int(r.target_ids.size()) && i < int(r.target_tokens.size()); ++i)
        if (r.target_ids[size_t(i)] == kUnk && r.target_tokens[size_t(i)] != kSpecialTokens[kUnk])
            marks.unknown_rows << i;
    if (state.wordsShown()) {  // the axes are words (state/word_view.h): a word is marked when one of its pieces is
        const auto toWords = [](const auto& pieces, const std::vector<WordSpan>& words) {
            std::decay_t<decltype(pieces)> out;
            for (int p : pieces)
                if (const int w = wordOfPiece(words, p); w >= 0 && !out.contains(w)) out << w;
            return out;
        };
        marks.forced_rows = toWords(marks.forced_rows, r.target_words);
        marks.unknown_rows = toWords(marks.unknown_rows, r.target_words);
        marks.unknown_cols = toWords(marks.unknown_cols, r.source_words);
    }
    return marks;
}

void bindLabelMarks(HeatmapView* view, DecodeState* state) {
    const auto update = [view, state] { view->setLabelMarks(labelMarksOf(*state)); };
    QObject::connect(state, &DecodeState::decodeChanged, view, update);
    QObject::connect(state, &DecodeState::forcedTokensChanged, view, update);
    QObject::connect(state, &DecodeState::attentionViewChanged, view, update);
    QObject::connect(state, &DecodeState::wordsChanged, view, update);
    update();
}

}  // namespace attnviz::ui
