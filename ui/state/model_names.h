// A model's settings in the reader's language (docs/translation.md's glossary; the engine's own names where they are
// the names people type), for the status bar, the training form, the Siblings menu and the compare view: the decoder
// kind, the scoring function, the attention span, the tokenizers, and how a sibling differs from the open model.
#pragma once
#include "io/siblings.h"
#include "model/config.h"

#include <QString>

namespace attnviz::ui {

QString decoderKindName(DecoderKind kind);  // "Bahdanau (RNN)", "Luong (RNN)", "Transformer"
QString scoringName(ScoreKind score);       // "additive", "dot", "scaled dot", "general"
QString spanName(SpanKind span);            // "global", "local-m (monotonic)", "local-p (predictive)"
QString tokenizerName(TokenizerKind kind);  // "whitespace", "word", "char"
// What `other` has that `current` has not (core's siblingDifferenceKinds, each in words), joined with " · ";
// "same settings" when there is nothing.
QString siblingDifferencesText(const Sibling& current, const Sibling& other);

}  // namespace attnviz::ui
