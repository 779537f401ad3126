#include "heatmap/attention_view_data.h"
#include "heatmap/utf8_text.h"

#include <QCoreApplication>

namespace attnviz::ui {

namespace {

QStringList qtTokens(const std::vector<std::string>& tokens) {
    QStringList out;
    for (const std::string& t : tokens) out << qs(t);
    return out;
}

}  // namespace

HeatmapData heatmapDataOf(const DecodeResult& r, const AttentionView& view) {
    if (view.isDefault() || !isValidView(r, view)) return HeatmapData::fromDecode(r);
    const AttentionAxes axes = attentionViewAxes(r, view.kind);
    HeatmapData d;
    d.target_tokens = qtTokens(axes.rows);
    d.source_tokens = qtTokens(axes.cols);
    d.weights = attentionViewRows(r, view);
    d.causal = view.kind == AttentionKind::DecoderSelf;
    return d;
}

QString attentionKindName(AttentionKind kind) {
    switch (kind) {
    case AttentionKind::EncoderSelf:
        return QCoreApplication::translate("attnviz::ui::AttentionView", "encoder self-attention");
    case AttentionKind::DecoderSelf:
        return QCoreApplication::translate("attnviz::ui::AttentionView", "decoder self-attention");
    case AttentionKind::Cross:
        break;
    }
    return QCoreApplication::translate("attnviz::ui::AttentionView", "cross-attention");
}

QString attentionViewTitle(const AttentionView& view, int nhead) {
    if (view.isDefault())
        return nhead > 0 ? QCoreApplication::translate("attnviz::ui::AttentionView",
                                                       "Attention (last layer, mean of the heads)")
                         : QCoreApplication::translate("attnviz::ui::AttentionView", "Attention");
    QString name = attentionKindName(view.kind);
    name[0] = name[0].toUpper();
    if (view.head >= 0)
        return QCoreApplication::translate("attnviz::ui::AttentionView", "%1, layer %2, head %3")
            .arg(name)
            .arg(view.layer + 1)
            .arg(view.head + 1);
    return QCoreApplication::translate("attnviz::ui::AttentionView", "%1, layer %2, mean of %3 heads")
        .arg(name)
        .arg(view.layer + 1)
        .arg(nhead);
}

QString attentionViewAxesText(AttentionKind kind) {
    switch (kind) {
    case AttentionKind::EncoderSelf:
        return QCoreApplication::translate("attnviz::ui::AttentionView",
                                           "rows: source tokens (queries) · columns: source tokens (keys)");
    case AttentionKind::DecoderSelf:
        return QCoreApplication::translate(
            "attnviz::ui::AttentionView",
            "rows: output tokens · columns: decoder inputs (<sos> then the output so far); none above the "
            "diagonal");
    case AttentionKind::Cross:
        break;
    }
    return QCoreApplication::translate("attnviz::ui::AttentionView", "rows: output tokens · columns: source tokens");
}

}  // namespace attnviz::ui
