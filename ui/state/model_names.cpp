#include "state/model_names.h"
#include "heatmap/utf8_text.h"
#include "io/marian_folder.h"

#include <QFileInfo>

#include "heatmap/utf8_text.h"

#include <QCoreApplication>
#include <QStringList>

namespace attnviz::ui {

QString decoderKindName(DecoderKind kind) {
    switch (kind) {
    case DecoderKind::Bahdanau:
        return QCoreApplication::translate("attnviz::ui::ModelNames", "Bahdanau (RNN)");
    case DecoderKind::Luong:
        return QCoreApplication::translate("attnviz::ui::ModelNames", "Luong (RNN)");
    case DecoderKind::Transformer:
        break;
    }
    return QCoreApplication::translate("attnviz::ui::ModelNames", "Transformer");
}

QString scoringName(ScoreKind score) {
    switch (score) {
    case ScoreKind::Additive:
        return QCoreApplication::translate("attnviz::ui::ModelNames", "additive");
    case ScoreKind::Dot:
        return QCoreApplication::translate("attnviz::ui::ModelNames", "dot");
    case ScoreKind::ScaledDot:
        return QCoreApplication::translate("attnviz::ui::ModelNames", "scaled dot");
    case ScoreKind::General:
        break;
    }
    return QCoreApplication::translate("attnviz::ui::ModelNames", "general");
}

QString spanName(SpanKind span) {
    switch (span) {
    case SpanKind::LocalM:
        return QCoreApplication::translate("attnviz::ui::ModelNames", "local-m (monotonic)");
    case SpanKind::LocalP:
        return QCoreApplication::translate("attnviz::ui::ModelNames", "local-p (predictive)");
    case SpanKind::Global:
        break;
    }
    return QCoreApplication::translate("attnviz::ui::ModelNames", "global");
}

QString modelDisplayName(const Model& model, const QString& path) {
    if (!model.marian) return QFileInfo(path).fileName();
    if (!model.marian->repository.empty()) return qs(model.marian->repository);
    return QFileInfo(qs(marianFolderOf(path.toStdString()))).fileName();
}

QString tokenizerName(TokenizerKind kind) {
    switch (kind) {
    case TokenizerKind::Word:
        return QCoreApplication::translate("attnviz::ui::ModelNames", "word");
    case TokenizerKind::Char:
        return QCoreApplication::translate("attnviz::ui::ModelNames", "char");
    case TokenizerKind::SentencePiece:
        return QStringLiteral("SentencePiece");  // a name, the same in every language
    case TokenizerKind::Whitespace:
        break;
    }
    return QCoreApplication::translate("attnviz::ui::ModelNames", "whitespace");
}

QString siblingDifferencesText(const Sibling& current, const Sibling& other) {
    const ModelConfig& b = other.config;
    QStringList parts;
    for (const SiblingDifference d : siblingDifferenceKinds(current, other)) {
        switch (d) {
        case SiblingDifference::Decoder:
            parts << decoderKindName(b.decoder);
            break;
        case SiblingDifference::Score:
            parts << scoringName(b.score);
            break;
        case SiblingDifference::Span:
            parts << (b.span == SpanKind::Global ? spanName(b.span)
                                                 : QCoreApplication::translate("attnviz::ui::ModelNames", "%1, D = %2")
                                                       .arg(spanName(b.span))
                                                       .arg(b.window));
            break;
        case SiblingDifference::Window:
            parts << QStringLiteral("D = %1").arg(b.window);
            break;
        case SiblingDifference::InputFeeding:
            parts << (b.input_feeding ? QCoreApplication::translate("attnviz::ui::ModelNames", "input feeding")
                                      : QCoreApplication::translate("attnviz::ui::ModelNames", "no input feeding"));
            break;
        case SiblingDifference::Guided:
            parts << (other.guided ? QCoreApplication::translate("attnviz::ui::ModelNames", "guided")
                                   : QCoreApplication::translate("attnviz::ui::ModelNames", "unguided"));
            break;
        case SiblingDifference::Sizes:
            parts << qs(sizesSummary(b));
            break;
        case SiblingDifference::Tokenizer:
            parts << QCoreApplication::translate("attnviz::ui::ModelNames", "tokenizer %1 → %2, %3")
                         .arg(tokenizerName(b.tokenizer.source), tokenizerName(b.tokenizer.target),
                              b.tokenizer.lowercase
                                  ? QCoreApplication::translate("attnviz::ui::ModelNames", "lowercase")
                                  : QCoreApplication::translate("attnviz::ui::ModelNames", "cased"));
            break;
        case SiblingDifference::OtherSettings:
            parts << QCoreApplication::translate("attnviz::ui::ModelNames", "other settings");
            break;
        }
    }
    return parts.isEmpty() ? QCoreApplication::translate("attnviz::ui::ModelNames", "same settings")
                           : parts.join(QStringLiteral(" · "));
}

}  // namespace attnviz::ui
