// A model's settings in the reader's language (docs/translation.md's glossary; the engine's own names where they are
// the names people type), for the status bar, the training form, the Siblings menu and the compare view: the decoder
// kind, the scoring function, the attention span, the tokenizers, and how a sibling differs from the open model.
#pragma once
#include "io/siblings.h"
#include "model/config.h"
#include "model/model.h"

#include <QString>

namespace attnviz::ui {

// The name a model goes by in titles and the status bar: a Hugging Face Marian folder's repository
// ("Helsinki-NLP/opus-mt-en-zh"), else its folder's name; an attnviz file's name.
QString modelDisplayName(const Model& model, const QString& path);
QString decoderKindName(DecoderKind kind);  // "Bahdanau (RNN)", "Luong (RNN)", "Transformer"
QString scoringName(ScoreKind score);       // "additive", "dot", "scaled dot", "general"
QString spanName(SpanKind span);            // "global", "local-m (monotonic)", "local-p (predictive)"
QString tokenizerName(TokenizerKind kind);  // "whitespace", "word", "char", "SentencePiece"
// What `other` has that `current` has not (core's siblingDifferenceKinds, each in words), joined with " · ";
// "same settings" when there is nothing.
QString siblingDifferencesText(const Sibling& current, const Sibling& other);

}  // namespace attnviz::ui
